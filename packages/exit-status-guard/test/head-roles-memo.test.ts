import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { listLines, parse } from '@kit/shell-segments';
import { headRolesOf, roleOfHead } from '../src/head-role.ts';
import { compileRegistry, loadRegistry, type RegistryFile } from '../src/registry.ts';
import { noFiles } from './fake-context.ts';

// The verdict server remembers head roles per registry (headRolesOf): the remembered role must be
// roleOfHead's, for every head real agents ran, and a registry that differs in one pattern must
// get roles of its own.

const shipped = () => loadRegistry({ env: {}, cwd: '/p', readText: noFiles });
const corpusHeads = (): string[][] => {
  const heads: string[][] = [];
  const text = readFileSync(new URL('../../../corpus/agent-commands.jsonl', import.meta.url), 'utf8');
  for (const line of text.split('\n').slice(0, 600)) {
    if (line === '') continue;
    const { command } = JSON.parse(line) as { command: string };
    const parsed = parse(command);
    if (!parsed.ok) continue;
    for (const line of listLines(parsed.value))
      for (const segment of line.segments) heads.push(segment.argv.map((word) => word.value ?? word.text));
  }
  return heads;
};

describe('headRolesOf', () => {
  const heads = corpusHeads();
  test('the corpus gives heads to compare (positive control)', () =>
    expect(heads.length).toBeGreaterThan(500));

  test('remembers exactly what roleOfHead says, first and second time, over the corpus heads', () => {
    const registry = shipped();
    const first = headRolesOf(registry);
    const again = headRolesOf(shipped()); // another call's registry, of the same files
    const wrong = heads.filter((words) => {
      const expected = roleOfHead(words, registry);
      return (
        JSON.stringify(first(words)) !== JSON.stringify(expected) ||
        JSON.stringify(again(words)) !== JSON.stringify(expected)
      );
    });
    expect(wrong).toEqual([]);
    expect(heads.some((words) => roleOfHead(words, registry).gate)).toBe(true);
  });

  test('a registry with one more gate pattern has roles of its own', () => {
    const words = ['frobnicate', 'check'];
    const base = shipped();
    expect(headRolesOf(base)(words).gate).toBe(false);
    const file: RegistryFile = { gates: ['^frobnicate check'] };
    const widened = compileRegistry({ gates: [], exempt: [], mutators: [], restores: [] }, file, {
      base: 'shipped',
      project: 'project',
      replaced: false,
    });
    expect(headRolesOf(widened)(words).gate).toBe(true);
    expect(headRolesOf(base)(words).gate).toBe(false);
  });

  test('the same gates with one exempt pattern more are another registry', () => {
    const words = ['frobnicate', 'check'];
    const sources = { base: 'a', project: null, replaced: false };
    const gateOnly = compileRegistry({ gates: ['^frobnicate check'] }, null, sources);
    const alsoExempt = compileRegistry(
      { gates: ['^frobnicate check'], exempt: ['^frobnicate'] },
      null,
      sources,
    );
    expect(headRolesOf(gateOnly)(words)).toMatchObject({ gate: true, screen: null });
    expect(headRolesOf(alsoExempt)(words)).toMatchObject({ gate: false, screen: 'exempt' });
  });
});
