import { bashPayload, defineJudge, type GuardJudge } from '@kit/gate-approval';
import { parse } from '@kit/shell-segments';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { guardName } from './reasons.ts';
import { onFailOpen } from './strict-policy.ts';

// The judge module (dist/judge.cjs) the MCP judge loads: what hook.ts hands runHook, as a value.
const warmUpCommand = 'cd app && git add -A && git commit -m "wip" | tail -3; gh pr create --fill';

/** git-write-gate as the MCP judge serves it; onFailOpen is the strict policy, as in the command hook. */
export const judge: GuardJudge = defineJudge({
  guard: guardName,
  evaluate: (input, runtime) => evaluate(input, realContext(runtime)),
  onFailOpen,
  warmUp: () => {
    parse(warmUpCommand);
    evaluate(bashPayload(warmUpCommand), realContext({ env: process.env, raw: '' }));
  },
});
