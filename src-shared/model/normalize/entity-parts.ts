// Readers of the parts of a definition that are not members: joins (name, sql, relationship and
// its spellings, one join per target), pre-aggregations, a cube's refresh_key, and access
// policies (who they apply to, member-level and row-level rules, conditions) of cubes and views.

import { DiagnosticCodes as C } from '../codes';
import type {
  AccessPolicy,
  Join,
  PlainValue,
  PreAggregation,
  RawEntry,
  RawMap,
  Relationship,
} from '../types';
import { hasOpaque, normalizeEnum, plain, propsOf, sqlOf, type Ctx, type MemberContext } from './context';
import { checkMapValues } from './values';
import { checkPreAggregationForm } from './pre-aggregation-forms';
import { checkRowFilters, checkShapeList, checkShapeMap, CONDITION_SHAPE, PRE_AGGREGATION_REFRESH_SHAPE, RANGE_SHAPE } from './shapes';
import {
  ACCESS_POLICY_KEYS,
  EVERY_INTERVAL,
  INDEX_TYPES,
  PARTITION_GRANULARITIES,
  STREAM_OFFSETS,
  isCronExpression,
  isTimeZone,
  JOIN_KEYS,
  MEMBER_LEVEL_KEYS,
  PRE_AGGREGATION_KEYS,
  PRE_AGGREGATION_TYPES,
  PRE_AGGREGATION_REFRESH_KEY_KEYS,
  REFRESH_KEY_KEYS,
  RELATIONSHIPS,
  ROW_LEVEL_KEYS,
} from './keys';

export function readJoins(maps: RawMap[], ctx: Ctx, cubeName: string, what: string): Join[] {
  const joins: Join[] = [];
  const seen = new Set<string>();
  for (const map of maps) {
    const f = ctx.fields(map, JOIN_KEYS, `a join of ${what}`, cubeName);
    const nameEntry = f.get('name');
    const name = ctx.identifier(nameEntry, `joins of ${what}`, cubeName);
    if (!nameEntry) {
      ctx.error(C.MISSING_PROPERTY, `A join of ${what} has no name (the name is the joined cube)`, map, cubeName);
      continue;
    }
    if (name === undefined) continue;
    const jwhat = `join '${cubeName}' → '${name}' (${ctx.file})`;
    if (seen.has(name)) {
      ctx.error(C.DUPLICATE_JOIN, `Cube '${cubeName}' has two joins to cube '${name}' (${ctx.file})`, nameEntry.value, `${cubeName}.${name}`);
      continue;
    }
    seen.add(name);
    const sql = sqlOf(f.get('sql'), ctx, jwhat, cubeName);
    if (sql === undefined) ctx.error(C.SQL_REQUIRED, `Missing 'sql' for ${jwhat}`, map, cubeName);
    const relEntry = f.get('relationship');
    const relWritten = ctx.string(relEntry, jwhat, cubeName);
    let relationship: Relationship | undefined;
    if (relWritten !== undefined) {
      relationship = RELATIONSHIPS.get(normalizeEnum(relWritten));
      if (!relationship) {
        ctx.error(C.INVALID_RELATIONSHIP, `Invalid relationship '${relWritten}' for ${jwhat}; expected one_to_one, one_to_many or many_to_one (or has_one, has_many, belongs_to)`, relEntry!.value, cubeName);
      }
    } else if (!relEntry) {
      ctx.error(C.MISSING_PROPERTY, `Missing 'relationship' for ${jwhat}`, map, cubeName);
    }
    joins.push({
      name,
      loc: ctx.loc(map),
      sql: sql ?? '',
      sqlLoc: f.has('sql') ? ctx.loc(f.get('sql')!.value) : undefined,
      relationship: relationship ?? 'many_to_one',
      declaredRelationship: relWritten ?? '',
      equi: null,
      dynamic: ctx.mayBeOpaque && hasOpaque(f),
    });
  }
  return joins;
}

function refList(entry: RawEntry | undefined, ctx: Ctx, what: string, member: string): string[] {
  return (ctx.stringList(entry, what, member) ?? []).map((r) => r.replace(/^\{|\}$/g, '').trim());
}

