// Monitor mode on the corpus: every verdict the guards give now, encoded as an enforcing install and
// as a monitored one (`--monitor` in the handler's arguments). The monitored call records the same
// verdict (label, rule, fields) and writes nothing the host would act on; a call with no opinion is
// byte-identical either way.
import { type HookOutput, isJsonObject } from '@kit/fail-open';
import { protocolFromArgs, type Verdict } from '@kit/gate-approval';
import { expect, test, vi } from 'vitest';
import { readCommands } from '../src/commands.ts';
import type { Recorded } from '../src/situations.ts';
import { situations } from '../src/situations.ts';
import { judgeAll } from '../src/verdicts.ts';

const rows = judgeAll(readCommands(), situations);
// The would-denies go to the audit trail, which is off here: this test writes nothing of the user's.
vi.stubEnv('KIT_HOOKS_AUDIT', 'off');

function verdictOf(recorded: Recorded): Verdict {
  if (recorded.verdict === 'cannotJudge') return { kind: 'cannotJudge', cause: recorded.cause };
  if (recorded.verdict === 'none') return { kind: 'none' };
  return {
    kind: recorded.verdict,
    reason: recorded.reason,
    ...(recorded.rule ? { rule: recorded.rule } : {}),
  };
}

const withoutMonitored = (output: HookOutput<string>) => {
  const { monitored, ...fields } = isJsonObject(output.fields) ? output.fields : {};
  return { verdict: output.verdict, cause: output.cause, fields, monitored };
};

test.each([[[]], [['--host', 'codex']]])('host args %j: monitored = enforced, silenced', (hostArgs) => {
  const enforce = protocolFromArgs(hostArgs);
  const monitor = protocolFromArgs([...hostArgs, '--monitor']);
  let judged = 0;
  let wouldDeny = 0;
  for (const row of rows) {
    for (const recorded of Object.values(row.verdicts)) {
      const verdict = verdictOf(recorded);
      const enforced = enforce.encode(verdict);
      const monitored = monitor.encode(verdict);
      judged += 1;
      if (enforced.verdict === 'deny' || enforced.verdict === 'refuse') {
        wouldDeny += 1;
        expect(enforced.stdout + enforced.stderr).not.toBe('');
        expect({ ...monitored.fields }).toMatchObject({ monitored: true });
        expect({ ...withoutMonitored(monitored), monitored: undefined }).toEqual({
          ...withoutMonitored(enforced),
          monitored: undefined,
        });
        expect([monitored.stdout, monitored.stderr, monitored.exitCode]).toEqual(['', '', 0]);
      } else {
        expect(monitored).toEqual(enforced);
      }
    }
  }
  // the corpus holds both kinds: a positive control that the loop saw denies and silent calls
  expect(wouldDeny).toBeGreaterThan(50);
  expect(judged).toBeGreaterThan(wouldDeny);
});
