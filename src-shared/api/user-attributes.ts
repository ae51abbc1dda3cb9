import { Type, type Static } from 'typebox';
import { defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';

export const USER_ATTRIBUTE_TYPES = ['string', 'number', 'boolean', 'string_array', 'number_array'] as const;
export type UserAttributeType = (typeof USER_ATTRIBUTE_TYPES)[number];

export const MAX_ATTRIBUTE_STRING_LENGTH = 1000;
export const MAX_ATTRIBUTE_ARRAY_ITEMS = 1000;

export const UserAttributeTypeSchema = Type.Enum(USER_ATTRIBUTE_TYPES as unknown as UserAttributeType[], {
  description: 'Type every value of the attribute must have',
});

/** Any value of some attribute type; the server checks it against the attribute's own type. */
export const UserAttributeValueSchema = Type.Union(
  [
    Type.String({ maxLength: MAX_ATTRIBUTE_STRING_LENGTH }),
    Type.Number(),
    Type.Boolean(),
    Type.Array(Type.String({ maxLength: MAX_ATTRIBUTE_STRING_LENGTH }), { maxItems: MAX_ATTRIBUTE_ARRAY_ITEMS }),
    Type.Array(Type.Number(), { maxItems: MAX_ATTRIBUTE_ARRAY_ITEMS }),
  ],
  { description: 'A string, number, boolean, array of strings or array of numbers, as the attribute type says' },
);
export type UserAttributeValue = Static<typeof UserAttributeValueSchema>;

/**
 * A value in a request: any JSON, so that a value of the wrong type is answered with the clear
 * `USER_ATTRIBUTE_VALUE_INVALID` (naming the attribute's type) rather than a schema mismatch.
 */
const UserAttributeValueInput = Type.Unknown({
  description:
    'A string, number, boolean, array of strings or array of numbers, as the attribute type says; ' +
    'checked against the type (400 `USER_ATTRIBUTE_VALUE_INVALID`)',
});

export const USER_ATTRIBUTE_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]{0,63}$';

export const UserAttribute = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: 'Identifier used in security contexts and claims' }),
  displayName: Nullable(Type.String()),
  type: UserAttributeTypeSchema,
  description: Nullable(Type.String()),
  defaultValue: Nullable(UserAttributeValueSchema),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type UserAttribute = Static<typeof UserAttribute>;

const AttributeName = Type.String({ pattern: USER_ATTRIBUTE_NAME_PATTERN, description: 'Letters, digits and _; not starting with a digit; up to 64' });
const DisplayName = Type.String({ minLength: 1, maxLength: 255 });
const Description = Type.String({ maxLength: 2000 });

export const CreateUserAttributeInput = Type.Object(
  {
    name: AttributeName,
    displayName: Type.Optional(Nullable(DisplayName)),
    type: UserAttributeTypeSchema,
    description: Type.Optional(Nullable(Description)),
    defaultValue: Type.Optional(UserAttributeValueInput),
  },
  { additionalProperties: false },
);

export const UpdateUserAttributeInput = Type.Object(
  {
    name: Type.Optional(AttributeName),
    displayName: Type.Optional(Nullable(DisplayName)),
    type: Type.Optional(UserAttributeTypeSchema),
    description: Type.Optional(Nullable(Description)),
    defaultValue: Type.Optional(UserAttributeValueInput),
  },
  { additionalProperties: false },
);

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const listUserAttributes = defineRoute({
  method: 'GET',
  path: '/api/v1/user-attributes/',
  operationId: 'listUserAttributes',
  tag: 'User Attributes',
  summary: 'List user attribute definitions (admin)',
  query: Type.Object(PageQuery),
  response: Page(UserAttribute),
});

export const createUserAttribute = defineRoute({
  method: 'POST',
  path: '/api/v1/user-attributes/',
  operationId: 'createUserAttribute',
  tag: 'User Attributes',
  summary: 'Define a user attribute (admin)',
  status: 201,
  body: CreateUserAttributeInput,
  response: UserAttribute,
});

export const getUserAttribute = defineRoute({
  method: 'GET',
  path: '/api/v1/user-attributes/{id}',
  operationId: 'getUserAttribute',
  tag: 'User Attributes',
  summary: 'Get a user attribute definition (admin)',
  params: IdParams,
  response: UserAttribute,
});

export const updateUserAttribute = defineRoute({
  method: 'PUT',
  path: '/api/v1/user-attributes/{id}',
  operationId: 'updateUserAttribute',
  tag: 'User Attributes',
  summary: 'Change a user attribute definition (admin); fields left out keep their value',
  description: 'The type can change only while no user has a value for the attribute (409 `USER_ATTRIBUTE_IN_USE`).',
  params: IdParams,
  body: UpdateUserAttributeInput,
  response: UserAttribute,
});

export const UserAttributeValueEntry = Type.Object({
  attributeId: Type.Integer(),
  name: Type.String(),
  type: UserAttributeTypeSchema,
  value: UserAttributeValueSchema,
  isDefault: Type.Boolean({ description: 'The user has no value of their own; this is the attribute’s default' }),
});

export const UserAttributeValues = Type.Object({
  userId: Type.Integer(),
  values: Type.Array(UserAttributeValueEntry, { description: 'Every attribute the user has a value or a default for' }),
});
export type UserAttributeValues = Static<typeof UserAttributeValues>;

export const getUserAttributeValues = defineRoute({
  method: 'GET',
  path: '/api/v1/user-attribute-values/{userId}',
  operationId: 'getUserAttributeValues',
  tag: 'User Attribute Values',
  summary: 'A user’s attribute values (admin, or the user themself)',
  params: Type.Object({ userId: Type.Integer({ minimum: 1 }) }),
  response: UserAttributeValues,
});

export const SetUserAttributeValuesInput = Type.Object(
  {
    userId: Type.Integer({ minimum: 1 }),
    values: Type.Array(
      Type.Object(
        {
          attributeId: Type.Integer({ minimum: 1 }),
          value: UserAttributeValueInput,
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 200, description: 'A null value removes the user’s own value (the default applies again)' },
    ),
  },
  { additionalProperties: false },
);

export const setUserAttributeValues = defineRoute({
  method: 'POST',
  path: '/api/v1/user-attribute-values/',
  operationId: 'setUserAttributeValues',
  tag: 'User Attribute Values',
  summary: 'Set a user’s attribute values (admin); all or none are written',
  description: 'Each value is checked against its attribute’s type; one wrong value rejects the request with 400 and writes nothing.',
  body: SetUserAttributeValuesInput,
  response: UserAttributeValues,
});

export const userAttributeRoutes = {
  listUserAttributes,
  createUserAttribute,
  getUserAttribute,
  updateUserAttribute,
  getUserAttributeValues,
  setUserAttributeValues,
};
