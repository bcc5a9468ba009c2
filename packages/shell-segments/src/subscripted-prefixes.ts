import { parseTree } from './load-parser.ts';
import { byteToIndex } from './offsets.ts';
import { type CallExpr, readTree } from './syntax-tree.ts';
import type { Assign, Segment, Word } from './types.ts';

// bash runs `FOO[0]=x make check` (it warns that FOO[0] is not a valid identifier, and runs make);
// mvdan-sh refuses it ("inline variables cannot be arrays", at the assignment). To read the line
// as bash does, the refused assignment's first character becomes a backslash: one word of the
// same length, so every offset stays and the tree is mvdan's own, and the words it stood for are
// made assignments again once the segments are built (restoreSubscriptedPrefixes).

const refusal = 'inline variables cannot be arrays';
const maxRetries = 16;

type ParsedTree = ReturnType<typeof parseTree>;

/** mvdan's tree of `source`, with the offsets of the subscripted prefix assignments it had to mask. */
export function parseTreeWithPrefixes(source: string): { tree: ParsedTree; masked: number[] } {
  let text = source;
  const masked: number[] = [];
  for (;;) {
    try {
      return { tree: parseTree(text), masked };
    } catch (error) {
      const at = refusedAssignmentAt(error, text);
      if (at === null || masked.length >= maxRetries) throw error;
      text = `${text.slice(0, at)}\\${text.slice(at + 1)}`;
      masked.push(at);
    }
  }
}

function refusedAssignmentAt(error: unknown, text: string): number | null {
  const parseError = error as { Text?: unknown; Pos?: { Offset?: () => number } } | null;
  if (parseError?.Text !== refusal || typeof parseError.Pos?.Offset !== 'function') return null;
  const at = byteToIndex(text)(parseError.Pos.Offset());
  // Only a NAME[…]= prefix: `A=(1 2) make` is refused for its array value, and stays refused.
  return /^[A-Za-z_][A-Za-z0-9_]*\[/.test(text.slice(at, at + 256)) ? at : null;
}

/** A leading word written NAME=… or NAME+=… (the name bare, as bash requires of an assignment). */
const plainAssignment = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;

/**
 * The segments with each masked word, and the NAME=value words that follow it before the command
 * word, made the leading assignments they are in bash (a masked one is `indexed`, its value unknown).
 */
export function restoreSubscriptedPrefixes(
  segments: Segment[],
  masked: readonly number[],
  source: string,
): Segment[] {
  if (masked.length === 0) return segments;
  return segments.map((segment) => {
    if (!masked.includes(segment.argv[0]?.start ?? -1)) return segment;
    const assigns: Assign[] = [...segment.assigns];
    let i = 0;
    for (; i < segment.argv.length; i += 1) {
      const word = segment.argv[i] as Word;
      const assign =
        masked.includes(word.start) || isSubscriptedAssignment(word.text)
          ? subscriptedAssign(word, source)
          : plainAssign(word);
      if (assign === null) break;
      assigns.push(assign);
    }
    return { ...segment, argv: segment.argv.slice(i), assigns };
  });
}

/**
 * Whether a word, read alone, is one `NAME[…]=…` assignment, as mvdan reads it (after a masked
 * prefix mvdan saw the later ones as arguments: `X[1]=2 Y[$i]=3 make`).
 */
function isSubscriptedAssignment(text: string): boolean {
  if (!/^[A-Za-z_][A-Za-z0-9_]*\[/.test(text)) return false;
  try {
    const [statement, ...more] = readTree(parseTree(text), byteToIndex(text)).Stmts;
    const command = statement?.Cmd as CallExpr | null | undefined;
    return (
      more.length === 0 &&
      command?.kind === 'CallExpr' &&
      command.Args.length === 0 &&
      command.Assigns.length === 1 &&
      command.Assigns[0]?.Index !== null
    );
  } catch {
    return false;
  }
}

function subscriptedAssign(word: Word, source: string): Assign {
  const text = source.slice(word.start, word.end);
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text)?.[0] ?? '';
  return { name, text, value: null, indexed: true, append: false, start: word.start, end: word.end };
}

function plainAssign(word: Word): Assign | null {
  const match = plainAssignment.exec(word.text);
  if (match === null) return null;
  const value = word.value === null ? null : word.value.slice(match[0].length);
  return {
    name: match[1] as string,
    text: word.text,
    value,
    indexed: false,
    append: match[2] === '+',
    start: word.start,
    end: word.end,
  };
}
