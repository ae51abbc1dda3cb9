import { Type, type Static } from 'typebox';
import { defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';

const TAG = 'Users Admin';

/**
 * Actions a policy grants. The first five raise a member's access level (e.g. a viewer with
 * `SchemaUpdate`); the others are permissions areas check by name.
 */
export const POLICY_ACTIONS = [
  'DeploymentRead',
  'DeploymentEdit',
  'SchemaRead',
  'SchemaUpdate',
  'SqlRunnerRead',
  'SecretsManage',
  'DownloadData',
  'ChatHistoryRead',
] as const;
export type PolicyActionName = (typeof POLICY_ACTIONS)[number];

export const PolicyActionSchema = Type.Enum(POLICY_ACTIONS as unknown as PolicyActionName[], { description: 'An action a policy grants' });

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Description = Nullable(Type.String({ maxLength: 2000 }));
const Ids = (description: string) => Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000, uniqueItems: true, description });
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const Group = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  userIds: Type.Array(Type.Integer(), { description: 'Members' }),
  policyIds: Type.Array(Type.Integer(), { description: 'Policies attached to the group' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Group = Static<typeof Group>;

export const Policy = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  actions: Type.Array(PolicyActionSchema),
  groupIds: Type.Array(Type.Integer(), { description: 'Groups the policy is attached to; every member gets its actions' }),
  userIds: Type.Array(Type.Integer(), { description: 'Users the policy is attached to directly' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Policy = Static<typeof Policy>;

export const listGroups = defineRoute({
  method: 'GET',
  path: '/api/v1/groups',
  operationId: 'listGroups',
  tag: TAG,
  summary: 'List groups (admin)',
  query: Type.Object(PageQuery),
  response: Page(Group),
});

export const createGroup = defineRoute({
  method: 'POST',
  path: '/api/v1/groups',
  operationId: 'createGroup',
  tag: TAG,
  summary: 'Create a group (admin)',
  status: 201,
  body: Type.Object(
    { name: Name, description: Type.Optional(Description), userIds: Type.Optional(Ids('Members')) },
    { additionalProperties: false },
  ),
  response: Group,
});

export const getGroup = defineRoute({
  method: 'GET',
  path: '/api/v1/groups/{id}',
  operationId: 'getGroup',
  tag: TAG,
  summary: 'Get a group (admin)',
  params: IdParams,
  response: Group,
});

export const updateGroup = defineRoute({
  method: 'PUT',
  path: '/api/v1/groups/{id}',
  operationId: 'updateGroup',
  tag: TAG,
  summary: 'Change a group (admin); `userIds` replaces the members; fields left out keep their value',
  params: IdParams,
  body: Type.Object(
    { name: Type.Optional(Name), description: Type.Optional(Description), userIds: Type.Optional(Ids('The new member list')) },
    { additionalProperties: false },
  ),
  response: Group,
});

export const deleteGroup = defineRoute({
  method: 'DELETE',
  path: '/api/v1/groups/{id}',
  operationId: 'deleteGroup',
  tag: TAG,
  summary: 'Delete a group (admin); its members lose the group’s policies',
  params: IdParams,
  status: 204,
  response: Type.Null(),
});

const PolicyActions = Type.Array(PolicyActionSchema, { minItems: 1, maxItems: POLICY_ACTIONS.length, uniqueItems: true });

export const listPolicies = defineRoute({
  method: 'GET',
  path: '/api/v1/policies',
  operationId: 'listPolicies',
  tag: TAG,
  summary: 'List policies (admin)',
  query: Type.Object(PageQuery),
  response: Page(Policy),
});

export const createPolicy = defineRoute({
  method: 'POST',
  path: '/api/v1/policies',
  operationId: 'createPolicy',
  tag: TAG,
  summary: 'Create a policy and attach it to groups or users (admin)',
  status: 201,
  body: Type.Object(
    {
      name: Name,
      description: Type.Optional(Description),
      actions: PolicyActions,
      groupIds: Type.Optional(Ids('Groups to attach the policy to')),
      userIds: Type.Optional(Ids('Users to attach the policy to')),
    },
    { additionalProperties: false },
  ),
  response: Policy,
});

export const getPolicy = defineRoute({
  method: 'GET',
  path: '/api/v1/policies/{id}',
  operationId: 'getPolicy',
  tag: TAG,
  summary: 'Get a policy (admin)',
  params: IdParams,
  response: Policy,
});

export const updatePolicy = defineRoute({
  method: 'PUT',
  path: '/api/v1/policies/{id}',
  operationId: 'updatePolicy',
  tag: TAG,
  summary: 'Change a policy (admin); `groupIds` and `userIds` replace its attachments; fields left out keep their value',
  params: IdParams,
  body: Type.Object(
    {
      name: Type.Optional(Name),
      description: Type.Optional(Description),
      actions: Type.Optional(PolicyActions),
      groupIds: Type.Optional(Ids('Groups to attach the policy to')),
      userIds: Type.Optional(Ids('Users to attach the policy to')),
    },
    { additionalProperties: false },
  ),
  response: Policy,
});

export const deletePolicy = defineRoute({
  method: 'DELETE',
  path: '/api/v1/policies/{id}',
  operationId: 'deletePolicy',
  tag: TAG,
  summary: 'Delete a policy (admin)',
  params: IdParams,
  status: 204,
  response: Type.Null(),
});

export const accessRoutes = {
  listGroups,
  createGroup,
  getGroup,
  updateGroup,
  deleteGroup,
  listPolicies,
  createPolicy,
  getPolicy,
  updatePolicy,
  deletePolicy,
};
