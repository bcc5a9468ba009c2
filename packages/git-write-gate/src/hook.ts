import { runHook } from '@kit/fail-open';
import { claudeCode } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { onFailOpen } from './fail-open-policy.ts';
import { guardName } from './reasons.ts';

// The bundle entry (dist/hook.cjs), started for every Bash call: it imports neither guard.ts nor
// the CLI. runHook never rejects; onFailOpen is the strict policy for a payload it cannot read.
void runHook((input, runtime) => evaluate(input, realContext(runtime)), {
  guard: guardName,
  protocol: claudeCode,
  onFailOpen,
});
