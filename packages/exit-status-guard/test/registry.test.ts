import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { compilePattern, compileRegistry, evaluate, loadRegistry, type RegistryFile } from '../src/index.ts';
import { translatePosixClasses } from '../src/pattern.ts';
import { registryLists, shippedRegistryFile } from '../src/registry.ts';
import { positiveControl } from './cases.ts';
import { headRows } from './head-rows.ts';
import { bashCall, contextWithFiles, contextWithRegistry, fakeContext, noFiles } from './fake-context.ts';

const shipped = JSON.parse(
  readFileSync(new URL('../exit-status-guard.json', import.meta.url), 'utf8'),
) as RegistryFile;
const shippedPatterns = registryLists.flatMap((list) =>
  (shipped[list] ?? []).map((pattern) => ({ list, pattern })),
);

const verdictOf = (command: string, context = fakeContext(), cwd = '/p') => {
  const verdict = evaluate(bashCall(command, { cwd }), context);
  return verdict.kind === 'deny' ? 'deny' : 'silent';
};

describe('the shipped registry', () => {
  test('is the file the package ships', () => expect(shippedRegistryFile()).toEqual(shipped));
  test('has all four lists', () => {
    for (const list of registryLists) expect(shipped[list]?.length ?? 0).toBeGreaterThan(0);
  });
  test.for(shippedPatterns)('$list $pattern compiles and is anchored with ^', ({ pattern }) => {
    expect(pattern.startsWith('^')).toBe(true);
    expect(compilePattern(pattern).ok).toBe(true);
  });
  test('drops nothing', () =>
    expect(loadRegistry({ env: {}, cwd: '/p', readText: noFiles }).problems).toEqual([]));

  const hasPython = spawnSync('python3', ['--version']).status === 0;
  test.skipIf(!hasPython)('every pattern also compiles in Python (the common subset)', () => {
    const script = 'import json,re,sys\nfor p in json.load(sys.stdin): re.compile(p)\nprint("ok")';
    const run = spawnSync('python3', ['-c', script], {
      input: JSON.stringify(shippedPatterns.map((p) => p.pattern)),
      encoding: 'utf8',
    });
    expect(run.stdout.trim(), run.stderr).toBe('ok');
  });

  // Each sample is a restore; it must also be a mutator, and every restore pattern needs a sample.
  const restoreSamples = [
    'git reset --hard HEAD',
    'git apply -R fix.patch',
    'git -C api reset --hard',
    'kubectl delete -f k8s/',
    'kubectl rollout undo deploy/api',
    'helm rollback api 3',
    'helm uninstall api',
    'helm delete api',
    'terraform destroy -auto-approve',
    'tofu destroy',
    'terragrunt destroy',
    'pulumi destroy --yes',
    'cdk destroy',
    'cdktf destroy --auto-approve',
    'helmfile destroy',
    'sam delete --no-prompts',
  ];
  const registry = loadRegistry({ env: {}, cwd: '/p', readText: noFiles });
  test.for(restoreSamples)('restore %s is also a mutator', (head) => {
    expect(registry.restores.some((regex) => regex.test(head))).toBe(true);
    expect(registry.mutators.some((regex) => regex.test(head))).toBe(true);
  });
  test('restores ⊆ mutators: every restore pattern is reached by a sample that mutators also reach', () => {
    for (const regex of registry.restores) {
      const reached = restoreSamples.filter((head) => regex.test(head));
      expect(reached.length, regex.source).toBeGreaterThan(0);
      for (const head of reached)
        expect(
          registry.mutators.some((mutator) => mutator.test(head)),
          head,
        ).toBe(true);
    }
  });
});

describe('the commands agents really run: each row both ways', () => {
  const judged = (command: string) => {
    const verdict = evaluate(bashCall(command), fakeContext());
    return verdict.kind === 'deny' ? verdict.rule : 'silent';
  };
  describe.for(headRows)('$name', ({ checks, notChecks, mutators, notMutators }) => {
    test.for(checks)('%s | tail -5 is a piped check', (head) =>
      expect(judged(`${head} 2>&1 | tail -5`)).toBe('piped-gate'),
    );
    test.for(notChecks)('%s | tail -5 is not', (head) =>
      expect(judged(`${head} 2>&1 | tail -5`)).toBe('silent'),
    );
    test.for(mutators ?? [])('make check; %s is a state change', (head) =>
      expect(judged(`make check; ${head}`)).toBe('sequenced-mutator'),
    );
    test.for(notMutators ?? [])('make check; %s is not', (head) =>
      expect(judged(`make check; ${head}`)).toBe('silent'),
    );
  });
  test('every row goes both ways, and no head is listed twice', () => {
    for (const row of headRows) {
      expect(row.checks.length, row.name).toBeGreaterThan(0);
      expect(row.notChecks.length, row.name).toBeGreaterThan(0);
      expect((row.mutators ?? []).length > 0, row.name).toBe((row.notMutators ?? []).length > 0);
    }
    const all = headRows.flatMap((row) => [...row.checks, ...row.notChecks]);
    expect(all.filter((head, i) => all.indexOf(head) !== i)).toEqual([]);
  });
});

