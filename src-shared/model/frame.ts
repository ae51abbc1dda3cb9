// Code frames for syntax-level diagnostics: a few numbered source lines with a caret under the column.

const CONTEXT_LINES = 2;

export function codeFrame(content: string, line: number, column: number): string {
  const lines = content.split(/\r\n|\r|\n/);
  const target = Math.min(Math.max(line, 1), Math.max(lines.length, 1));
  const first = Math.max(1, target - CONTEXT_LINES);
  const last = Math.min(lines.length, target + CONTEXT_LINES);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const text = (lines[n - 1] ?? '').replace(/\t/g, ' ');
    const gutter = `${n === target ? '>' : ' '} ${String(n).padStart(width, ' ')} | `;
    out.push(`${gutter}${text}`.trimEnd());
    if (n === target) {
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(column - 1, 0))}^`);
    }
  }
  return out.join('\n');
}

/** 1-based line/column of an offset; `lineStarts` holds the offset of every line start (ascending). */
export function positionAt(lineStarts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (lineStarts[lo] ?? 0) + 1 };
}

export function lineStartsOf(content: string): number[] {
  const starts = [0];
  for (let i = 0; i < content.length; i++) {
    const ch = content.charCodeAt(i);
    if (ch === 10) starts.push(i + 1);
    else if (ch === 13) {
      if (content.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}
