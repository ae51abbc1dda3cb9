// Which tabs a TabBar (tabs.tsx) shows and which go into its More menu: pure, so the rules are unit-tested.

/**
 * How many tabs the bar shows in `room` px: all when they fit; else the current one, then as many of
 * the others in order as fit beside it and the More button.
 */
export function tabsThatFit(widths: readonly number[], moreWidth: number, room: number, currentIndex: number): number {
  if (widths.reduce((a, b) => a + b, 0) <= room) return widths.length;
  let used = moreWidth + widths[currentIndex]!;
  let count = 1;
  for (let i = 0; i < widths.length; i++) {
    if (i === currentIndex) continue;
    if (used + widths[i]! > room) break;
    used += widths[i]!;
    count++;
  }
  return count;
}

/** The first `count - 1` tabs and the current one, in their order. */
export function visibleTabs<T>(tabs: readonly T[], currentIndex: number, count: number): readonly T[] {
  const keep = new Set<number>([currentIndex]);
  for (let i = 0; i < tabs.length && keep.size < count; i++) keep.add(i);
  return tabs.filter((_, i) => keep.has(i));
}
