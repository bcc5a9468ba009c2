import { unwrapLaunchers } from './launchers.ts';
import { parse, readMaxLength } from './parse.ts';
import type { Context, ParseOptions, ParseOutcome, Segment, Word } from './types.ts';

const shells = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);

/** The outcome of parseNested when the string is only known at run time. */
export interface DynamicNested {
  ok: false;
  reason: 'dynamic';
  message: string;
}

/**
 * The command string a segment hands to a shell, re-parsed as a command of its own:
 * bash|sh|zsh|dash|ksh -c 'str' (any flags: -lc, -ec, -o pipefail -c), eval 'str' 'str' (joined by
 * spaces, as bash does), env -S 'str' (after launchers). null when the segment holds none; a string
 * that is only known at run time gives { ok: false, reason: 'dynamic' }. Each segment's context
 * starts with the outer segment's chain, then a 'nested' frame in place of the inner main list;
 * offsets past that frame are offsets into the outcome's `source`.
 */
export function parseNested(segment: Segment, options?: ParseOptions): ParseOutcome | DynamicNested | null {
  readMaxLength(options, 'parseNested');
  const found = findCommandString(segment);
  if (found === null) return null;
  const dynamic = found.words.find((word) => word.value === null || word.dynamic);
  if (dynamic) {
    return {
      ok: false,
      reason: 'dynamic',
      message: `the command string ${dynamic.text} is only known at run time`,
    };
  }
  const source = found.words.map((word) => word.value as string).join(' ') + found.suffix;
  const outcome = parse(source, options);
  if (!outcome.ok) return outcome;
  const first = found.words[0] as Word;
  const last = found.words[found.words.length - 1] as Word;
  const base = Math.max(...segment.context.map((frame) => frame.id)) + 1;
  const nested: Context = {
    kind: 'nested',
    id: base,
    start: first.start,
    end: last.end,
    placement: {
      pipeline: segment.pipeline === null ? null : { ...segment.pipeline },
      then: segment.then,
      background: segment.background,
      negated: segment.negated,
    },
    owner: segment.index,
  };
  const renumbered = new Map<Context, Context>();
  const shift = (frame: Context): Context => {
    let copy = renumbered.get(frame);
    if (copy === undefined) {
      copy = { ...frame, id: frame.id + base };
      renumbered.set(frame, copy);
    }
    return copy;
  };
  const segments = outcome.segments.map((inner) => {
    const context = [...segment.context, nested, ...inner.context.slice(1).map(shift)];
    return { ...inner, context, depth: context.length - 1 };
  });
  return { ok: true, segments, source };
}

/** The words that make the command string, and what follows them (env -S: the remaining operands). */
function findCommandString(segment: Segment): { words: Word[]; suffix: string } | null {
  const { head, splitString } = unwrapLaunchers(segment.argv);
  if (splitString !== null) {
    // env -S 'git push' origin: the operands after the string are appended to its split words.
    const rest = head
      .slice(1)
      .map((word) => (word.value === null ? null : ` '${word.value.replace(/'/g, `'\\''`)}'`));
    if (rest.includes(null))
      return { words: [splitString, ...head.filter((word) => word.value === null)], suffix: '' };
    return { words: [splitString], suffix: rest.join('') };
  }
  const command = head[0];
  if (command === undefined || command.value === null) return null;
  const name = command.value.slice(command.value.lastIndexOf('/') + 1);
  if (name === 'eval') {
    const words = head.slice(1);
    if (words[0]?.value === '--') words.shift();
    return words.length > 0 ? { words, suffix: '' } : null;
  }
  if (!shells.has(name)) return null;
  const words = head.slice(1);
  let sawC = false;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as Word;
    const value = word.value;
    // An expansion where an option could stand (bash $flags -c 'git push'): the string may be
    // anything once the expansion is known, so a -c anywhere after it makes the call dynamic.
    if (value === null) return sawC || hasLaterC(words, i) ? { words: [word], suffix: '' } : null;
    if (value === '--' || value === '-') {
      const string = words[i + 1];
      return sawC && string ? { words: [string], suffix: '' } : null;
    }
    if (value.startsWith('--')) {
      if (value === '--rcfile' || value === '--init-file') i += 1;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(value)) {
      if (value.startsWith('-') && value.includes('c')) sawC = true;
      // -o pipefail, +O extglob: the option name is the next word.
      if (/[oO]/.test(value.slice(1))) i += 1;
      continue;
    }
    return sawC ? { words: [words[i] as Word], suffix: '' } : null;
  }
  return null;
}

function hasLaterC(words: Word[], from: number): boolean {
  return words
    .slice(from + 1)
    .some((word) => word.value !== null && /^-[A-Za-z]*c[A-Za-z]*$/.test(word.value));
}
