// statusMap() (src-main/http/route.ts): the object every route's response schemas are keyed in. It is
// made so that V8 keeps status keys in a small dictionary (start time, issue 10); to everything
// that reads it — Fastify, @fastify/swagger, JSON — it must be the same as an object literal.
import { describe, expect, it } from 'vitest';
import { statusMap } from '../../../src-main/http/route';

describe('statusMap', () => {
  it('starts empty and lists its keys, values and JSON as the same object literal would', () => {
    expect(Object.keys(statusMap())).toEqual([]);
    const map = statusMap();
    map['5xx'] = { s: 5 };
    map[204] = { s: 204 };
    map['4xx'] = { s: 4 };
    map.default = { s: 0 };
    const literal = { '5xx': { s: 5 }, 204: { s: 204 }, '4xx': { s: 4 }, default: { s: 0 } };
    expect(Object.keys(map)).toEqual(Object.keys(literal));
    expect(Object.entries(map)).toEqual(Object.entries(literal));
    expect(JSON.stringify(map)).toBe(JSON.stringify(literal));
    expect(Object.getPrototypeOf(map)).toBe(Object.prototype);
    expect(map[204]).toEqual({ s: 204 });
    expect('200' in map).toBe(false);
  });
});
