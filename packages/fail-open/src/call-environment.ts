// What a call's environment a verdict server sees: only the variables named here and in the
// guard's own list (hookBundle's `environment`), never the whole environment, so no token, key or
// password the host runs with is ever written to the mailbox. A variable the runtime or a guard
// reads must be named (test/call-environment.test.ts finds every read of a named variable in packages/*/src).

/** The variables @kit/fail-open itself reads while it judges a call (run-hook, trace, temp-dir, on-path). */
export const runtimeVariables: readonly string[] = [
  'KIT_HOOKS_TRACE', // run-hook.ts: the trace file
  'KIT_HOOKS_SERVER', // the front: the server's switch
  'KIT_HOOKS_SERVER_IDLE_SECONDS', // the front: the server's quiet period
  'TMPDIR', // temp-dir.ts, the front, and os.tmpdir() in the guards
  'TMP',
  'TEMP',
  'PATH', // on-path.ts
  'PATHEXT',
  'HOME', // os.homedir() and `~`
  'NODE_OPTIONS', // the front's key, and shell-segments' code cache key
];

/**
 * The environment a served call carries: the caller's value of each named variable it has, and
 * nothing else. Printed into the bundle's front, so it names nothing but its parameters.
 */
export function carriedEnvironment(
  env: Record<string, string | undefined>,
  names: readonly string[],
): Record<string, string> {
  const carried: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (typeof value === 'string') carried[name] = value;
  }
  return carried;
}
