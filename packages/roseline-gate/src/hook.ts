import { runHook } from '@kit/fail-open';
import { protocolFromArgs } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { guardName } from './reasons.ts';

// The bundle entry (dist/hook.cjs), started for every Read: it imports neither guard.ts nor the CLI.
// runHook never rejects. No onFailOpen: strict mode does not apply to this guard, so every failure
// is no opinion.
// The host is the installed command's `--host NAME` (Claude Code without one).
void runHook((input, runtime) => evaluate(input, realContext(runtime)), {
  guard: guardName,
  protocol: protocolFromArgs(process.argv.slice(2)),
});
