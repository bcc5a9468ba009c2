import { isStrictArg } from '../strict-arg.ts';
import type { Check } from './check.ts';

/**
 * What an installed handler says of strict mode. `install --strict` writes both halves
 * (`"onFailure": "block"` and `--strict` after the bundle); an install from before it wrote the
 * first alone, which leaves the guard judging as the default does while the host blocks on a crash.
 */
export type StrictState = 'strict' | 'block-only' | 'switch-only' | 'default';

/** The strict state of one handler as install writes it (exec form: `args` after the bundle). */
export function strictStateOf(handler: Record<string, unknown>): StrictState {
  const block = handler.onFailure === 'block';
  const args = Array.isArray(handler.args) ? handler.args.filter((arg) => typeof arg === 'string') : [];
  const flag = isStrictArg(args);
  if (block && flag) return 'strict';
  if (block) return 'block-only';
  return flag ? 'switch-only' : 'default';
}

const summaries: Record<StrictState, string> = {
  strict: ', strict (onFailure block, TAGOUT_HOOKS_STRICT through --strict)',
  'block-only': ', onFailure block without --strict (half of strict mode)',
  'switch-only': ', --strict without onFailure block (half of strict mode)',
  default: '',
};

/** The words doctor adds to the settings entry's line. */
export function strictSummary(handler: Record<string, unknown>): string {
  return summaries[strictStateOf(handler)];
}

/** A warning when the handler holds one half of strict mode only, with the command that completes it. */
export function strictChecks(handler: Record<string, unknown>, guardName: string, scope: string): Check[] {
  const state = strictStateOf(handler);
  if (state !== 'block-only' && state !== 'switch-only') return [];
  const missing =
    state === 'block-only'
      ? 'the guard judges without TAGOUT_HOOKS_STRICT unless the session sets it'
      : 'a hook that crashes or times out lets the call through';
  return [
    {
      ok: true,
      warn: true,
      text: `this handler has half of strict mode (${missing}): \`${guardName} install --${scope} --strict\` writes both halves, \`${guardName} install --${scope}\` neither`,
    },
  ];
}
