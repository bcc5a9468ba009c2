import { runHook } from '@kit/fail-open';
import { guardHook, protocolFromArgs } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { guardName } from './reasons.ts';

// The bundle entry (dist/hook.cjs), started for every Read: it imports neither guard.ts nor the CLI.
// runHook never rejects. No onFailOpen: strict mode does not apply to this guard, so every failure
// is no opinion.
// The host is the installed command's `--host NAME` (Claude Code without one); guardHook writes
// each deny (a would-deny under `--monitor`) to the user's audit trail.
const args = process.argv.slice(2);
const hook = guardHook(guardName, args, (input, runtime) => evaluate(input, realContext(runtime)));

void runHook(hook.evaluate, {
  guard: guardName,
  protocol: protocolFromArgs(args),
});
