import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { literalsOfPattern, translatePattern } from '../src/pattern.ts';
import { parse, unwrapLaunchers, walkSegments } from '@kit/shell-segments';
import { coreOf, mayMatch, requiredLiterals } from '../src/required-literals.ts';
import { cases } from './cases.ts';
import { shippedLiterals } from '../src/shipped-literals.ts';

const readShippedFile = () =>
  JSON.parse(readFileSync(new URL('../exit-status-guard.json', import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;

// ‹ and › show a word edge a literal must stand at: ‹make› is `make` as a whole word.
const shown = (literal: string) =>
  `${literal.startsWith('\u0001') ? '‹' : ''}${coreOf(literal)}${literal.length > 1 && literal.endsWith('\u0001') ? '›' : ''}`;
const clausesOf = (pattern: string) =>
  literalsOfPattern(pattern)?.clauses.map((clause) => clause.map(shown)) ?? null;

describe('the literals a pattern requires', () => {
  const rows: [string, string[][] | null][] = [
    ['^make( |$)', [['‹make›']]],
    ['^(\\S*/)?g?make( |$)', [['‹make›', '‹gmake›']]],
    ['^cargo (test|build)( |$)', [['‹cargo›'], ['‹test›', '‹build›']]],
    ['^(npm|pnpm) test', [['‹npm›', '‹pnpm›'], ['‹test']]],
    ['^(\\.{1,2}/)*(scripts|bin)/\\S+', [['‹bin/', '‹scripts/']]],
    ['^x(\\S*/)?make', [['‹x'], ['make']]],
    ['^yarn$', [['‹yarn›']]],
    ['^a+b', [['a'], ['b']]],
    ['^(ab){2}c', [['‹ababc']]],
    ['^go\\.mod', [['‹go.mod']]],
    ['^x(?=y)z', [['‹xz']]],
    ['^x\\bz', [['‹xz']]],
    ['^a.b', [['‹a'], ['b']]],
    ['^[ab]c', [['c']]],
    ['(?i)^Make', [['‹make']]],
    ['^(a|)b', [['‹b', '‹ab']]],
    ['^(a|b*)c', [['c']]],
    [
      '^(?:deploy|builds submit)',
      [
        ['‹deploy', '‹builds›'],
        ['‹deploy', '‹submit'],
      ],
    ],
    ['^"quoted" x', [['quoted'], ['‹x']]],
    ['^a\\$b', [['‹a'], ['b']]],
    ['^\\s*', []],
    ['.*', []],
    ['^[[:space:]]+make', [['make']]],
    ['^(?P<tool>make) (?P=tool)$', [['‹make›']]],
    ['^a\\\\Ab', [['‹a'], ['Ab']]],
    ['^git( -C \\S+)* push', [['‹git'], ['‹push']]],
    [
      '^a ?b',
      [
        ['‹a›', '‹ab'],
        ['‹b', '‹ab'],
      ],
    ],
    ['^cargo (t|test)( |$)', [['‹cargo›'], ['‹t›', '‹test›']]],
  ];
  test.for(rows)('%s requires %j', ([pattern, clauses]) => {
    expect(clausesOf(pattern)).toEqual(clauses);
  });

  test.for(['^a(?i:b)', '^a\\', '^(a', 'a)', '*a', 42, null, '(?x)^a'])(
    '%j is unreadable: null',
    (pattern) => {
      expect(literalsOfPattern(pattern)).toBeNull();
    },
  );

  test('a case-insensitive pattern keeps no literal outside ASCII', () => {
    expect(literalsOfPattern('(?i)^über')).toEqual({ clauses: [['ber']], ignoreCase: true });
  });

  test('a marked edge must be a word edge of the text', () => {
    const whole = { clauses: [['\u0001make\u0001']], ignoreCase: false };
    expect(
      ['make', 'cd x && make -j8', 'x/make', 'make.exe', 'make@4', 'A=make', '(make)'].map((t) =>
        mayMatch(whole, t),
      ),
    ).toEqual([true, true, true, true, true, true, true]);
    expect(
      ['remake', 'gmake check', 'makes', 'make_x', 'make9', 'make-x', 'x-make', '.make'].map((t) =>
        mayMatch(whole, t),
      ),
    ).toEqual([false, false, false, false, false, false, false, false]);
  });

  test('mayMatch: every clause needs one literal; null always may', () => {
    const literals = { clauses: [['make'], ['check', 'test']], ignoreCase: false };
    expect(mayMatch(literals, 'make check')).toBe(true);
    expect(mayMatch(literals, 'make all')).toBe(false);
    expect(mayMatch(null, 'anything')).toBe(true);
    expect(mayMatch({ clauses: [['make']], ignoreCase: true }, 'MAKE')).toBe(true);
  });
});

describe('the shipped table', () => {
  test('never rejects a head its regex matches: every head of the corpus and the table', () => {
    const corpusFile = new URL('../../../corpus/agent-commands.jsonl', import.meta.url);
    const commands = [
      ...readFileSync(corpusFile, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => (JSON.parse(line) as { command: string }).command),
      ...cases.flatMap((row) => row.commands),
    ];
    const heads = new Set<string>();
    for (const command of commands) {
      const outcome = parse(command, { maxNesting: 4 });
      if (!outcome.ok) continue;
      for (const { segment } of walkSegments(outcome.value)) {
        const words = unwrapLaunchers(segment.argv).head.map((word) => word.value ?? word.text);
        for (let i = 0; i < words.length; i++) heads.add(words.slice(i).join(' '));
      }
    }
    const wrong: string[] = [];
    for (const [pattern, literals] of Object.entries(shippedLiterals)) {
      const translated = translatePattern(pattern);
      if (!translated.ok) throw new Error(translated.message);
      const regex = new RegExp(translated.source, translated.flags);
      for (const head of heads)
        if (regex.test(head) && !mayMatch(literals, head)) wrong.push(`${pattern} ${head}`);
    }
    expect(heads.size).toBeGreaterThan(3000);
    expect(wrong).toEqual([]);
  }, 120_000);
  test('holds every shipped pattern, as the build inlines it', () => {
    const shipped = readShippedFile();
    const patterns = ['gates', 'exempt', 'mutators', 'restores'].flatMap(
      (list) => (shipped[list] ?? []) as string[],
    );
    expect(Object.keys(shippedLiterals).sort()).toEqual([...new Set(patterns)].sort());
    for (const pattern of patterns) expect(shippedLiterals[pattern]).toEqual(literalsOfPattern(pattern));
  });
  test('reads every shipped pattern (an unreadable one would make every call parse)', () => {
    expect(Object.entries(shippedLiterals).filter(([, literals]) => literals === null)).toEqual([]);
  });
});

// ── soundness: a string the regex matches always meets the literals ─────────────────────────────

/** A small regex: its source, and a string it matches (built along with it). */
interface Sample {
  source: string;
  sample: fc.Arbitrary<string>;
}

const alphabet = ['a', 'b', 'c', 'A', '-', '/', '.', ' ', ':', '"', "'", '$', '\\', '`', 'é'];
const escapeChar = (ch: string) => (/[\\^$.*+?()[\]{}|/-]/.test(ch) ? `\\${ch}` : ch);

const literalNode: fc.Arbitrary<Sample> = fc
  .oneof(fc.constantFrom(...alphabet), fc.constantFrom('ab', 'abc', 'ba', 'a b', 'b a'))
  .map((text) => ({ source: [...text].map(escapeChar).join(''), sample: fc.constant(text) }));
const classNode: fc.Arbitrary<Sample> = fc.constantFrom<Sample>(
  { source: '[ab]', sample: fc.constantFrom('a', 'b') },
  { source: '\\S', sample: fc.constantFrom('a', '-', '/', 'é') },
  { source: '\\s', sample: fc.constantFrom(' ', '\t') },
  { source: '.', sample: fc.constantFrom('a', ' ', '$') },
  { source: '[^ ]', sample: fc.constantFrom('b', '"') },
  { source: '[[:alpha:]]', sample: fc.constantFrom('a', 'Z') },
);

const { node } = fc.letrec<{ node: Sample }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literalNode,
    classNode,
    fc.array(tie('node'), { minLength: 1, maxLength: 4 }).map((parts) => ({
      source: parts.map((part) => part.source).join(''),
      sample: fc.tuple(...parts.map((part) => part.sample)).map((pieces) => pieces.join('')),
    })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((branches) => ({
      source: `(${branches.map((branch) => branch.source).join('|')})`,
      sample: fc.oneof(...branches.map((branch) => branch.sample)),
    })),
    fc
      .tuple(tie('node'), fc.constantFrom('?', '*', '+', '{2}', '{1,3}', '{0,2}'))
      .map(([inner, quantifier]) => {
        const [min, max] = {
          '?': [0, 1],
          '*': [0, 3],
          '+': [1, 3],
          '{2}': [2, 2],
          '{1,3}': [1, 3],
          '{0,2}': [0, 2],
        }[quantifier] as [number, number];
        return {
          source: `(?:${inner.source})${quantifier}`,
          sample: fc.array(inner.sample, { minLength: min, maxLength: max }).map((pieces) => pieces.join('')),
        };
      }),
  ),
}));

