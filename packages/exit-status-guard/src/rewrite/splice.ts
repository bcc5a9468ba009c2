// Every rewrite is built by splicing the parsed command: the spans come from @kit/shell-segments, so
// what is not rewritten stays byte for byte as the user wrote it, and the result runs as written.

/** `source` with `[start, end)` replaced by `replacement`. */
export function splice(source: string, start: number, end: number, replacement: string): string {
  return source.slice(0, start) + replacement + source.slice(end);
}

/** One change to a source text: `remove` characters at `at` replaced by `text`. */
export interface Edit {
  at: number;
  remove: number;
  text: string;
}

/** `source` with every edit applied (edits must not overlap; any order). */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  let text = source;
  for (const edit of [...edits].sort((a, b) => b.at - a.at)) {
    text = splice(text, edit.at, edit.at + edit.remove, edit.text);
  }
  return text;
}

/** The offset of the list operator written right after a statement (`;` or `&`), or null. */
export function operatorAfter(source: string, end: number, op: ';' | '&', limit: number): number | null {
  const gap = source.slice(end, limit);
  const line = gap.split('\n')[0] as string;
  const beforeComment = line.includes('#') ? line.slice(0, line.indexOf('#')) : line;
  const at = beforeComment.indexOf(op);
  return at < 0 ? null : end + at;
}