describe('patterns', () => {
  const posix: [string, string, boolean][] = [
    ['^make[[:space:]]+check', 'make  check', true],
    ['^make[[:space:]]+check', 'makecheck', false],
    ['^v[[:digit:]]+$', 'v12', true],
    ['^v[[:digit:]]+$', 'vx', false],
    ['^[[:alpha:]]+$', 'abcXYZ', true],
    ['^[[:alnum:]_]+$', 'a1_b', true],
    ['^[[:upper:]]+$', 'ABC', true],
    ['^[[:upper:]]+$', 'AbC', false],
    ['^[[:lower:]]+$', 'abc', true],
    ['^[[:xdigit:]]+$', 'deadBEEF09', true],
    ['^[[:xdigit:]]+$', 'xyz', false],
    ['^[[:word:]]+$', 'a_1', true],
    ['^a[[:blank:]]b$', 'a\tb', true],
    ['^[^[:space:]]+$', 'one', true],
    ['^[^[:space:]]+$', 'one two', false],
    ['^[]x]+$', ']x]', true],
    ['(?i)^MAKE', 'make check', true],
    ['^(?P<tool>make) (?P=tool)$', 'make make', true],
    ['\\Amake\\Z', 'make', true],
  ];
  test.for(posix)('%s on %j is %s', ([pattern, head, matches]) => {
    const outcome = compilePattern(pattern);
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.regex.test(head)).toBe(matches);
  });
  test('outside brackets the text is kept', () => expect(translatePosixClasses('^a\\[:b')).toBe('^a\\[:b'));
  test.for(['^make(', '^[z-a]', '(?x)^make', 42, null])('%j does not compile and is reported', (pattern) => {
    expect(compilePattern(pattern).ok).toBe(false);
  });
});

describe('a bad pattern is dropped, never fatal', () => {
  const registry = compileRegistry(
    { gates: ['^make(', '^npm test( |$)'], exempt: 'not a list' as unknown as string[] },
    null,
    { base: 'test', project: null, replaced: false },
  );
  test('the good one stays', () =>
    expect(registry.gates.map((regex) => regex.source)).toEqual(['^npm test( |$)']));
  test('both problems are reported', () => {
    expect(registry.problems).toEqual([
      expect.objectContaining({ list: 'gates', pattern: '^make(' }),
      expect.objectContaining({ list: 'exempt', message: '"exempt" is not a list' }),
    ]);
  });
  test('the call is judged with the rest', () => {
    const context = fakeContext({ registry });
    expect(evaluate(bashCall('npm test | tail'), context).kind).toBe('deny');
    expect(evaluate(bashCall('make check | tail'), context).kind).toBe('none');
  });
});

