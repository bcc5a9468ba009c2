import { defineJudge, type GuardJudge } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { guardName } from './reasons.ts';

// The judge module (dist/judge.cjs) the MCP judge loads: what hook.ts hands runHook, as a value.
// No onFailOpen and no warm-up: the guard has no strict mode and parses no shell. The escape's
// burst reads the call's time from the runtime: the MCP judge receives each call as the host makes
// it, so runHook stamps it as it starts (a hook process stamps its own start instead).

/** roseline-gate as the MCP judge serves it. */
export const judge: GuardJudge = defineJudge({
  guard: guardName,
  evaluate: (input, runtime) => evaluate(input, realContext(runtime)),
});
