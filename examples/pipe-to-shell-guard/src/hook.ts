import { runHook } from '@kit/fail-open';
import { claudeCode } from '@kit/gate-approval';
import { evaluate } from './evaluate.ts';
import { guardName } from './reasons.ts';

// The bundle entry (dist/hook.cjs), started for every Bash call: only evaluate, not the CLI.
void runHook((input) => evaluate(input), { guard: guardName, protocol: claudeCode });
