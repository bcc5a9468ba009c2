import { readFileSync } from 'node:fs';
import { parse, shellQuote, unwrapLaunchers, walkSegments } from '@kit/shell-segments';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { directoryProbeOf } from '../src/context.ts';
import { isGitLooking } from '../src/git-looking.ts';
import { judgeHead } from '../src/write-class.ts';
import { judgeCommand } from '../src/judge-command.ts';
import { maxNesting } from '../src/judge-line.ts';
import { everywhereProbe, managedProbe } from '../src/probe.ts';
import { policyFor } from '../src/strict-policy.ts';
import { cases } from './cases.ts';
import { fakeContext } from './fake-context.ts';

// The property of issue 15: where the cheap reject says "not git-looking", the full evaluation
// past it (the parse, every segment at every depth, the write class) finds no git or gh head and
// denies nothing, in a managed repository, by default and in strict mode.

const managed = '/repos/managed';
const modes: Record<string, string | undefined>[] = [{}, { TAGOUT_HOOKS_STRICT: '1' }, { GIT_GATE: 'on' }];

const found = new Map<string, string | null>();

/**
 * What the evaluation past the trigger finds: a git head at some depth (git, a path to it, the
 * dashed git-push), a gh head judged a pr merge, or a deny in some mode; null when nothing. (A
 * gh head whose action is an expansion is out of the trigger's reach by the spec: `gh` followed
 * later by `merge`.)
 */
function gitFoundIn(command: string): string | null {
  if (found.has(command)) return found.get(command) ?? null;
  const result = searchGit(command);
  found.set(command, result);
  return result;
}

function searchGit(command: string): string | null {
  const parsed = parse(command, { maxNesting });
  if (!parsed.ok) return null;
  for (const { segment } of walkSegments(parsed.value)) {
    const head = unwrapLaunchers(segment.argv).head.map((word) => word.value);
    const name =
      head[0]
        ?.split(/[\\/]/)
        .pop()
        ?.toLowerCase()
        .replace(/\.exe$/, '') ?? '';
    if (name === 'git' || name.startsWith('git-')) return `git head ${segment.text}`;
    if (name === 'gh' && judgeHead(head).kind === 'write') return `gh pr merge ${segment.text}`;
  }
  for (const env of modes) {
    const context = fakeContext(env);
    const verdict = judgeCommand(
      command,
      { places: [{ logical: managed, physical: managed }], unknown: null },
      {
        policy: policyFor(env),
        main: true,
        probe: env.GIT_GATE === 'on' ? everywhereProbe(context) : managedProbe(context),
        resolveDirectory: directoryProbeOf(context),
        env,
      },
    );
    if (verdict.kind === 'deny') return `deny with ${JSON.stringify(env)}`;
  }
  return null;
}

/** The commands a trigger lets through although the evaluation finds git in them. */
function counterexamples(trigger: (text: string) => boolean, commands: readonly string[]): string[] {
  return commands.filter((command) => !trigger(command) && gitFoundIn(command) !== null);
}