export function readPreAggregation(map: RawMap, name: string, ctx: Ctx, mc: MemberContext): PreAggregation {
  const memberPath = `${mc.entity}.${name}`;
  const what = `pre-aggregation '${memberPath}' (${ctx.file})`;
  const f = ctx.fields(map, PRE_AGGREGATION_KEYS, what, memberPath);
  const typeWritten = ctx.string(f.get('type'), what, memberPath);
  const type = typeWritten === undefined ? 'rollup' : normalizeEnum(typeWritten);
  if (!PRE_AGGREGATION_TYPES.has(type)) {
    ctx.error(C.INVALID_VALUE, `Unknown pre-aggregation type '${typeWritten}' for ${what}; expected ${[...PRE_AGGREGATION_TYPES].join(', ')}`, f.get('type')!.value, memberPath);
  } else {
    checkPreAggregationForm(map, f, type, ctx, what, memberPath);
  }
  for (const range of ['build_range_start', 'build_range_end', 'refresh_range_start', 'refresh_range_end']) checkShapeMap(f.get(range), RANGE_SHAPE, ctx, what, memberPath);
  const timeDimension = ctx.string(f.get('time_dimension'), what, memberPath);
  ctx.oneOf(f.get('stream_offset'), STREAM_OFFSETS, what, memberPath);
  checkMapValues(f.get('indexes'), 'type', INDEX_TYPES, ctx, what, memberPath);
  if (f.has('refresh_key')) {
    readRefreshKey(f.get('refresh_key')!, ctx, what, memberPath, 'pre-aggregation');
    checkShapeMap(f.get('refresh_key'), PRE_AGGREGATION_REFRESH_SHAPE, ctx, what, memberPath);
  }
  return {
    name,
    loc: ctx.loc(map),
    type,
    measures: refList(f.get('measures'), ctx, what, memberPath),
    dimensions: refList(f.get('dimensions'), ctx, what, memberPath),
    segments: refList(f.get('segments'), ctx, what, memberPath),
    timeDimension: timeDimension?.replace(/^\{|\}$/g, '').trim(),
    granularity: ctx.string(f.get('granularity'), what, memberPath),
    partitionGranularity: ctx.oneOf(f.get('partition_granularity'), PARTITION_GRANULARITIES, what, memberPath),
    rollups: refList(f.get('rollups'), ctx, what, memberPath),
    dynamic: ctx.mayBeOpaque && hasOpaque(f),
    props: propsOf(f),
  };
}

/** A refresh key; a pre-aggregation's takes incremental and update_window, a cube's immutable. */
export function readRefreshKey(entry: RawEntry, ctx: Ctx, what: string, member: string, of: 'cube' | 'pre-aggregation' = 'cube'): PlainValue {
  if (ctx.isOpaque(entry.value)) return undefined;
  if (entry.value.kind !== 'map') {
    ctx.error(C.INVALID_VALUE, `'refresh_key' of ${what} must be a map (every, sql, timezone or immutable)`, entry.value, member);
    return undefined;
  }
  const f = ctx.fields(entry.value, of === 'cube' ? REFRESH_KEY_KEYS : PRE_AGGREGATION_REFRESH_KEY_KEYS, `refresh_key of ${what}`, member);
  if (!f.has('every') && !f.has('sql') && !f.has('immutable')) {
    ctx.error(C.MISSING_PROPERTY, `'refresh_key' of ${what} needs ${of === 'cube' ? 'every, sql or immutable' : 'every or sql'}`, entry.value, member);
  }
  // The platform's rules: `every` is an interval ("1 hour", seconds up to weeks) or, without
  // `sql`, a cron expression; `timezone` a known time zone.
  // immutable is a form of its own: the platform takes no every or sql next to it.
  const besideImmutable = f.has('immutable') ? ['every', 'sql'].filter((k) => f.has(k)) : [];
  if (besideImmutable.length > 0) ctx.error(C.INVALID_VALUE, `'refresh_key' of ${what} sets immutable and ${besideImmutable.join(' and ')}; use immutable alone`, f.get(besideImmutable[0]!)!.value, member);
  const every = ctx.string(f.get('every'), `refresh_key of ${what}`, member);
  if (every !== undefined && !EVERY_INTERVAL.test(every) && (f.has('sql') || !isCronExpression(every))) {
    const expected = f.has('sql') ? 'an interval such as "1 hour" (with sql, no cron expression)' : 'an interval such as "1 hour" or a cron expression such as "0 * * * *"';
    ctx.error(C.INVALID_VALUE, `'every' of the refresh_key of ${what} is '${every}'; expected ${expected}`, f.get('every')!.value, member);
  }
  const timezone = ctx.string(f.get('timezone'), `refresh_key of ${what}`, member);
  if (timezone !== undefined && !isTimeZone(timezone)) {
    ctx.error(C.INVALID_VALUE, `'timezone' of the refresh_key of ${what} is '${timezone}', which is not a known time zone (e.g. UTC, Europe/Paris)`, f.get('timezone')!.value, member);
  }
  return plain(entry.value);
}

