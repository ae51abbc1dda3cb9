// Dictionaries keyed by names users write (cubes, views, members, properties), issue 23: a plain
// `{}` answers `constructor`, `toString` or `__proto__` from Object.prototype, and assigning
// `obj['__proto__']` replaces the prototype instead of adding an entry. The compiler builds every
// such dictionary without a prototype, and readers look names up as own properties only, so a
// model that crossed a thread (structured clone gives it Object.prototype back) still answers
// right.

/** A new dictionary without a prototype, with the own entries of `from` when given. */
export function dict<T>(from?: Readonly<Record<string, T>>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  // Assignment to an object without a prototype defines a plain entry, `__proto__` included.
  if (from) for (const key of Object.keys(from)) out[key] = from[key]!;
  return out;
}

/** The entry `key` of `dictionary`, never one inherited from a prototype. */
export function own<T>(dictionary: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(dictionary, key) ? dictionary[key] : undefined;
}
