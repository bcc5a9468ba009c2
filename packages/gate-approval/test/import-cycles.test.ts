import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// Issue 22: the `Check` type lived in cli/doctor.ts and made a 13-file type-only import circle; later
// shared types kept in a module that imports their users made others (git-write-gate's WriteKind,
// shell-segments' Placed). Every relative import counts here, `import type` included, in the src/ of
// every package of the kit.
const packages = fileURLToPath(new URL('../../', import.meta.url));
const kitPackages = readdirSync(packages).filter((name) => existsSync(join(packages, name, 'src')));

function importGraph(root: string): Map<string, string[]> {
  const files = (readdirSync(root, { recursive: true }) as string[])
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(root, name));
  const known = new Set(files);
  const imports = (file: string) =>
    [...readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)]
      .map((match) => resolve(dirname(file), match[1] as string))
      .filter((target) => known.has(target));
  return new Map(files.map((file) => [file, imports(file)]));
}

/** The files that reach themselves through their imports. */
function filesOnCycles(graph: Map<string, string[]>): string[] {
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [...(graph.get(from) ?? [])];
    while (stack.length > 0) {
      const file = stack.pop() as string;
      if (file === to) return true;
      if (seen.has(file)) continue;
      seen.add(file);
      stack.push(...(graph.get(file) ?? []));
    }
    return false;
  };
  return [...graph.keys()].filter((file) => reaches(file, file));
}

test('the kit\u2019s packages are all looked at', () => {
  expect(kitPackages).toEqual(
    expect.arrayContaining(['fail-open', 'gate-approval', 'git-write-gate', 'shell-segments']),
  );
});

test.for(kitPackages)('no import cycle in %s, type imports included', (name) => {
  const source = join(packages, name, 'src');
  expect(filesOnCycles(importGraph(source)).map((file) => relative(source, file))).toEqual([]);
});

test('the positive control: a type-only circle of two files is found', () => {
  const graph = new Map([
    ['/a.ts', ['/b.ts']],
    ['/b.ts', ['/a.ts']],
    ['/c.ts', ['/a.ts']],
  ]);
  expect(filesOnCycles(graph)).toEqual(['/a.ts', '/b.ts']);
});
