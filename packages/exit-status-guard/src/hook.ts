import { runHook } from '@kit/fail-open';
import { encodeVerdict } from '@kit/gate-approval';
import { realContext } from './context.ts';
import { evaluate } from './evaluate.ts';
import { guardName } from './reasons.ts';

void runHook((input, runtime) => evaluate(input, realContext(runtime)), {
  guard: guardName,
  encode: encodeVerdict,
});
