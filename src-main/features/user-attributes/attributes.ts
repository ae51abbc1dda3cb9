import {
  MAX_ATTRIBUTE_ARRAY_ITEMS,
  MAX_ATTRIBUTE_STRING_LENGTH,
  type UserAttribute,
  type UserAttributeType,
  type UserAttributeValue,
  type UserAttributeValues,
} from '../../../src-shared/api/user-attributes';
import type { ServiceContext } from '../../context';
import { ApiError, conflict, invalidField, notFound } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { getUserRow } from '../identity';

interface AttributeRow {
  id: number;
  name: string;
  display_name: string | null;
  type: UserAttributeType;
  description: string | null;
  default_value: string | null;
  created_at: string;
  updated_at: string;
}

export const USER_ATTRIBUTE_NOT_FOUND = 'USER_ATTRIBUTE_NOT_FOUND';

const toAttribute = (row: AttributeRow): UserAttribute => ({
  id: row.id,
  name: row.name,
  displayName: row.display_name,
  type: row.type,
  description: row.description,
  defaultValue: row.default_value === null ? null : (JSON.parse(row.default_value) as UserAttributeValue),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

function attributeRow(ctx: ServiceContext, id: number): AttributeRow {
  const row = ctx.db.prepare('SELECT * FROM user_attributes WHERE id = ?').get(id) as AttributeRow | undefined;
  if (!row) throw notFound(`User attribute ${id}`, USER_ATTRIBUTE_NOT_FOUND);
  return row;
}

/** Why `value` is not a value of `type`, or null when it is. */
export function valueProblem(type: UserAttributeType, value: unknown): string | null {
  const isString = (v: unknown) => typeof v === 'string' && v.length <= MAX_ATTRIBUTE_STRING_LENGTH;
  const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  const arrayOf = (check: (v: unknown) => boolean) => Array.isArray(value) && value.length <= MAX_ATTRIBUTE_ARRAY_ITEMS && value.every(check);
  switch (type) {
    case 'string':
      return isString(value) ? null : `must be a string of at most ${MAX_ATTRIBUTE_STRING_LENGTH} characters (the attribute is of type string)`;
    case 'number':
      return isNumber(value) ? null : 'must be a number (the attribute is of type number)';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false (the attribute is of type boolean)';
    case 'string_array':
      return arrayOf(isString) ? null : 'must be an array of strings (the attribute is of type string_array)';
    case 'number_array':
      return arrayOf(isNumber) ? null : 'must be an array of numbers (the attribute is of type number_array)';
  }
}

function assertValue(type: UserAttributeType, value: unknown, pointer: string): void {
  const problem = valueProblem(type, value);
  if (problem) throw new ApiError(400, 'USER_ATTRIBUTE_VALUE_INVALID', `${pointer} ${problem}.`, { errors: [{ pointer, detail: problem }] });
}

const nameTaken = (name: string) => conflict('USER_ATTRIBUTE_NAME_TAKEN', `A user attribute named "${name}" already exists.`);
const isUnique = (error: unknown) => error instanceof Error && error.message.includes('UNIQUE');

export function listUserAttributes(ctx: ServiceContext, page: PageRequest): PageResult<UserAttribute> {
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db.prepare('SELECT * FROM user_attributes WHERE id > ? ORDER BY id LIMIT ?').all(after ?? 0, limit) as AttributeRow[];
  return toPage(rows, page, (r) => r.id, toAttribute);
}

export const getUserAttribute = (ctx: ServiceContext, id: number): UserAttribute => toAttribute(attributeRow(ctx, id));

/** Every defined attribute (for claims and pickers). */
export function allUserAttributes(ctx: ServiceContext): UserAttribute[] {
  return (ctx.db.prepare('SELECT * FROM user_attributes ORDER BY id').all() as AttributeRow[]).map(toAttribute);
}

export interface NewUserAttribute {
  name: string;
  displayName?: string | null;
  type: UserAttributeType;
  description?: string | null;
  /** Checked against `type`; null for none. */
  defaultValue?: unknown;
}

export function createUserAttribute(ctx: ServiceContext, input: NewUserAttribute): UserAttribute {
  if (input.defaultValue !== undefined && input.defaultValue !== null) assertValue(input.type, input.defaultValue, '/body/defaultValue');
  const now = ctx.clock.now().toISOString();
  try {
    const id = Number(
      ctx.db
        .prepare(
          'INSERT INTO user_attributes (name, display_name, type, description, default_value, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          input.name,
          input.displayName ?? null,
          input.type,
          input.description ?? null,
          input.defaultValue === undefined || input.defaultValue === null ? null : JSON.stringify(input.defaultValue),
          now,
          now,
        ).lastInsertRowid,
    );
    return getUserAttribute(ctx, id);
  } catch (error) {
    if (isUnique(error)) throw nameTaken(input.name);
    throw error;
  }
}

export function updateUserAttribute(ctx: ServiceContext, id: number, input: Partial<NewUserAttribute>): UserAttribute {
  return ctx.db.transaction(() => {
    const row = attributeRow(ctx, id);
    const type = input.type ?? row.type;
    if (type !== row.type) {
      const used = ctx.db.prepare('SELECT COUNT(*) AS n FROM user_attribute_values WHERE attribute_id = ?').get(id) as { n: number };
      if (used.n > 0) {
        throw conflict(
          'USER_ATTRIBUTE_IN_USE',
          `User attribute "${row.name}" has values for ${used.n} user(s); its type cannot change from ${row.type} to ${type}.`,
        );
      }
    }
    let defaultValue = row.default_value;
    if (input.defaultValue !== undefined) defaultValue = input.defaultValue === null ? null : JSON.stringify(input.defaultValue);
    if (defaultValue !== null) {
      // A kept default must still fit a changed type.
      assertValue(type, JSON.parse(defaultValue), '/body/defaultValue');
    }
    try {
      ctx.db
        .prepare('UPDATE user_attributes SET name = ?, display_name = ?, type = ?, description = ?, default_value = ?, updated_at = ? WHERE id = ?')
        .run(
          input.name ?? row.name,
          input.displayName !== undefined ? input.displayName : row.display_name,
          type,
          input.description !== undefined ? input.description : row.description,
          defaultValue,
          ctx.clock.now().toISOString(),
          id,
        );
    } catch (error) {
      if (isUnique(error)) throw nameTaken(input.name ?? row.name);
      throw error;
    }
    return getUserAttribute(ctx, id);
  })();
}

/** A user's values: their own where set, else the attribute's default; attributes with neither are left out. */
export function getUserAttributeValues(ctx: ServiceContext, userId: number): UserAttributeValues {
  getUserRow(ctx, userId);
  const rows = ctx.db
    .prepare(
      `SELECT a.id, a.name, a.type, a.default_value, v.value
       FROM user_attributes a LEFT JOIN user_attribute_values v ON v.attribute_id = a.id AND v.user_id = ?
       WHERE v.value IS NOT NULL OR a.default_value IS NOT NULL
       ORDER BY a.id`,
    )
    .all(userId) as { id: number; name: string; type: UserAttributeType; default_value: string | null; value: string | null }[];
  return {
    userId,
    values: rows.map((r) => ({
      attributeId: r.id,
      name: r.name,
      type: r.type,
      value: JSON.parse((r.value ?? r.default_value) as string) as UserAttributeValue,
      isDefault: r.value === null,
    })),
  };
}

/** Sets (or with null clears) several values of one user: all are checked first, then all are written. */
export function setUserAttributeValues(
  ctx: ServiceContext,
  userId: number,
  values: { attributeId: number; value: unknown }[],
): UserAttributeValues {
  return ctx.db.transaction(() => {
    try {
      getUserRow(ctx, userId);
    } catch {
      throw invalidField('/body/userId', `User ${userId} does not exist.`);
    }
    const seen = new Set<number>();
    values.forEach((entry, index) => {
      if (seen.has(entry.attributeId)) throw invalidField(`/body/values/${index}/attributeId`, `Attribute ${entry.attributeId} appears twice.`);
      seen.add(entry.attributeId);
      const row = ctx.db.prepare('SELECT * FROM user_attributes WHERE id = ?').get(entry.attributeId) as AttributeRow | undefined;
      if (!row) {
        throw new ApiError(400, USER_ATTRIBUTE_NOT_FOUND, `User attribute ${entry.attributeId} does not exist.`, {
          errors: [{ pointer: `/body/values/${index}/attributeId`, detail: 'no such attribute' }],
        });
      }
      if (entry.value !== null) assertValue(row.type, entry.value, `/body/values/${index}/value`);
    });
    const now = ctx.clock.now().toISOString();
    const upsert = ctx.db.prepare(
      `INSERT INTO user_attribute_values (user_id, attribute_id, value, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id, attribute_id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    );
    const remove = ctx.db.prepare('DELETE FROM user_attribute_values WHERE user_id = ? AND attribute_id = ?');
    for (const entry of values) {
      if (entry.value === null) remove.run(userId, entry.attributeId);
      else upsert.run(userId, entry.attributeId, JSON.stringify(entry.value), now);
    }
    return getUserAttributeValues(ctx, userId);
  })();
}

/** Attribute name → the user's effective value, for claims (OIDC tokens, security contexts). */
export function attributeValuesByName(ctx: ServiceContext, userId: number): Record<string, UserAttributeValue> {
  return Object.fromEntries(getUserAttributeValues(ctx, userId).values.map((v) => [v.name, v.value]));
}
