// The environment variables this guard reads while it judges a call, beyond @kit/fail-open's own.
// Its verdict server is handed these alone (hookBundle's `environment`, tsup.config.ts);
// fail-open's test/call-environment.test.ts fails when a read here is not named.

/** What git-write-gate reads from a call's environment. */
export const readsEnvironment: readonly string[] = [
  'GIT_GATE', // its switch (escape.ts)
  'TAGOUT_HOOKS_STRICT', // @kit/gate-approval's strict switch
  'HOME', // effective-directory.ts: `cd` and `~`
  'CDPATH', // effective-directory.ts
  'GIT_DIR', // shell-state.ts (gitVariables): where git looks
  'GIT_WORK_TREE',
  // shell-flow.ts (exportedBefore): a command variable the CLI exports stays exported when the line
  // assigns it, so `EDITOR='git push'; git commit` runs it (shell-segments' gitCommandVariables)
  'GIT_EDITOR',
  'EDITOR',
  'VISUAL',
  'GIT_SEQUENCE_EDITOR',
  'GIT_PAGER',
  'GIT_EXTERNAL_DIFF',
  'GIT_SSH_COMMAND',
  'XDG_CONFIG_HOME', // git-aliases.ts: the config files git reads aliases from
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
  'KIT_HOOKS_AUDIT', // @kit/gate-approval's audit log: its off-switch
  'XDG_STATE_HOME', // @kit/gate-approval's audit log: where it is kept
];
