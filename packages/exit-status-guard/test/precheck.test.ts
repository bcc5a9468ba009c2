import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, shellQuote } from '@kit/shell-segments';
import { hookEnv, runHookFile, runWithParserProbe, tempDir } from '@kit/test-kit';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';
import { evaluate } from '../src/index.ts';
import { decide } from '../src/decide.ts';
import { compilePattern, type Pattern } from '../src/pattern.ts';
import { normalizeForLiterals, precheckCommand } from '../src/precheck.ts';
import { loadRegistry, type Registry, readRegistryFiles, triggerLiterals } from '../src/registry.ts';
import { coreOf, type RequiredLiterals } from '../src/required-literals.ts';
import { readShells } from '../src/shell.ts';
import { cases } from './cases.ts';
import { bashCall, contextWithFiles, fakeContext, noFiles } from './fake-context.ts';

// The full evaluation tests every pattern with its plain RegExp: no prefilter, so a wrong literal
// shows up as a difference here instead of hiding on both sides.
const prefiltered = loadRegistry({ env: {}, cwd: '/p', readText: noFiles });
const unfiltered = (patterns: Pattern[]): Pattern[] =>
  patterns.map((pattern) => {
    const outcome = compilePattern(pattern.source);
    if (!outcome.ok) throw new Error(outcome.message);
    return { source: pattern.source, literals: null, test: (head: string) => outcome.regex.test(head) };
  });
const registry: Registry = {
  ...prefiltered,
  gates: unfiltered(prefiltered.gates),
  exempt: unfiltered(prefiltered.exempt),
  mutators: unfiltered(prefiltered.mutators),
  restores: unfiltered(prefiltered.restores),
};
const shippedTriggers = triggerLiterals(readRegistryFiles({ env: {}, cwd: '/p', readText: noFiles }));

/**
 * The evaluation the pre-check stands in for: always parse, then the rules as evaluate runs them,
 * in the foreground and with run_in_background (the pre-check does not look at that flag).
 */
function fullVerdicts(command: string, judgedWith: Registry = registry): ('deny' | 'silent')[] {
  const outcome = parse(command, { maxNesting: 4 });
  if (!outcome.ok) return ['silent', 'silent'];
  const top = readShells(outcome.value, judgedWith);
  return (['foreground', 'background-task'] as const).map((mode) =>
    decide({ top, mode }).kind === 'deny' ? 'deny' : 'silent',
  );
}

/** Commands the pre-check calls silent although the full evaluation denies them (in either background mode). */
function unsoundAmong(
  commands: readonly string[],
  triggers: readonly (RequiredLiterals | null)[] = shippedTriggers,
): string[] {
  return commands.filter(
    (command) => precheckCommand(command, () => triggers).silent && fullVerdicts(command).includes('deny'),
  );
}

const corpusFile = new URL('../../../corpus/agent-commands.jsonl', import.meta.url);
const corpus: string[] = existsSync(corpusFile)
  ? readFileSync(corpusFile, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { command: string }).command)
  : [];
const tableCommands = cases.flatMap((row) => row.commands);

