/** The shared CLI every guard's bin is built from (hook, install, uninstall, explain, doctor). */
export { runCli } from './cli/run-cli.ts';
/** A verdict in the host's PreToolUse protocol (deny JSON on stdout, refuse on stderr with exit 2). */
export { encodeVerdict } from './encode.ts';
/** What a guard hands the shared CLI, and the CLI's I/O. */
export type {
  CliIO,
  GuardCommand,
  GuardDefinition,
  GuardSwitch,
  PositiveControl,
} from './guard-definition.ts';
/** What a switch says: off, on or auto. */
export type { SwitchState } from './switches.ts';
/** Reads NAME=off|on from an env object (the current name beats a legacy one), and TAGOUT_HOOKS_STRICT. */
export { isStrict, readSwitch } from './switches.ts';
/** A guard's decision: none, deny, refuse (strict only) or cannotJudge. */
export type { Verdict } from './verdict.ts';
/** Verdict builders; deny and refuse put the guard's name in front of the reason. */
export { cannotJudge, deny, none, refuse } from './verdict.ts';
