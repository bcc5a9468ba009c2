import { defineJudge, type GuardJudge } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { guardName } from './reasons.ts';

// The judge module (dist/judge.cjs) the MCP judge loads: what hook.ts hands runHook, as a value.
// No onFailOpen and no warm-up: the guard has no strict mode and parses no shell.

/** roseline-gate as the MCP judge serves it. */
export const judge: GuardJudge = defineJudge({
  guard: guardName,
  evaluate: (input, runtime) => evaluate(input, realContext(runtime)),
});
