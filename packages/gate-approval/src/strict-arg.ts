import { strictSwitchName } from './switches.ts';

/**
 * `install --strict` is all of strict mode: `"onFailure": "block"` on the handler, and the strict
 * switch for the guard. A Claude Code exec-form handler has no field for environment variables, so
 * the switch rides in the handler's own arguments (`node <bundle> --strict`), as `--monitor` does:
 * the bundle reads it and judges every call as TAGOUT_HOOKS_STRICT=1 would. A verdict server keys
 * its answers by the call's arguments, so a strict call is never answered by a default one.
 * Uninstall removes the handler, and the flag with it.
 */
export const strictFlag = '--strict';

/** True when the bundle's arguments ask for strict mode. */
export function isStrictArg(argv: readonly string[]): boolean {
  return argv.includes(strictFlag);
}

/** The arguments without the strict flag: what the host choice reads. */
export function withoutStrictFlag(argv: readonly string[]): string[] {
  return argv.filter((arg) => arg !== strictFlag);
}

/**
 * The call's runtime as a guard should see it: with `--strict` among the bundle's arguments, its
 * environment says TAGOUT_HOOKS_STRICT=1 (the flag wins, as the strict plugin's wrapper does);
 * without it, the runtime unchanged.
 */
export function strictRuntime<R extends { env: Record<string, string | undefined> }>(
  runtime: R,
  argv: readonly string[],
): R {
  if (!isStrictArg(argv)) return runtime;
  return { ...runtime, env: { ...runtime.env, [strictSwitchName]: '1' } };
}