describe('what the pre-check decides', () => {
  const rows: [string, string][] = [
    ['make check', 'no-structure'],
    ['npm test -- --coverage', 'no-structure'],
    ['git log --oneline | head -20', 'no-gate-word'],
    ['ls -la | grep x', 'no-gate-word'],
    ['javap -c X.class | grep invoke', 'no-gate-word'],
    ['cat tasks.md | head', 'no-gate-word'],
    ['echo a`make check | tail`', 'gate-word'],
    ["env -S'make check' | tail", 'gate-word'],
    ['cargo 2>&1 test | tail', 'gate-word'],
    ['/c/tools/pnpm.exe exec tsc | head', 'gate-word'],
    ['cat package.json | jq .scripts', 'no-gate-word'],
    ['echo hi; echo there', 'no-gate-word'],
    ['sleep 5 &', 'no-gate-word'],
    ['make check | tail', 'gate-word'],
    ["bash -c 'ma''ke check | tail'", 'gate-word'],
    ['m\\ake check | tail', 'gate-word'],
    ['ma\\\nke check | tail', 'gate-word'],
    ['echo "${PIPESTATUS[0]}"', 'pipestatus'],
    ["eval 'echo $PIPE''STATUS'", 'pipestatus'],
    ["eval $'make check \\x7c tail'", 'ansi-c-quoting'],
    ['bash -c "\\$\'\\x6dake\' check | tail"', 'ansi-c-quoting'],
    ["echo $\\\n'x'", 'ansi-c-quoting'],
  ];
  test.for(rows)('%j: %s', ([command, by]) => {
    expect(precheckCommand(command, () => shippedTriggers).by).toBe(by);
  });
  test('a gate word names the literal it found', () => {
    expect(precheckCommand('cargo test 2>&1 | tail', () => shippedTriggers)).toEqual({
      silent: false,
      by: 'gate-word',
      word: 'cargo',
    });
  });
  test('a pattern whose literals are unknown, or that needs none, always means parse', () => {
    expect(precheckCommand('ls | wc -l', () => [null]).by).toBe('opaque-pattern');
    expect(precheckCommand('ls | wc -l', () => [{ clauses: [], ignoreCase: false }]).by).toBe(
      'opaque-pattern',
    );
  });
  test('normalization deletes quotes, backslashes, $ and line continuations; a backtick and env -S end a word', () => {
    expect(normalizeForLiterals(`m'a'"k"\\e $x \`y\` a\\\nb\r`)).toBe('make x  y  ab');
    expect(normalizeForLiterals(`env -S'make check' | x -i"S"cargo`)).toBe('env -S make check | x -iS cargo');
  });
  test('the registry the call is judged with: a project gate is a trigger, replace: true drops the shipped ones', () => {
    const project = (file: object) =>
      contextWithFiles({ '/p/.claude/exit-status-guard.json': JSON.stringify(file) });
    const judge = (command: string, context = fakeContext()) => {
      const notes: Record<string, unknown>[] = [];
      const verdict = evaluate(bashCall(command, { cwd: '/p' }), { ...context, note: (f) => notes.push(f) });
      return { verdict: verdict.kind, fields: { ...Object.assign({}, ...notes), ...verdict.fields } };
    };
    expect(judge('mytool run | tail', project({ gates: ['^mytool( |$)'] }))).toMatchObject({
      verdict: 'deny',
      fields: { parser: true, precheck: 'gate-word', word: 'mytool', rewrite: expect.any(String) },
    });
    expect(judge('make check | tail', project({ replace: true, gates: ['^mytool( |$)'] }))).toEqual({
      verdict: 'none',
      fields: { parser: false, precheck: 'no-gate-word' },
    });
    expect(judge('ls | wc -l', project({ gates: ['^(?=x)'] })).fields).toEqual({
      parser: true,
      precheck: 'opaque-pattern',
    });
  });
  test('the registry files are read once per call: the pre-check reads them, the rules use what it read', () => {
    const readsOf = (command: string) => {
      const asked: string[] = [];
      const inner = contextWithFiles({ '/p/.claude/exit-status-guard.json': '{"gates":["^mytool( |$)"]}' });
      const context = fakeContext({
        readText: (path) => {
          asked.push(path);
          return inner.readText(path);
        },
      });
      const verdict = evaluate(bashCall(command, { cwd: '/p' }), context);
      return { verdict: verdict.kind, asked };
    };
    expect(readsOf('mytool run | tail')).toEqual({
      verdict: 'deny',
      asked: ['/p/.claude/exit-status-guard.json'],
    });
    expect(readsOf('ls | wc -l')).toEqual({ verdict: 'none', asked: ['/p/.claude/exit-status-guard.json'] });
    // No structure: decided before any file is asked for.
    expect(readsOf('mytool run')).toEqual({ verdict: 'none', asked: [] });
  });
});

describe('soundness: pre-check silent ⇒ the full evaluation is silent', () => {
  test('over the real-command corpus', () => {
    expect(corpus.length).toBeGreaterThan(3000);
    expect(unsoundAmong(corpus)).toEqual([]);
  }, 120_000);
  test('over the table rows', () => {
    expect(unsoundAmong(tableCommands)).toEqual([]);
  });

  // Generated commands: gates spelled the ways a shell lets a word be spelled (quotes, escapes,
  // continuations, ANSI-C, nested shells), among reads, mutators and operators.
  const gateWords = [
    'make check',
    'cargo test',
    'cargo 2>&1 test',
    'npm test',
    'go test ./...',
    'pytest -q',
    '.venv/bin/pytest -q',
    'git push',
    'git -C api push',
    'npx tsc',
    'task build',
    'ninja',
  ];
  const plainWords = ['echo hi', 'tail -5', 'grep -v x', 'cat log', 'ls', 'sleep 1', 'git log', 'true'];
  const spell = (word: string, how: number, at: number): string => {
    const i = 1 + (at % Math.max(1, word.length - 1));
    const [a, b] = [word.slice(0, i), word.slice(i)];
    switch (how) {
      case 0:
        return word;
      case 1:
        return `${a}''${b}`;
      case 2:
        return `${a}""${b}`;
      case 3:
        return `${a}\\${b}`;
      case 4:
        return `'${word}'`;
      case 5:
        return `${a}\\\n${b}`;
      case 6:
        return `${a}$''${b}`;
      case 7:
        return `${a}$""${b}`;
      case 8:
        return `$'${[...word].map((ch) => `\\x${ch.charCodeAt(0).toString(16)}`).join('')}'`;
      default:
        return `"${a}"${b}`;
    }
  };
  const simple = fc.oneof(
    fc.tuple(fc.constantFrom(...gateWords), fc.nat(9), fc.nat(20)).map(([command, how, at]) => {
      const [tool, ...rest] = command.split(' ');
      return [spell(tool as string, how, at), ...rest].join(' ');
    }),
    fc.constantFrom(...plainWords),
  );
  const { statement } = fc.letrec<{ statement: string }>((tie) => ({
    statement: fc.oneof(
      { depthSize: 'small' },
      simple,
      fc
        .tuple(simple, fc.constantFrom(' | ', ' |& ', ' 2>&1 | '), simple)
        .map(([a, op, b]) => `${a}${op}${b}`),
      fc
        .tuple(tie('statement'), fc.constantFrom('; ', ' && ', ' || ', ' & ', '\n'), tie('statement'))
        .map(([a, op, b]) => `${a}${op}${b}`),
      tie('statement').map((inner) => `bash -c ${shellQuote(inner)}`),
      tie('statement').map((inner) => `eval ${shellQuote(inner)}`),
      tie('statement').map((inner) => `env -S${shellQuote(inner)}`),
      tie('statement').map((inner) => `env -iS${shellQuote(inner)} | tail`),
      tie('statement').map((inner) => `echo a\`${inner}\``),
      tie('statement').map((inner) => `echo x$(${inner})y`),
      tie('statement').map((inner) => `sudo -u ci ${inner}`),
      tie('statement').map((inner) => `(${inner}) | tail`),
      tie('statement').map((inner) => `{ ${inner}; } &`),
      tie('statement').map((inner) => `x=$(${inner})`),
      tie('statement').map((inner) => `diff <(${inner}) expected`),
      tie('statement').map((inner) => `timeout 5 ${inner}`),
      tie('statement').map((inner) => `${inner} # make check | tail`),
    ),
  }));

  test('over generated commands (and they do reach denies)', () => {
    let denied = 0;
    fc.assert(
      fc.property(statement, (command) => {
        const verdicts = fullVerdicts(command);
        if (verdicts.includes('deny')) denied++;
        if (precheckCommand(command, () => shippedTriggers).silent)
          expect(verdicts, command).toEqual(['silent', 'silent']);
      }),
      { numRuns: 1500 },
    );
    expect(denied).toBeGreaterThan(300);
  }, 120_000);
});

