import { runHook } from '@kit/fail-open';
import { bashPayload, guardHook, protocolFromArgs } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { guardName } from './reasons.ts';

// The bundle entry (dist/hook.cjs), started for every Bash call: it imports neither guard.ts nor
// the CLI. runHook never rejects. In the verdict server (the same bundle, kept warm), warmUp loads
// mvdan-sh and compiles the parse path before the first call.
// The host is the installed command's `--host NAME` (Claude Code without one).
// A check piped into a filter, then sequenced: the parse path and the rules it reaches.
const warmUpCommand = 'make check 2>&1 | tail -30; cd app && npm test || echo "EXIT=$?"';

// guardHook writes each deny, override used and monitored would-deny to the user's audit trail.
const args = process.argv.slice(2);
const hook = guardHook(guardName, args, (input, runtime) => evaluate(input, realContext(runtime)));

void runHook(hook.evaluate, {
  guard: guardName,
  protocol: protocolFromArgs(args),
  warmUp: () => evaluate(bashPayload(warmUpCommand), realContext({ env: process.env })),
});
