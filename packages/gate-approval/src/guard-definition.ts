import type { FailCause, HookInput, HookRuntime } from '@kit/fail-open';
import type { Verdict } from './verdict.ts';

/** Where the CLI reads and writes: the real process by default, plain values in tests. */
export interface CliIO {
  cwd: string;
  env: Record<string, string | undefined>;
  home: string; // the user scope lives in <home>/.claude
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin?: () => Promise<string>; // the `hook` command's payload; default: the process's stdin
}

/** A switch a guard reads, for --help and doctor. */
export interface GuardSwitch {
  name: string; // GIT_GATE
  legacyNames?: string[];
  values: string; // 'off | on' (for --help)
  kind?: 'switch' | 'value'; // switch (default): read as off | on | auto; value: a setting shown as set or not
  doc: string; // one line
}

/** A guard-only subcommand (friction-report). */
export interface GuardCommand {
  summary: string; // one line, for --help
  run: (argv: string[], io: CliIO) => Promise<number>;
}

/** The positive control doctor runs through the installed command. */
export interface PositiveControl {
  payload: HookInput;
  env?: Record<string, string>;
  cleanup?: () => Promise<void>;
}

/** What a guard hands the shared CLI. */
export interface GuardDefinition {
  name: string; // 'exit-status-guard' (also the reason opener and the bundle's file name)
  version: string;
  description: string; // one line, for --help
  matcher: string; // 'Bash' | 'Read'
  bundle: string; // absolute path of the built self-contained hook bundle (dist/hook.mjs)
  switches: GuardSwitch[];
  /** The same function the hook bundle runs (real fs probes, env from runtime.env). */
  evaluate: (input: HookInput, runtime: HookRuntime) => Verdict | Promise<Verdict>;
  /** A synthetic payload for `explain <arg> [--cwd DIR]`: a Bash command or a Read file path. */
  payloadFor: (arg: string, cwd: string) => HookInput;
  /** A payload that must deny through the installed command (doctor). May set up a temp tree. */
  positiveControl: () => Promise<PositiveControl>;
  /** Guard-only subcommands. */
  commands?: Record<string, GuardCommand>;
  /** Extra doctor checks: each returned line is a problem. */
  doctorChecks?: (io: CliIO) => Promise<string[]>;
  /**
   * True when the guard has a strict mode (TAGOUT_HOOKS_STRICT): only then does `install --strict`
   * exist, adding `"onFailure": "block"`. A guard that fails open always refuses the flag.
   */
  strictMode?: boolean;
  /** The bundle's strict policy, so `hook` behaves exactly as the bundle: see runHook's onFailOpen. */
  onFailOpen?: (cause: FailCause, runtime: HookRuntime) => Verdict | undefined;
}