describe('resolution', () => {
  const mine = JSON.stringify({ gates: ['^mytool( |$)'] });
  test('a project file appends to the shipped lists', () => {
    const context = contextWithFiles({ '/p/.claude/exit-status-guard.json': mine });
    expect([verdictOf('mytool run | tail', context), verdictOf('make check | tail', context)]).toEqual([
      'deny',
      'deny',
    ]);
  });
  test('a project exempt wins over a shipped gate', () => {
    const context = contextWithFiles({
      '/p/.claude/exit-status-guard.json': JSON.stringify({ exempt: ['^make check( |$)'] }),
    });
    expect([verdictOf('make check | tail', context), verdictOf('make test | tail', context)]).toEqual([
      'silent',
      'deny',
    ]);
  });
  test('replace: true drops the base', () => {
    const context = contextWithFiles({
      '/p/.claude/exit-status-guard.json': JSON.stringify({ replace: true, gates: ['^mytool( |$)'] }),
    });
    expect([verdictOf('mytool | tail', context), verdictOf('make check | tail', context)]).toEqual([
      'deny',
      'silent',
    ]);
  });
  test('replace is read from the project file only', () => {
    const context = contextWithFiles(
      { '/r.json': JSON.stringify({ replace: true, gates: ['^mytool( |$)'] }) },
      { env: { EXIT_STATUS_GUARD_REGISTRY: '/r.json' } },
    );
    const registry = loadRegistry({ env: context.env, cwd: '/p', readText: context.readText });
    expect(registry.sources.replaced).toBe(false);
  });
  test('CLAUDE_PROJECT_DIR beats the payload cwd', () => {
    const context = contextWithFiles(
      { '/root/.claude/exit-status-guard.json': mine },
      { env: { CLAUDE_PROJECT_DIR: '/root' } },
    );
    expect(verdictOf('mytool | tail', context, '/root/sub')).toBe('deny');
    expect(
      verdictOf(
        'mytool | tail',
        contextWithFiles({ '/root/.claude/exit-status-guard.json': mine }),
        '/root/sub',
      ),
    ).toBe('silent');
  });
  test('EXIT_STATUS_GUARD_REGISTRY replaces the shipped base', () => {
    const context = contextWithFiles({ '/r.json': mine }, { env: { EXIT_STATUS_GUARD_REGISTRY: '/r.json' } });
    expect([verdictOf('mytool | tail', context), verdictOf('make check | tail', context)]).toEqual([
      'deny',
      'silent',
    ]);
  });
  test('an unreadable registry override counts as {} and is reported', () => {
    const context = contextWithFiles(
      { '/r.json': undefined },
      { env: { EXIT_STATUS_GUARD_REGISTRY: '/r.json' } },
    );
    expect(verdictOf(positiveControl, context)).toBe('silent');
    const registry = loadRegistry({ env: context.env, cwd: '/p', readText: context.readText });
    expect(registry.problems[0]?.message).toMatch(/EXIT_STATUS_GUARD_REGISTRY=\/r\.json cannot be read/);
  });
  test.for(['[]', '"x"', 'null', '{ not json', '42'])('a project file %s counts as {}', (text) => {
    const context = contextWithFiles({ '/p/.claude/exit-status-guard.json': text });
    expect(verdictOf('make check | tail', context)).toBe('deny');
  });
  test('a registry written for the Python guard works unchanged', () => {
    const python = JSON.stringify({
      _comment: 'gates, exempt, mutators, restores; matched against the head',
      gates: ['^make([[:space:]]|$)', '^(?P<runner>pytest)( |$)'],
      exempt: ['^make[[:space:]]+help'],
      mutators: ['^git push( |$)'],
      restores: [],
    });
    const context = contextWithFiles({
      '/p/.claude/pipe-guard.json': JSON.stringify({ replace: true, ...JSON.parse(python) }),
    });
    expect(
      [
        'make check | tail',
        'make help | tail',
        'pytest -q | tail',
        'pytest; git push',
        'npm test | tail',
      ].map((c) => verdictOf(c, context)),
    ).toEqual(['deny', 'silent', 'deny', 'deny', 'silent']);
  });
});

describe('legacy names', () => {
  const legacy = JSON.stringify({ gates: ['^legacytool( |$)'] });
  const current = JSON.stringify({ gates: ['^currenttool( |$)'] });
  test('.claude/pipe-guard.json is read when the current file is absent', () => {
    expect(verdictOf('legacytool | tail', contextWithFiles({ '/p/.claude/pipe-guard.json': legacy }))).toBe(
      'deny',
    );
  });
  test('the current file wins outright: the legacy one is never merged', () => {
    const context = contextWithFiles({
      '/p/.claude/pipe-guard.json': legacy,
      '/p/.claude/exit-status-guard.json': current,
    });
    expect([verdictOf('currenttool | tail', context), verdictOf('legacytool | tail', context)]).toEqual([
      'deny',
      'silent',
    ]);
  });
  test('a current file that exists but cannot be read still shadows the legacy one', () => {
    const context = contextWithFiles({
      '/p/.claude/pipe-guard.json': legacy,
      '/p/.claude/exit-status-guard.json': undefined,
    });
    expect(verdictOf('legacytool | tail', context)).toBe('silent');
  });
  test('PIPE_GUARD_REGISTRY replaces the base', () => {
    const context = contextWithFiles({ '/l.json': legacy }, { env: { PIPE_GUARD_REGISTRY: '/l.json' } });
    expect([verdictOf('legacytool | tail', context), verdictOf('make check | tail', context)]).toEqual([
      'deny',
      'silent',
    ]);
  });
  test('EXIT_STATUS_GUARD_REGISTRY beats PIPE_GUARD_REGISTRY', () => {
    const context = contextWithFiles(
      { '/l.json': legacy, '/c.json': current },
      { env: { PIPE_GUARD_REGISTRY: '/l.json', EXIT_STATUS_GUARD_REGISTRY: '/c.json' } },
    );
    expect([verdictOf('currenttool | tail', context), verdictOf('legacytool | tail', context)]).toEqual([
      'deny',
      'silent',
    ]);
  });
  test('PIPE_GUARD_OVERRIDE silences like EXIT_STATUS_GUARD_OVERRIDE', () => {
    expect(verdictOf('PIPE_GUARD_OVERRIDE=1 make check | tail')).toBe('silent');
  });
});

test('an empty registry silences every gate rule but not $PIPESTATUS', () => {
  const context = contextWithRegistry({});
  expect(evaluate(bashCall('make check | tail; git push &'), context).kind).toBe('none');
  expect(evaluate(bashCall('echo "${PIPESTATUS[0]}"'), context).kind).toBe('deny');
});