describe('the property has teeth: a pre-check missing one literal is caught', () => {
  // Each mutation drops one literal from the shipped triggers; the corpus and the table must then
  // hold a command the mutated pre-check calls silent although it is denied.
  const dropping = (literal: string) =>
    shippedTriggers.map((literals) =>
      literals === null
        ? null
        : {
            ...literals,
            clauses: literals.clauses
              .map((clause) => clause.filter((each) => coreOf(each) !== literal))
              .map((clause) => (clause.length === 0 ? ['\u0000never'] : clause)),
          },
    );
  test.for(['make', 'cargo', 'go', 'npm', 'git', 'pytest', 'kubectl', 'terraform'])(
    'without %j',
    { timeout: 120_000 },
    (literal) => {
      expect(unsoundAmong([...corpus, ...tableCommands], dropping(literal)).length).toBeGreaterThan(0);
    },
  );
});

describe('the bundle as a process: what the pre-check decides loads no parser, and the trace says so', () => {
  const project = tempDir('esg-precheck');
  const env = hookEnv({ CLAUDE_PROJECT_DIR: project });
  const probe = (command: string) => {
    const { run, load } = runWithParserProbe(guardDefinition.bundle, bashCall(command, { cwd: project }), {
      env,
    });
    expect(run.exitCode).toBe(0);
    return { load, denied: run.stdout !== '' };
  };
  test.for([
    'git log --oneline | head -20',
    'ls -la src | grep test',
    'cat package.json | jq .scripts; echo done',
  ])('%s: decided without mvdan-sh', (command) =>
    expect(probe(command)).toEqual({ load: { parser: 'not-loaded', builtins: [] }, denied: false }),
  );
  test('control: a gate word loads it', () => {
    expect(probe('git log | grep x; make check | tail')).toMatchObject({
      load: { parser: 'loaded' },
      denied: true,
    });
  });
  test('KIT_HOOKS_TRACE: parser and precheck on every Bash call, the word that made it parse, the rule', () => {
    const trace = join(project, 'trace.jsonl');
    writeFileSync(trace, '');
    for (const command of ['npm test', 'git log | head', 'make check | tail -5'])
      runHookFile(guardDefinition.bundle, bashCall(command, { cwd: project }), {
        env: { ...env, KIT_HOOKS_TRACE: trace },
      });
    const lines = readFileSync(trace, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    // Which path answered (`path`, `server`: a warm verdict server or in process) is fail-open's to test.
    expect(lines.map(({ time, ms, guard, tool, rewrite, path, server, ...rest }) => rest)).toEqual([
      { verdict: 'none', parser: false, precheck: 'no-structure' },
      { verdict: 'none', parser: false, precheck: 'no-gate-word' },
      { verdict: 'deny', parser: true, precheck: 'gate-word', word: 'make', rule: 'piped-gate' },
    ]);
    expect(lines[2].rewrite).toMatch(/^mkdir -p tmp && make check > tmp\/out\.log 2>&1; echo "EXIT=\$\?"/);
  });
});
