import { switchOffValues } from '@kit/fail-open';

/** What a switch says: off (the guard stays silent), on (overrides the evidence probe), auto (unset). */
export type SwitchState = 'off' | 'on' | 'auto';

const offValues = new Set(switchOffValues);
const onValues = new Set(['on', '1', 'true', 'yes', 'enabled']);
const strictValues = new Set(['1', 'on', 'true', 'yes']);

/** The name of the strict-mode variable read by `isStrict`. */
export const strictSwitchName = 'TAGOUT_HOOKS_STRICT';

/**
 * Reads a switch from an env object. Values: off | 0 | false | no | disabled, and
 * on | 1 | true | yes | enabled, in any case, surrounding whitespace ignored; anything else is auto.
 * The current `name`, when it holds a recognised value, decides alone. Only when it is unset or
 * unrecognised are `legacyNames` read, and among them off wins over on whatever their order.
 */
export function readSwitch(
  env: Record<string, string | undefined>,
  name: string,
  legacyNames: string[] = [],
): SwitchState {
  const current = classify(env[name]);
  if (current !== 'auto') return current;
  const legacy = legacyNames.map((legacyName) => classify(env[legacyName]));
  if (legacy.includes('off')) return 'off';
  return legacy.includes('on') ? 'on' : 'auto';
}

/** True when TAGOUT_HOOKS_STRICT is 1, on, true or yes (any case, whitespace ignored); anything else is the default. */
export function isStrict(env: Record<string, string | undefined>): boolean {
  const value = env[strictSwitchName];
  return value !== undefined && strictValues.has(value.trim().toLowerCase());
}

function classify(value: string | undefined): SwitchState {
  if (value === undefined) return 'auto';
  const normalized = value.trim().toLowerCase();
  if (offValues.has(normalized)) return 'off';
  return onValues.has(normalized) ? 'on' : 'auto';
}
