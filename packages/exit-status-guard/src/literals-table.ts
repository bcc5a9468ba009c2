import { literalsOfPattern } from './pattern.ts';
import type { RequiredLiterals } from './required-literals.ts';

/** The required literals of every string pattern in a registry file's lists, keyed by the pattern's text. */
export type LiteralsTable = Record<string, RequiredLiterals | null>;

/** Builds the table for a registry file: what the build inlines for the shipped one, and what a test recomputes. */
export function buildLiteralsTable(file: Record<string, unknown>): LiteralsTable {
  const table: LiteralsTable = {};
  for (const list of ['gates', 'exempt', 'mutators', 'restores']) {
    const patterns = file[list];
    if (!Array.isArray(patterns)) continue;
    for (const pattern of patterns) {
      if (typeof pattern === 'string') table[pattern] = literalsOfPattern(pattern);
    }
  }
  return table;
}
