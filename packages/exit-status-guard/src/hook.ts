import { runHook } from '@kit/fail-open';
import { bashPayload, protocolFromArgs } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { guardName } from './reasons.ts';

// The bundle entry (dist/hook.cjs), started for every Bash call: it imports neither guard.ts nor
// the CLI. runHook never rejects. In the verdict server (the same bundle, kept warm), warmUp loads
// mvdan-sh and compiles the parse path before the first call.
// The host is the installed command's `--host NAME` (Claude Code without one).
// A check piped into a filter, then sequenced: the parse path and the rules it reaches.
const warmUpCommand = 'make check 2>&1 | tail -30; cd app && npm test || echo "EXIT=$?"';

void runHook((input, runtime) => evaluate(input, realContext(runtime)), {
  guard: guardName,
  protocol: protocolFromArgs(process.argv.slice(2)),
  warmUp: () => evaluate(bashPayload(warmUpCommand), realContext({ env: process.env })),
});
