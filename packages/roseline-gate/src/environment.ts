// The environment variables this guard reads while it judges a call, beyond @kit/fail-open's own.
// Its verdict server is handed these alone (hookBundle's `environment`, tsup.config.ts);
// fail-open's test/call-environment.test.ts fails when a read here is not named.

/** What roseline-gate reads from a call's environment. */
export const readsEnvironment: readonly string[] = [
  'ROSELINE_GATE', // its switch (evaluate.ts)
  'TAGOUT_HOOKS_STRICT', // @kit/gate-approval's strict switch
  'KIT_HOOKS_AUDIT', // @kit/gate-approval's audit log: its off-switch
  'XDG_STATE_HOME', // @kit/gate-approval's audit log: where it is kept
];