/** A list of names, where the platform takes no single name in its place. */
function listOnly(entry: RawEntry | undefined, ctx: Ctx, what: string, member: string): string[] | undefined {
  if (entry && !ctx.isOpaque(entry.value) && entry.value.kind === 'scalar') {
    ctx.error(C.INVALID_VALUE, `'${entry.key}' of ${what} must be a list${entry.key === 'includes' || entry.key === 'excludes' ? ' or "*"' : ''}, not '${String(entry.value.value)}'`, entry.value, member);
    return undefined;
  }
  if (entry && entry.value.kind === 'seq') {
    const number = entry.value.items.find((i) => i.kind === 'scalar' && typeof i.value === 'number');
    if (number) ctx.error(C.INVALID_VALUE, `'${entry.key}' of ${what} must be a list of names (strings)`, number, member);
  }
  return ctx.stringList(entry, what, member);
}

export function readAccessPolicies(entry: RawEntry, ctx: Ctx, what: string, member: string): AccessPolicy[] {
  const out: AccessPolicy[] = [];
  for (const item of ctx.mapList(entry, C.INVALID_VALUE, `'access_policy' of ${what} must be a list`, `Each access policy of ${what} must be a map`, member)) {
    const pwhat = `an access policy of ${what}`;
    const f = ctx.fields(item, ACCESS_POLICY_KEYS, pwhat, member);
    const policy: AccessPolicy = {
      loc: ctx.loc(item),
      role: ctx.string(f.get('role'), pwhat, member),
      group: ctx.string(f.get('group'), pwhat, member),
      groups: listOnly(f.get('groups'), ctx, pwhat, member),
      props: propsOf(f),
    };
    const who = ['group', 'groups'].filter((k) => f.has(k));
    if (who.length === 0) ctx.error(C.MISSING_PROPERTY, `${pwhat} needs group or groups (the platform no longer reads role)`, item, member);
    else if (who.length > 1) ctx.error(C.INVALID_VALUE, `${pwhat} sets ${who.join(' and ')}; use only one`, f.get(who[1]!)!, member);
    if (f.has('member_masking') && !f.has('member_level')) {
      ctx.error(C.COMPANION_REQUIRED, `${pwhat} sets member_masking without member_level; the platform requires member_level with it`, f.get('member_masking')!, member);
    }
    const ml = f.get('member_level');
    if (ml && !ctx.isOpaque(ml.value)) {
      if (ml.value.kind !== 'map') ctx.error(C.INVALID_VALUE, `'member_level' of ${pwhat} must be a map`, ml.value, member);
      else {
        const mf = ctx.fields(ml.value, MEMBER_LEVEL_KEYS, `member_level of ${pwhat}`, member);
        // '*' or a list of names: the platform takes no single name in place of the list.
        const listOrStar = (e: RawEntry | undefined) => (e && e.value.kind === 'scalar' && e.value.value === '*' ? ('*' as const) : listOnly(e, ctx, pwhat, member));
        policy.memberLevel = { includes: listOrStar(mf.get('includes')), excludes: listOrStar(mf.get('excludes')) };
      }
    }
    const rl = f.get('row_level');
    if (rl && !ctx.isOpaque(rl.value)) {
      if (rl.value.kind !== 'map') ctx.error(C.INVALID_VALUE, `'row_level' of ${pwhat} must be a map`, rl.value, member);
      else {
        const rf = ctx.fields(rl.value, ROW_LEVEL_KEYS, `row_level of ${pwhat}`, member);
        const filters = rf.get('filters');
        checkRowFilters(filters, ctx, pwhat, member);
        policy.rowLevel = {
          allowAll: ctx.boolean(rf.get('allow_all'), pwhat, member),
          filters: filters && filters.value.kind === 'seq' ? filters.value.items.map(plain) : undefined,
        };
        if (policy.rowLevel.allowAll === false) ctx.error(C.VALUE_NOT_ALLOWED, `'allow_all' of the row_level of ${pwhat} is false; the only value it takes is true (leave it out, or give filters)`, rf.get('allow_all')!.value, member);
        else if (rf.has('filters') === rf.has('allow_all')) ctx.error(C.INVALID_VALUE, `'row_level' of ${pwhat} needs exactly one of filters or allow_all`, rl.value, member);
      }
    }
    const conditions = f.get('conditions');
    checkShapeList(conditions, CONDITION_SHAPE, ctx, pwhat, member);
    if (conditions && conditions.value.kind === 'seq') {
      policy.conditions = conditions.value.items.map((c) => {
        const ifEntry = c.kind === 'map' ? c.entries.find((e) => e.key === 'if') : undefined;
        return { if: ifEntry && ifEntry.value.kind === 'scalar' ? String(ifEntry.value.value) : undefined };
      });
    }
    out.push(policy);
  }
  return out;
}
