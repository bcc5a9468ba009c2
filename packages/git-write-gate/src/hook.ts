import { runHook } from '@kit/fail-open';
import { bashPayload, guardHook, protocolFromArgs } from '@kit/gate-approval';
import { parse } from '@kit/shell-segments';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { onFailOpen } from './strict-policy.ts';
import { guardName } from './reasons.ts';

// The bundle entry (dist/hook.cjs), started for every Bash call: it imports neither guard.ts nor
// the CLI. runHook never rejects; onFailOpen is the strict policy for a payload it cannot read.
// In the verdict server (the same bundle, kept warm), warmUp loads mvdan-sh and compiles the parse
// path before the first call: the server's own folder is no managed repository, so evaluate alone
// would not parse. The host is the installed command's `--host NAME` (Claude Code without one);
// `--strict` among the arguments (install --strict) judges as TAGOUT_HOOKS_STRICT=1 would, and
// guardHook writes each deny, refusal, escape used and monitored would-deny to the audit trail.
// Spec step 3: the payload is read whole. The model writes `description` and can make a payload of
// many MiB; the cap is there against a writer that never ends, not against a large tool input.
const maxStdinBytes = 64 * 1024 * 1024;

const warmUpCommand = 'cd app && git add -A && git commit -m "wip" | tail -3; gh pr create --fill';

const args = process.argv.slice(2);

const hook = guardHook(
  guardName,
  args,
  (input, runtime) => evaluate(input, realContext(runtime)),
  onFailOpen,
);

void runHook(hook.evaluate, {
  guard: guardName,
  maxStdinBytes,
  protocol: protocolFromArgs(args),
  ...(hook.onFailOpen ? { onFailOpen: hook.onFailOpen } : {}),
  warmUp: () => {
    parse(warmUpCommand);
    evaluate(bashPayload(warmUpCommand), realContext({ env: process.env, raw: '' }));
  },
});
