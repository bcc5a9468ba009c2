import type { CommandLine, Segment } from './types.ts';

/** One `$?` capture and the segments that read the captured status afterwards. */
export interface StatusCapture {
  capture: Segment; // rc=$?
  name: string; // rc
  readers: Segment[]; // exit $rc, [ "$rc" -eq 0 ]
}

const captureValue = /^(?:\$\?|"\$\?"|\$\{\?\}|"\$\{\?\}")$/;
const declarations = new Set(['local', 'declare', 'typeset', 'export', 'readonly']);

/**
 * `$?` captures in one command line: statements that are only `NAME=$?` / `NAME="$?"` (also
 * `local NAME=$?` and the other declaration builtins), each with the later segments of the same
 * line that read $NAME. A later assignment to NAME ends the readers of a capture (a reader that
 * also reassigns, rc=$((rc+1)), still counts). The lines it runs are shells of their own: ask
 * each of them (listLines).
 */
export function findStatusCaptures(line: CommandLine): StatusCapture[] {
  const captures: StatusCapture[] = [];
  const { segments } = line;
  for (const segment of segments) {
    const name = capturedName(segment);
    if (name === null) continue;
    const readers: Segment[] = [];
    for (const later of segments.slice(segment.index + 1)) {
      if (later.params.includes(name)) readers.push(later);
      if (assignsTo(later, name)) break;
    }
    captures.push({ capture: segment, name, readers });
  }
  return captures;
}

function capturedName(segment: Segment): string | null {
  if (segment.pipeline !== null || segment.redirects.length > 0) return null;
  if (segment.argv.length === 0 && segment.assigns.length === 1) {
    const [assign] = segment.assigns;
    if (
      assign &&
      !assign.indexed &&
      !assign.append &&
      captureValue.test(assign.text.slice(assign.name.length + 1))
    ) {
      return assign.name;
    }
    return null;
  }
  const [builtin, operand, extra] = segment.argv;
  if (segment.assigns.length > 0 || extra !== undefined || !builtin || !operand) return null;
  if (!declarations.has(builtin.value ?? '')) return null;
  const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(operand.text);
  return match && captureValue.test(match[2] as string) ? (match[1] as string) : null;
}

function assignsTo(segment: Segment, name: string): boolean {
  if (segment.assigns.some((assign) => assign.name === name)) return true;
  const [builtin, ...operands] = segment.argv;
  if (!declarations.has(builtin?.value ?? '')) return false;
  return operands.some((word) => word.text.startsWith(`${name}=`));
}
