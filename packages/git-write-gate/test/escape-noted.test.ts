// Step 10 as the audit trail sees it: an escape is noted (one `{ escape }` field, which guardHook
// writes as one "escape" line) exactly when it changed the verdict — a deny or a strict refusal let
// through on the main thread — and never on a call that would have been silent anyway.
import type { TraceFields } from '@kit/fail-open';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/evaluate.ts';
import { bashCall, fakeContext } from './fake-context.ts';

const strict = { TAGOUT_HOOKS_STRICT: '1' };
const subAgent = { agent_id: 'agent-7' };

interface Row {
  name: string;
  command: string;
  env?: Record<string, string>;
  cwd?: string;
  extra?: Record<string, string>;
  verdict: string;
  escapes: unknown[];
}

const rows: Row[] = [
  // a deny's escape (the positive control) and its silent twins
  {
    name: 'an escaped push',
    command: 'GIT_GATE=off git push origin main',
    verdict: 'none',
    escapes: ['push'],
  },
  { name: 'the push unescaped', command: 'git push origin main', verdict: 'deny', escapes: [] },
  { name: 'an escaped read', command: 'GIT_GATE=off git status', verdict: 'none', escapes: [] },
  {
    name: 'an escaped push in a plain repository',
    command: 'GIT_GATE=off git push',
    cwd: '/repos/plain',
    verdict: 'none',
    escapes: [],
  },
  {
    name: 'an escaped commit the profile allows',
    command: 'GIT_GATE=off git commit -m x',
    cwd: '/repos/narrow',
    verdict: 'none',
    escapes: [],
  },
  // a strict refusal's escape at the command's start (unparseable), and its twins
  {
    name: 'strict: an escaped unparseable command',
    command: 'GIT_GATE=off git commit -m "unclosed',
    env: strict,
    verdict: 'none',
    escapes: ['syntax'],
  },
  {
    name: 'strict: the unparseable command unescaped',
    command: 'git commit -m "unclosed',
    env: strict,
    verdict: 'refuse',
    escapes: [],
  },
  {
    name: 'default: the escaped unparseable command was silent anyway',
    command: 'GIT_GATE=off git commit -m "unclosed',
    verdict: 'cannotJudge',
    escapes: [],
  },
  {
    name: 'strict, plain repository: silent anyway',
    command: 'GIT_GATE=off git commit -m "unclosed',
    env: strict,
    cwd: '/repos/plain',
    verdict: 'none',
    escapes: [],
  },
  {
    name: 'strict, a sub-agent: no escape',
    command: 'GIT_GATE=off git commit -m "unclosed',
    env: strict,
    extra: subAgent,
    verdict: 'refuse',
    escapes: [],
  },
  // a strict refusal's escape on a segment it cannot read
  {
    name: 'strict: an escaped eval',
    command: 'GIT_GATE=off eval "$X" && git status',
    env: strict,
    verdict: 'none',
    escapes: ['nested'],
  },
  {
    name: 'strict: the eval unescaped',
    command: 'eval "$X" && git status',
    env: strict,
    verdict: 'refuse',
    escapes: [],
  },
  {
    name: 'default: the escaped eval was silent anyway',
    command: 'GIT_GATE=off eval "$X" && git status',
    verdict: 'cannotJudge',
    escapes: [],
  },
];

describe('an escape is noted once where it changed the verdict, never on a silent call', () => {
  test.for(rows)('$name', (row) => {
    const notes: TraceFields[] = [];
    const context = { ...fakeContext(row.env ?? {}), note: (fields: TraceFields) => notes.push(fields) };
    const verdict = evaluate(bashCall(row.command, row.cwd, row.extra), context);
    expect(verdict.kind).toBe(row.verdict);
    expect(notes.filter((note) => 'escape' in note).map((note) => note.escape)).toEqual(row.escapes);
  });
});
