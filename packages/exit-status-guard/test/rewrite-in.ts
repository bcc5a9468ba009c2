/** The rewrite a reason hands over: the indented lines after its "…instead:" / "…:" line; null when it gives none. */
export function rewriteIn(reason: string): string | null {
  const lines = reason.split('\n');
  const at = lines.findIndex((line) => line.startsWith('  '));
  if (at < 0) return null;
  const block: string[] = [];
  for (const line of lines.slice(at)) {
    if (!line.startsWith('  ')) break;
    block.push(line.slice(2));
  }
  return block.join('\n');
}
