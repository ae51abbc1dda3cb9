// Dictionaries keyed by names users write (cubes, views, members, properties), issue 23: a plain
// `{}` answers `constructor`, `toString` or `__proto__` from Object.prototype, and assigning
// `obj['__proto__']` replaces the prototype instead of adding an entry. The compiler builds every
// such dictionary without Object.prototype in its chain, and readers look names up as own
// properties only, so a model that crossed a thread (structured clone gives it Object.prototype
// back) still answers right.

/**
 * Instances inherit from an empty object without a prototype: no `constructor`, `toString` or
 * `__proto__` accessor in their chain. Unlike `Object.create(null)`, which V8 keeps as a hash table
 * from the start, such an object stays in V8's compact fast mode until it has many entries (issue
 * 28: the members of every cube and view are held in them).
 */
function Dictionary(): void {}
Dictionary.prototype = Object.create(null) as object;

/** A new dictionary without Object.prototype in its chain, with the own entries of `from` when given. */
export function dict<T>(from?: Readonly<Record<string, T>>): Record<string, T> {
  const out = new (Dictionary as unknown as new () => Record<string, T>)();
  // With no `__proto__` accessor in the chain, assigning that key defines a plain entry too.
  if (from) for (const key of Object.keys(from)) out[key] = from[key]!;
  return out;
}

/** The entry `key` of `dictionary`, never one inherited from a prototype. */
export function own<T>(dictionary: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(dictionary, key) ? dictionary[key] : undefined;
}

/**
 * A dictionary V8 keeps as a hash table from the start, for names seldom shared between
 * dictionaries: a view's members, prefixed with their cube's name. In `dict()`'s fast mode each
 * new name made a hidden class, and a cold compile's view resolution at 10,000 cubes spent most of
 * its time on them (issue 28).
 */
export function hashDict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
