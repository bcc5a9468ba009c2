const maxCells = 4_000_000;

/**
 * A unified-style line diff of two texts ('-' removed, '+' added, ' ' kept), for --dry-run.
 * Settings files are small; past a few million cells it falls back to the whole old and new text.
 */
export function diffLines(before: string, after: string): string {
  const a = before === '' ? [] : before.replace(/\r?\n$/, '').split(/\r?\n/);
  const b = after === '' ? [] : after.replace(/\r?\n$/, '').split(/\r?\n/);
  if (a.length * b.length > maxCells)
    return [...a.map((l) => `- ${l}`), ...b.map((l) => `+ ${l}`)].join('\n');
  // Longest common subsequence table, filled from the end.
  const width = b.length + 1;
  const common = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      common[i * width + j] =
        a[i] === b[j]
          ? (common[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(common[(i + 1) * width + j] ?? 0, common[i * width + j + 1] ?? 0);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`  ${a[i]}`);
      i += 1;
      j += 1;
    } else if (
      j < b.length &&
      (i >= a.length || (common[i * width + j + 1] ?? 0) >= (common[(i + 1) * width + j] ?? 0))
    ) {
      out.push(`+ ${b[j]}`);
      j += 1;
    } else {
      out.push(`- ${a[i]}`);
      i += 1;
    }
  }
  return out.join('\n');
}
