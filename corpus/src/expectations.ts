import { readFileSync } from 'node:fs';
import { type Registry, roleOfHead } from '@kit/exit-status-guard';
import { listLines, parse, unwrapLaunchers } from '@kit/shell-segments';
import type { AgentCommand } from './commands.ts';

/**
 * What exit-status-guard should say about one corpus command, judged by hand from the seed and the
 * spec (not recorded from the guard): `deny` with the rule, or `silent`, and one line of why. A
 * row whose fix belongs to another branch carries `pending` with that branch's name.
 */
export interface Expectation {
  id: string;
  expect: 'deny' | 'silent';
  rule?: string;
  why: string;
  pending?: string;
}

/** The judged expectations, committed beside the corpus. */
export const expectationsFile: URL = new URL('../expectations.jsonl', import.meta.url);

/** Reads the expectations: one JSON object per line. Throws on a malformed line (the file is ours). */
export function readExpectations(file: URL = expectationsFile): Expectation[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const row = JSON.parse(line) as Expectation;
      const wellFormed =
        typeof row.id === 'string' &&
        (row.expect === 'deny' || row.expect === 'silent') &&
        typeof row.why === 'string' &&
        row.why.trim() !== '' &&
        (row.expect === 'deny') === (typeof row.rule === 'string');
      if (!wellFormed)
        throw new TypeError(
          `${file.pathname}:${index + 1}: a row needs id, expect, why, and a rule exactly when it denies`,
        );
      return row;
    });
}

/**
 * True when a command needs a judged expectation: the guard denies it, or it holds a pipe, a
 * background `&`, a `;` or newline with a state change anywhere, or a check at any head (the
 * registry's roles, at every depth).
 */
export function needsExpectation(command: AgentCommand, denied: boolean, registry: Registry): boolean {
  if (denied) return true;
  const outcome = parse(command.command, { maxNesting: 4 });
  if (!outcome.ok) return false;
  let sequenced = false;
  let mutator = false;
  for (const line of listLines(outcome.value)) {
    for (const segment of line.segments) {
      if ((segment.pipeline?.size ?? 1) > 1 || segment.background) return true;
      if (segment.context.some((frame) => frame.placement?.background)) return true;
      if (segment.then === ';' || segment.then === 'newline') sequenced = true;
      const words = unwrapLaunchers(segment.argv).head.map((word) => word.value ?? word.text);
      const role = roleOfHead(words, registry);
      if (role.gate) return true;
      if (role.mutator) mutator = true;
    }
  }
  return sequenced && mutator;
}
