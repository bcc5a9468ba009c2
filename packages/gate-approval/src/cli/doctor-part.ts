import type { CliIO, GuardDefinition } from '../guard.ts';
import type { Check } from './check.ts';
import type { HostWiring, InstalledEntry } from './host-wiring.ts';
import type { Scope, ScopeLocations } from './scope.ts';

/** How the host starts the installed hook, as doctor read it from the entry. */
export interface HookRun {
  program: string; // what must be on PATH for the host to start the hook: the handler's command, or node
  command: string; // what runs: 'node' (exec form) or the host's shell
  args: string[]; // [bundle, ...] or ['-c', '<the installed command>']
  shown?: string; // how the control's line names what ran; default command and args
  bundleFile: string; // the bundle as the host finds it (project dir expanded)
  timeoutMs: number;
  hostEnv: Record<string, string>; // what the host sets for the hook: CLAUDE_PROJECT_DIR, ...
  cwd: string; // where the host runs it
  unguarded: string; // appended to a FAIL line that leaves calls unjudged, or ''
}

/** What a doctor part makes of the one installed entry: its line, and the run when the entry is sound. */
export interface EntryReading {
  checks: Check[];
  run: HookRun | null;
}

/** What a part found around the host's file before the entry is read (a plugin that runs the guard too). */
export interface Surroundings {
  lines: Check[]; // printed with the installation's own, whatever it holds
  twin: Check | null; // a FAIL line when the file has an entry and something else also runs the guard
  elsewhere: (() => Promise<Check[]>) | null; // what runs the guard when the file has no entry
}

/** One installation being checked: the guard, the host's wiring, the scope's files. */
export interface DoctorContext {
  guard: GuardDefinition;
  wiring: HostWiring;
  scope: Scope;
  where: ScopeLocations;
  hint: string; // `run \`<guard> install ...\``
  io: CliIO;
}

/**
 * A host's part of the one doctor flow (installation-check.ts): what surrounds the file, whether the
 * entry is the one install writes and how the host runs it, the lines after the positive control.
 */
export interface DoctorPart {
  installHint: (guard: GuardDefinition, wiring: HostWiring, scope: Scope) => string;
  surroundings: (context: DoctorContext) => Promise<Surroundings>;
  readEntry: (context: DoctorContext, entry: InstalledEntry) => Promise<EntryReading>;
  /** Lines that follow the positive control through `run` (only when it could run). */
  afterControl: (context: DoctorContext, run: HookRun) => Promise<Check[]>;
  /** The installation's last lines, given every line so far and whether the entry was sound (readEntry gave a run). */
  closing: (
    context: DoctorContext,
    entry: InstalledEntry,
    checks: Check[],
    sound: boolean,
  ) => Promise<Check[]>;
}