const corpus = readFileSync(new URL('../../../corpus/agent-commands.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => (JSON.parse(line) as { command: string }).command);

// Ways the shell spells one character, and what it lets stand between two characters.
const hex = (c: string) => c.charCodeAt(0).toString(16);
const octal = (c: string) => c.charCodeAt(0).toString(8);
const letter = (c: string): fc.Arbitrary<string> =>
  fc.constantFrom(
    c,
    `\\${c}`,
    `'${c}'`,
    `"${c}"`,
    `$'\\x${hex(c)}'`,
    `$'\\${octal(c)}'`,
    `$'\\u00${hex(c)}'`,
  );
const between = fc.constantFrom('', '', '', '""', "''", "$''", '$""', '\\\n');
const spelled = (word: string): fc.Arbitrary<string> =>
  fc
    .tuple(...[...word].map((c) => fc.tuple(letter(c), between)))
    .map((parts) => parts.map(([c, gap]) => c + gap).join(''));

// A write spelled one way or another, at the top or handed to another shell.
const write = fc.oneof(
  fc
    .tuple(spelled('git'), fc.constantFrom('push', 'commit -m x', 'reset --hard'))
    .map(([g, s]) => `${g} ${s}`),
  fc.tuple(spelled('gh'), spelled('merge')).map(([g, m]) => `${g} pr ${m} 1`),
  fc.tuple(spelled('git'), spelled('push')).map(([g, p]) => `${g} ${p}`),
);
const wrapped = fc.oneof(
  write,
  write.map((inner) => `bash -c ${shellQuote(inner)}`),
  write.map((inner) => `eval ${shellQuote(inner)}`),
  write.map((inner) => `sh -c ${shellQuote(`eval ${shellQuote(inner)}`)}`),
  write.map((inner) => `find . -exec sh -c ${shellQuote(inner)} \\;`),
);
// Noise: pieces of shell glued together, most of which do not parse, some of which spell git.
const noise = fc
  .array(
    fc.constantFrom(
      'g',
      'i',
      't',
      'h',
      'gi',
      'it',
      'gh',
      ' ',
      '\\',
      "'",
      '"',
      '$',
      "$'",
      '$"',
      '\\x67',
      '\\147',
      '\\n',
      '\\\n',
      'push',
      'merge',
      'pr',
      ';',
      '|',
      '&&',
      '\n',
      '(',
      ')',
      '{',
      '}',
      '`',
      'bash -c ',
      'eval ',
      'echo ',
      '-C ',
      'cd ',
      'x',
    ),
    { maxLength: 14 },
  )
  .map((pieces) => pieces.join(''));

const generated = fc.sample(fc.oneof(wrapped, noise), { numRuns: 1500, seed: 15 });
const slow = { timeout: 120_000 };

describe('the cheap reject is sound: not git-looking ⇒ no git or gh found, no deny', () => {
  test('over the real-command corpus', slow, () => {
    expect(counterexamples(isGitLooking, corpus)).toEqual([]);
  });
  test('over the table rows', () => {
    expect(
      counterexamples(
        isGitLooking,
        cases.flatMap((row) => row.commands),
      ),
    ).toEqual([]);
  });
  test('over generated spellings and noise', slow, () => {
    expect(counterexamples(isGitLooking, generated)).toEqual([]);
    fc.assert(
      fc.property(fc.oneof(wrapped, noise), (command) => isGitLooking(command) || !gitFoundIn(command)),
      {
        numRuns: 500,
      },
    );
  });
  test('the generated commands do reach the gate: many hold git', slow, () => {
    expect(generated.filter((command) => gitFoundIn(command) !== null).length).toBeGreaterThan(300);
  });
});

// Each mutant drops one thing the shell removes; the same property must catch it.
const mutants: Record<string, (text: string) => boolean> = {
  'a backslash, a $ and a quote no longer count (ANSI-C)': (text) => {
    const plain = text
      .replace(/\\\n/g, '')
      .replace(/\$(?=["'])/g, '')
      .replace(/["'\\]/g, '');
    return plain.includes('git') || (plain.includes('gh') && plain.includes('merge', plain.indexOf('gh')));
  },
  "the $ of $'' is kept": (text) => {
    const joined = text.replace(/\\\n/g, '');
    if (joined.includes('\\') && joined.includes('$') && joined.includes("'")) return true;
    const plain = joined.replace(/["'\\]/g, '');
    return plain.includes('git') || (plain.includes('gh') && plain.includes('merge', plain.indexOf('gh')));
  },
  'backslashes are kept': (text) => {
    const joined = text.replace(/\\\n/g, '');
    if (joined.includes('\\') && joined.includes('$') && joined.includes("'")) return true;
    const plain = joined.replace(/\$(?=["'])/g, '').replace(/["']/g, '');
    return plain.includes('git') || (plain.includes('gh') && plain.includes('merge', plain.indexOf('gh')));
  },
  'line continuations are kept': (text) => {
    if (text.includes('\\') && text.includes('$') && text.includes("'")) return true;
    const plain = text.replace(/\$(?=["'])/g, '').replace(/["'\\]/g, '');
    return plain.includes('git') || (plain.includes('gh') && plain.includes('merge', plain.indexOf('gh')));
  },
};

describe('a mutant trigger goes red', () => {
  test.for(Object.entries(mutants))('%s', slow, ([, mutant]) => {
    expect(counterexamples(mutant, generated).length).toBeGreaterThan(0);
  });
});
