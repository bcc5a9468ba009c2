import { defineJudge, type GuardJudge } from '@kit/gate-approval';
import { judgeAsServer, realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { guardName } from './reasons.ts';

// The judge module (dist/judge.cjs) the MCP judge loads: what hook.ts hands runHook, as a value.
// No onFailOpen and no warm-up: the guard has no strict mode and parses no shell.

// The MCP judge is a long-lived process that judges each call the moment the host sends it: the
// escape's burst must read the call's time as now, not the process's start (which would make every
// retry of a session look like part of the first call's burst, and never pass).
judgeAsServer();

/** roseline-gate as the MCP judge serves it. */
export const judge: GuardJudge = defineJudge({
  guard: guardName,
  evaluate: (input, runtime) => evaluate(input, realContext(runtime)),
});
