// The escape used is noted for the call's trace and the audit trail (guardHook records
// `{ escape }` as an `escape` line): the retry that passes says so; a deny and a first read do not.
import path from 'node:path';
import type { TraceFields } from '@kit/fail-open';
import { tempTree } from '@kit/test-kit';
import { expect, test } from 'vitest';
import { evaluate, ruleId } from '../src/evaluate.ts';
import { envWithPath, readCall, realFsContext, stubLauncherFolder } from './helpers.ts';

test('deny (no note), the identical retry passes (escape noted), deny again (no note)', () => {
  const root = tempTree({ 'App.csproj': '', 'A.cs': '' });
  const { context, advance } = realFsContext(envWithPath([stubLauncherFolder()]));
  const seen: { kind: string; notes: TraceFields[] }[] = [];
  for (let i = 0; i < 3; i++) {
    const notes: TraceFields[] = [];
    const kind = evaluate(readCall(path.join(root, 'A.cs'), root), {
      ...context,
      note: (fields) => notes.push(fields),
    }).kind;
    seen.push({ kind, notes });
    advance(1_000);
  }
  expect(seen).toEqual([
    { kind: 'deny', notes: [] },
    { kind: 'none', notes: [{ escape: ruleId }] },
    { kind: 'deny', notes: [] },
  ]);
});
