import { bashPayload, defineJudge, type GuardJudge } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { guardName } from './reasons.ts';

// The judge module (dist/judge.cjs) the MCP judge loads: what hook.ts hands runHook, as a value.
const warmUpCommand = 'make check 2>&1 | tail -30; cd app && npm test || echo "EXIT=$?"';

/** exit-status-guard as the MCP judge serves it. */
export const judge: GuardJudge = defineJudge({
  guard: guardName,
  evaluate: (input, runtime) => evaluate(input, realContext(runtime)),
  warmUp: () => evaluate(bashPayload(warmUpCommand), realContext({ env: process.env })),
});
