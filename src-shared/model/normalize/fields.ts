// The checked properties of a definition, by key (what Ctx.fields returns for every cube, view and
// member). A view over the map's own entries when every key was kept as written, the common case;
// a Map per member was a twentieth of what a 10,000-cube compile allocates (issue 28). A member has
// a handful of keys, so a lookup is a short scan.

import type { RawEntry } from '../types';

export class Fields {
  /**
   * `list`: the entries in the order written; `names[i]` is the key `list[i]` is read under
   * (snake_case in a JavaScript model), or `names` is null when every entry is read under its own key.
   */
  constructor(
    private readonly list: readonly RawEntry[],
    private readonly names: readonly string[] | null,
  ) {}

  get size(): number {
    return this.list.length;
  }

  private keyAt(i: number): string {
    return this.names === null ? this.list[i]!.key : this.names[i]!;
  }

  get(key: string): RawEntry | undefined {
    for (let i = 0; i < this.list.length; i++) if (this.keyAt(i) === key) return this.list[i];
    return undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  forEach(visit: (entry: RawEntry, key: string) => void): void {
    for (let i = 0; i < this.list.length; i++) visit(this.list[i]!, this.keyAt(i));
  }

  *keys(): IterableIterator<string> {
    for (let i = 0; i < this.list.length; i++) yield this.keyAt(i);
  }

  values(): Iterable<RawEntry> {
    return this.list;
  }

  *[Symbol.iterator](): IterableIterator<[string, RawEntry]> {
    for (let i = 0; i < this.list.length; i++) yield [this.keyAt(i), this.list[i]!];
  }
}
