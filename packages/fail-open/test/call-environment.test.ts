import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { carriedEnvironment, runtimeVariables } from '../src/call-environment.ts';

// A served call carries only the variables named by the runtime and by its guard: every variable
// the judging code reads must be named, or the server would judge without it. Found by reading the
// sources: `env.X`, `env?.X`, `env['X']`, and the names a guard reads through a variable (its
// switches, registryVariables, gitVariables, `variable('HOME', …)`).

const packages = fileURLToPath(new URL('../../', import.meta.url));
// What every guard's bundle holds besides the guard: the runtime, the shell parser, the guard kit
// (not its CLI: install and doctor run in a shell of their own, never in a served call; nor the
// MCP judge's process code in mcp/ and its entries: the judge reads its session's environment
// whole, and a served call never runs it).
const shared = ['fail-open', 'shell-segments', 'gate-approval'];
const guards = ['exit-status-guard', 'git-write-gate', 'roseline-gate'];
const readPatterns = [
  /\benv\??\.([A-Z_][A-Z0-9_]*)\b/g,
  /\benv\[['"]([A-Z_][A-Z0-9_]*)['"]\]/g,
  /\bvariable\('([A-Z_][A-Z0-9_]*)'/g,
  /\bswitchName = '([A-Z_][A-Z0-9_]*)'/g,
  /\bstrictSwitchName = '([A-Z_][A-Z0-9_]*)'/g,
];
const listPatterns = [
  /\bname: '([A-Z][A-Z0-9_]*)'/g, // a switch a guard defines
  /\blegacyNames: \[([^\]]*)\]/g,
  /\bregistryVariables: readonly string\[\] = \[([^\]]*)\]/g,
  /\bgitVariables: ReadonlySet<string> = new Set\(\[([^\]]*)\]/g,
];

const notServed = /^(cli\/|mcp\/|judge-plugin\.ts$|judge-watch\.ts$)/;

function sourcesOf(name: string): string[] {
  const src = join(packages, name, 'src');
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|cts|mts)$/.test(file) && !notServed.test(file) && !file.endsWith('.test.ts'))
    .map((file) => readFileSync(join(src, file), 'utf8'));
}

/** The environment variables a source reads, as these patterns find them. */
export function variablesRead(source: string): string[] {
  const names = new Set<string>();
  for (const pattern of readPatterns) for (const match of source.matchAll(pattern)) names.add(match[1] ?? '');
  for (const pattern of listPatterns) {
    for (const match of source.matchAll(pattern)) {
      for (const quoted of (match[1] ?? '').matchAll(/'([A-Z_][A-Z0-9_]*)'/g)) names.add(quoted[1] ?? '');
      if (/^[A-Z_][A-Z0-9_]*$/.test(match[1] ?? '')) names.add(match[1] ?? '');
    }
  }
  names.delete('');
  return [...names];
}

async function declaredBy(guard: string): Promise<readonly string[]> {
  const module = (await import(join(packages, guard, 'src', 'environment.ts'))) as {
    readsEnvironment: readonly string[];
  };
  return module.readsEnvironment;
}

describe('every variable the judging code reads is carried to the server', () => {
  test('the control: the patterns find reads of each shape, and nothing else', () => {
    const source = [
      "const a = env.ALPHA; const b = runtime.env?.BETA; const c = env['GAMMA'];",
      "const home = variable('HOME', prefixed); export const switchName = 'DELTA_GATE';",
      "switches: [{ name: 'EPSILON', legacyNames: ['ZETA_OLD'] }]; const lower = env.path; 'NOT_READ';",
    ].join('\n');
    expect(variablesRead(source).sort()).toEqual([
      'ALPHA',
      'BETA',
      'DELTA_GATE',
      'EPSILON',
      'GAMMA',
      'HOME',
      'ZETA_OLD',
    ]);
  });
  test.for(guards)('%s: its reads and the shared code\u2019s are named', async (guard) => {
    const named = new Set([...runtimeVariables, ...(await declaredBy(guard))]);
    const read = [...shared, guard].flatMap((name) => sourcesOf(name).flatMap(variablesRead));
    expect([...new Set(read)].filter((name) => !named.has(name)).sort()).toEqual([]);
  });
});

describe('carriedEnvironment', () => {
  test('carries the named variables it has, and nothing else', () => {
    const env = {
      PATH: '/bin',
      ANTHROPIC_API_KEY: 'sk-secret',
      GITHUB_TOKEN: 'ghp',
      EMPTY: '',
      GIT_GATE: undefined,
    };
    expect(carriedEnvironment(env, ['PATH', 'EMPTY', 'GIT_GATE', 'HOME'])).toEqual({
      PATH: '/bin',
      EMPTY: '',
    });
  });
});
