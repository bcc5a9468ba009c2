import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FailCause, HookRuntime } from '@kit/fail-open';
import { bashPayload, type HookInput, readPayload } from './hosts/claude-code.ts';
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
  usage?: string; // what `<guard> <command> --help` prints; default: the summary
  run: (argv: string[], io: CliIO) => Promise<number>;
}

/** A line of a guard's own doctor checks: a string is a problem; `warn` is worth knowing, not broken. */
export type DoctorLine = string | { level: 'ok' | 'warn'; text: string };

/** A guard's own part of `report` (exit-status-guard's friction report): its title, its text lines, its `--json` value. */
export interface ReportSection {
  title: string;
  lines: string[];
  data: unknown;
}

/** The positive control doctor runs through the installed command. */
export interface PositiveControl {
  payload: HookInput;
  env?: Record<string, string>; // over the user's environment (a switch turned on, a temp folder)
}

/** What a guard says of itself to `defineGuard`; the version, the bundle and a default payloadFor are derived. */
export interface GuardSpec {
  /**
   * `import.meta.url` of the module calling defineGuard, which sits one folder below the package's
   * package.json: `src/guard.ts` when run from source, `dist/cli.js` once bundled.
   */
  packageUrl: string;
  name: string; // 'exit-status-guard' (also the reason opener and the bundle's file name)
  description: string; // one line, for --help
  matcher: string; // 'Bash' | 'Read'
  switches: GuardSwitch[];
  /** The same function the hook bundle runs (real fs probes, env from runtime.env). */
  evaluate: (input: HookInput, runtime: HookRuntime) => Verdict | Promise<Verdict>;
  /**
   * A synthetic payload for `explain <arg> [--cwd DIR]`. Default, from the matcher: a Bash call of
   * the command, or a Read of the path resolved against the cwd, in session `explain`.
   */
  payloadFor?: (arg: string, cwd: string) => HookInput;
  /**
   * A payload that must deny through the installed command (doctor). `scratch` is an empty folder
   * of its own for any tree the control needs; doctor removes it after the run.
   */
  positiveControl: (scratch: string) => Promise<PositiveControl>;
  /** Guard-only subcommands. */
  commands?: Record<string, GuardCommand>;
  /** Extra doctor checks: a string is a problem (a FAIL line, exit 1); an `ok` or `warn` line never fails. */
  doctorChecks?: (io: CliIO) => Promise<DoctorLine[]>;
  /** The guard's own sections of `report`, for the same period (`since`: ms since the epoch, null for all) and repository filter. */
  reportSections?: (
    filter: { since: number | null; repo: string | null },
    io: CliIO,
  ) => Promise<ReportSection[]>;
  /**
   * Why the guard judges nothing for calls in `cwd` (an unmanaged repository, a switch off), in
   * words, or null when it acts there. doctor and explain print it, so an idle guard is never silent.
   */
  idleHere?: (cwd: string, env: Record<string, string | undefined>) => string | null;
  /**
   * True when the guard has a strict mode (TAGOUT_HOOKS_STRICT): only then does `install --strict`
   * exist, adding `"onFailure": "block"`. A guard that fails open always refuses the flag.
   */
  strictMode?: boolean;
  /** The bundle's strict policy, so `hook` behaves exactly as the bundle: see runHook's onFailOpen. */
  onFailOpen?: (cause: FailCause, runtime: HookRuntime) => Verdict | undefined;
}

/** What a guard hands the shared CLI: its spec with the version, the bundle path and payloadFor filled in. */
export interface GuardDefinition extends Omit<GuardSpec, 'packageUrl' | 'payloadFor'> {
  version: string; // from the package's package.json
  bundle: string; // absolute path of the built self-contained hook bundle: <package>/dist/hook.cjs
  payloadFor: (arg: string, cwd: string) => HookInput;
}

/**
 * A guard's definition for `runCli`. Reads the version from the package.json one folder above
 * `packageUrl` and places the bundle at `<package>/dist/hook.cjs`, so a guard run from source and
 * from its built bin agree. Throws a TypeError when that package.json cannot be read or has no
 * version, or when the matcher has no payload builder and no `payloadFor` is given.
 */
export function defineGuard(spec: GuardSpec): GuardDefinition {
  const { packageUrl, payloadFor, ...rest } = spec;
  const root = packageRootOf(spec);
  return {
    ...rest,
    version: readVersion(spec, root),
    bundle: resolve(root, 'dist', 'hook.cjs'),
    payloadFor: payloadFor ?? defaultPayloadFor(spec),
  };
}

function packageRootOf(spec: GuardSpec): string {
  try {
    return fileURLToPath(new URL('..', spec.packageUrl));
  } catch (error) {
    throw new TypeError(
      `defineGuard(${spec.name}): \`packageUrl\` must be the file URL of a module in the package (import.meta.url), got ${JSON.stringify(spec.packageUrl)}`,
      { cause: error },
    );
  }
}

function readVersion(spec: GuardSpec, root: string): string {
  const manifestPath = resolve(root, 'package.json');
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch (error) {
    throw new TypeError(
      `defineGuard(${spec.name}): cannot read the version from ${manifestPath} (${error instanceof Error ? error.message : String(error)}); \`packageUrl\` must be import.meta.url of a module one folder below package.json (src/guard.ts, dist/cli.js)`,
      { cause: error },
    );
  }
  const version = (manifest as { version?: unknown } | null)?.version;
  if (typeof version !== 'string' || version.trim() === '') {
    throw new TypeError(
      `defineGuard(${spec.name}): ${manifestPath} has no "version" string, got ${JSON.stringify(version) ?? String(version)}`,
    );
  }
  return version;
}

function defaultPayloadFor(spec: GuardSpec): (arg: string, cwd: string) => HookInput {
  switch (spec.matcher) {
    case 'Bash':
      return (command, cwd) => bashPayload(command, { cwd, sessionId: 'explain' });
    case 'Read':
      return (path, cwd) =>
        readPayload(isAbsolute(path) ? path : resolve(cwd, path), { cwd, sessionId: 'explain' });
    default:
      throw new TypeError(
        `defineGuard(${spec.name}): no payload builder for the matcher ${JSON.stringify(spec.matcher)}; give \`payloadFor\` (explain's synthetic payload)`,
      );
  }
}