const caseChanged = (text: string, upper: boolean[]) =>
  [...text].map((ch, i) => (upper[i % upper.length] ? ch.toUpperCase() : ch.toLowerCase())).join('');

test('property: whatever the regex matches meets its required literals', () => {
  fc.assert(
    fc.property(
      node.chain((regex) =>
        fc.record({
          source: fc.constant(regex.source),
          sample: regex.sample,
          anchored: fc.boolean(),
          anchoredEnd: fc.boolean(),
          path: fc.option(fc.constantFrom('', 'a/', 'a.b/c/', './', '../'), { nil: undefined }),
          ignoreCase: fc.boolean(),
          upper: fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
          before: fc.string({ maxLength: 3 }),
          after: fc.string({ maxLength: 3 }),
        }),
      ),
      ({ source, sample, anchored, anchoredEnd, path, ignoreCase, upper, before, after }) => {
        // A leading optional path, as most shipped patterns open: `^(\S*/)?make`, `^(\.{1,2}/)*bin/`.
        const opening = path === undefined ? '' : path.startsWith('.') ? '(\\.{1,2}/)*' : '(\\S*/)?';
        const pattern = `${ignoreCase ? '(?i)' : ''}${anchored || path !== undefined ? '^' : ''}${opening}${source}${anchoredEnd ? '$' : ''}`;
        const translated = translatePattern(pattern);
        if (!translated.ok) throw new Error(translated.message);
        const regex = new RegExp(translated.source, translated.flags);
        const body = ignoreCase ? caseChanged(sample, upper) : sample;
        const text = `${anchored || path !== undefined ? '' : before}${path ?? ''}${body}${anchoredEnd ? '' : after}`;
        expect(regex.test(text), `${pattern} on ${JSON.stringify(text)}`).toBe(true);
        const literals = requiredLiterals(translated.source, translated.flags);
        expect(
          mayMatch(literals, text),
          `${pattern} ${JSON.stringify(literals)} on ${JSON.stringify(text)}`,
        ).toBe(true);
      },
    ),
    { numRuns: 3000 },
  );
});
