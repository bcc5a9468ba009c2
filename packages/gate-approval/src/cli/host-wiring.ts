import type { CliIO, GuardDefinition } from '../guard.ts';
import type { Check } from './check.ts';
import type { HostName } from '../hosts/host-adapter.ts';
import type { InstallChange } from './handler.ts';
import type { Scope, ScopeLocations } from './scope.ts';
import type { SettingsDocument } from './settings-file.ts';

/** One installed handler of a guard, read back from a host's configuration. */
export interface InstalledEntry {
  handler: Record<string, unknown>;
  matcher: string | undefined; // the group's or the handler's own, as the host reads it
  command: string | undefined; // the shell command the host runs
  timeoutMs: number | undefined; // the handler's timeout in the host's unit, as milliseconds
}

/**
 * How a guard is wired into one host's configuration: where each scope keeps the file and the
 * bundle, what the handler looks like, how the host runs it. install, uninstall and doctor read
 * and write every host's file through the same settings-file path (atomic, backed up, refusing
 * what it cannot parse); only what is in the file differs.
 */
export interface HostWiring {
  host: HostName;
  title: string; // 'Codex CLI'
  scopes: readonly Scope[]; // the first is the default
  /** Why this guard cannot be installed for this host (a tool the host does not have), or null. */
  unsupported: (guard: Pick<GuardDefinition, 'name' | 'matcher'>) => string | null;
  /** Why `--strict` cannot be kept on this host, or null when it can. */
  strictUnsupported: string | null;
  locate: (
    guard: Pick<GuardDefinition, 'name' | 'bundle'>,
    scope: Scope,
    io: CliIO,
  ) => Promise<ScopeLocations>;
  /** A shape problem of the host's own keys that readSettings does not check, or null. */
  shapeProblem: (document: SettingsDocument) => string | null;
  planInstall: (
    document: SettingsDocument,
    guard: Pick<GuardDefinition, 'name' | 'matcher'>,
    handlerArg: string, // the bundle as the handler names it (ScopeLocations.handlerArg)
    options: { strict: boolean; monitor?: boolean }, // monitor: Claude Code's wiring only, so far
  ) => { document: SettingsDocument; change: InstallChange };
  planUninstall: (
    document: SettingsDocument,
    guardName: string,
  ) => { document: SettingsDocument; removed: number; alternatives: SettingsDocument[] };
  findOwn: (document: SettingsDocument, guardName: string) => InstalledEntry[];
  /** Lines install prints after a write: what the user still has to do for the host to run the hook. */
  afterInstall: (scope: Scope) => string[];
  /** How the host runs a handler's command: `['/bin/bash', '-c']` (the command follows). Empty for exec form. */
  runsThrough: readonly string[];
  /** doctor's lines of this host's own (trust, a hook that runs twice), after the positive control. */
  hostChecks?: (context: HostCheckContext) => Promise<Check[]>;
}

/** What a host's own doctor checks get. */
export interface HostCheckContext {
  guard: GuardDefinition;
  scope: Scope;
  where: ScopeLocations;
  entry: InstalledEntry;
  io: CliIO;
}
