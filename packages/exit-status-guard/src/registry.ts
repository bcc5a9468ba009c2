import { isJsonObject, type Outcome, type TextFileProblem } from '@kit/fail-open';
import shippedRegistry from '../exit-status-guard.json' with { type: 'json' };
import { checkedPattern, literalsOfPattern, type Pattern, trustedPattern } from './pattern.ts';
import type { RequiredLiterals } from './required-literals.ts';
import { shippedLiterals } from './shipped-literals.ts';

/** The four lists of a registry, in the order a segment is screened. */
export const registryLists = ['gates', 'exempt', 'mutators', 'restores'] as const;
/** One of the registry's lists. */
export type RegistryList = (typeof registryLists)[number];

/** A registry file as written: four lists of patterns, `replace` (project file only), `_comment`. */
export interface RegistryFile {
  gates?: string[];
  exempt?: string[];
  mutators?: string[];
  restores?: string[];
  replace?: boolean;
  _comment?: unknown;
}

/** A pattern that was dropped, or a file that could not be used; doctor and explain print these. */
export interface RegistryProblem {
  source: string; // the file, or 'shipped'
  list?: RegistryList;
  pattern?: string;
  message: string;
}

/** Where the registry of one call came from. */
export interface RegistrySources {
  base: string; // 'shipped' or the file named by EXIT_STATUS_GUARD_REGISTRY / PIPE_GUARD_REGISTRY
  project: string | null; // the project file, when one exists
  replaced: boolean; // the project file said replace: true
}

/** The compiled registry a call is judged with. */
export interface Registry {
  gates: Pattern[];
  exempt: Pattern[];
  mutators: Pattern[];
  restores: Pattern[];
  problems: RegistryProblem[];
  sources: RegistrySources;
}

/** What loading needs from the outside world: env, a folder, and a file reader. */
export interface RegistryEnvironment {
  env: Record<string, string | undefined>;
  cwd: string; // the payload cwd, used when CLAUDE_PROJECT_DIR is unset
  /** A file's text, or why not: `absent` (nothing there) or `unreadable` (there, but it cannot be read). */
  readText: (path: string) => Outcome<string, TextFileProblem>;
}

/** The base registry's variables, current name first (it wins). */
export const registryVariables: readonly string[] = ['EXIT_STATUS_GUARD_REGISTRY', 'PIPE_GUARD_REGISTRY'];
/** The project file names under `.claude/`, current name first; the first that exists is the one read. */
export const projectRegistryNames: readonly string[] = ['exit-status-guard.json', 'pipe-guard.json'];

/** The registry that ships in the package (inlined into the hook bundle at build time). */
export function shippedRegistryFile(): RegistryFile {
  return shippedRegistry as RegistryFile;
}

/** Why a registry file's text is no registry. */
type RegistryTextProblem = 'not-json' | 'not-an-object';

/**
 * A registry file's text as a registry object, or why it is none; the `message` completes a
 * sentence that starts with the file's name ("is not a JSON object"). The caller counts it as `{}`.
 */
function parseRegistryText(text: string): Outcome<RegistryFile, RegistryTextProblem> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: 'not-json', message: `is not valid JSON (${detail})` };
  }
  if (!isJsonObject(parsed)) return { ok: false, reason: 'not-an-object', message: 'is not a JSON object' };
  return { ok: true, value: parsed as RegistryFile };
}

// How a file that is no registry is named in a problem line, completing "<file> …".
const unusableText: Record<TextFileProblem, string> = {
  absent: 'does not exist',
  unreadable: 'cannot be read',
};

/** What a file read gives the registry: the file to use (`{}` when unusable), and the problem to report. */
function registryOf(read: Outcome<string, TextFileProblem>): { file: RegistryFile; problem: string | null } {
  if (!read.ok) return { file: {}, problem: unusableText[read.reason] };
  const parsed = parseRegistryText(read.value);
  return parsed.ok ? { file: parsed.value, problem: null } : { file: {}, problem: parsed.message };
}

function joinPath(dir: string, ...parts: string[]): string {
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
  return [dir.replace(/[\\/]+$/, ''), ...parts].join(sep);
}

// One Pattern per text for the process: a pattern compiled on first use stays compiled.
const patternCache = new Map<string, { ok: true; value: Pattern } | { ok: false; message: string }>();

function patternOf(pattern: unknown): { ok: true; value: Pattern } | { ok: false; message: string } {
  const key = typeof pattern === 'string' ? pattern : `\u0000${JSON.stringify(pattern)}`;
  let hit = patternCache.get(key);
  if (!hit) {
    // A shipped pattern is known to compile (its test asserts it): no RegExp until a head needs one.
    hit =
      typeof pattern === 'string' && Object.hasOwn(shippedLiterals, pattern)
        ? { ok: true, value: trustedPattern(pattern, shippedLiterals[pattern] ?? null) }
        : checkedPattern(pattern);
    if (patternCache.size < 4096) patternCache.set(key, hit);
  }
  return hit;
}

function patternsOf(
  file: RegistryFile,
  list: RegistryList,
  source: string,
  problems: RegistryProblem[],
): Pattern[] {
  const raw: unknown = file[list];
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push({ source, list, message: `"${list}" is not a list` });
    return [];
  }
  const out: Pattern[] = [];
  for (const pattern of raw) {
    const outcome = patternOf(pattern);
    if (outcome.ok) out.push(outcome.value);
    else problems.push({ source, list, pattern: String(pattern), message: `dropped: ${outcome.message}` });
  }
  return out;
}

/** Compiles a base file and an optional project file into one registry; never throws. */
export function compileRegistry(
  base: RegistryFile,
  project: RegistryFile | null,
  sources: RegistrySources,
  problems: RegistryProblem[] = [],
): Registry {
  const replaced = project?.replace === true;
  const registry: Registry = {
    gates: [],
    exempt: [],
    mutators: [],
    restores: [],
    problems,
    sources: { ...sources, replaced },
  };
  for (const list of registryLists) {
    const fromBase = replaced ? [] : patternsOf(base, list, sources.base, problems);
    const fromProject = project ? patternsOf(project, list, sources.project ?? 'project', problems) : [];
    registry[list] = [...fromBase, ...fromProject];
  }
  return registry;
}

/** The registry files of one call, read and parsed but not compiled: what loadRegistry compiles and the pre-check reads. */
export interface RegistryFiles {
  base: RegistryFile;
  project: RegistryFile | null;
  sources: RegistrySources;
  problems: RegistryProblem[];
}

/**
 * Resolves the registry files of one call. The base is the shipped file, or the file named by
 * EXIT_STATUS_GUARD_REGISTRY (1.x: PIPE_GUARD_REGISTRY), which replaces it. The project file is the
 * first that exists of `.claude/exit-status-guard.json` and `.claude/pipe-guard.json` under
 * CLAUDE_PROJECT_DIR (else the payload cwd): one file, never merged with the other. An unreadable
 * or non-object file counts as `{}`.
 */
export function readRegistryFiles(environment: RegistryEnvironment): RegistryFiles {
  const problems: RegistryProblem[] = [];
  let base = shippedRegistryFile();
  let baseSource = 'shipped';
  for (const variable of registryVariables) {
    const path = environment.env[variable];
    if (!path) continue;
    baseSource = path;
    const { file, problem } = registryOf(safeRead(environment, path));
    if (problem)
      problems.push({
        source: path,
        message: `${variable}=${path} ${problem}; it counts as an empty registry`,
      });
    base = file;
    break;
  }
  const projectDir = environment.env.CLAUDE_PROJECT_DIR || environment.cwd;
  let project: RegistryFile | null = null;
  let projectSource: string | null = null;
  if (projectDir) {
    for (const name of projectRegistryNames) {
      const path = joinPath(projectDir, '.claude', name);
      const read = safeRead(environment, path);
      if (!read.ok && read.reason === 'absent') continue;
      const { file, problem } = registryOf(read);
      if (problem) problems.push({ source: path, message: `${path} ${problem}; it counts as {}` });
      project = file;
      projectSource = path;
      break;
    }
  }
  return {
    base,
    project,
    sources: { base: baseSource, project: projectSource, replaced: project?.replace === true },
    problems,
  };
}

/**
 * Resolves and compiles the registry of one call (see readRegistryFiles): the project file's lists
 * are appended to the base, or replace it with `replace: true`.
 */
export function loadRegistry(environment: RegistryEnvironment): Registry {
  return compileRegistryFiles(readRegistryFiles(environment));
}

/** Compiles registry files already read (readRegistryFiles): the base, then the project file's lists. */
export function compileRegistryFiles(files: RegistryFiles): Registry {
  return compileRegistry(files.base, files.project, { ...files.sources, replaced: false }, files.problems);
}

// The lists whose patterns can make a rule fire: exempt only ever silences.
const triggerLists = ['gates', 'mutators', 'restores'] as const;
const literalsCache = new Map<string, RequiredLiterals | null>();
let shippedTriggers: (RequiredLiterals | null)[] | undefined;

function literalsOfString(pattern: string): RequiredLiterals | null {
  if (Object.hasOwn(shippedLiterals, pattern)) return shippedLiterals[pattern] ?? null;
  let literals = literalsCache.get(pattern);
  if (literals === undefined) {
    literals = literalsOfPattern(pattern);
    if (literalsCache.size < 4096) literalsCache.set(pattern, literals);
  }
  return literals;
}

function triggersOfFile(file: RegistryFile): (RequiredLiterals | null)[] {
  const out: (RequiredLiterals | null)[] = [];
  for (const list of triggerLists) {
    const patterns: unknown = file[list];
    if (!Array.isArray(patterns)) continue; // not a list: compiled as none
    // A pattern that is not a string is dropped by compileRegistry: it can never match.
    for (const pattern of patterns) if (typeof pattern === 'string') out.push(literalsOfString(pattern));
  }
  return out;
}

/**
 * The required literals of every gate, mutator and restore pattern the call's registry holds (the
 * pre-check's triggers); the shipped registry's come from the build-time table.
 */
export function triggerLiterals(files: RegistryFiles): (RequiredLiterals | null)[] {
  const replaced = files.project?.replace === true;
  let base: (RequiredLiterals | null)[] = [];
  if (!replaced) {
    if (files.base === shippedRegistryFile()) shippedTriggers ??= triggersOfFile(files.base);
    base =
      files.base === shippedRegistryFile()
        ? (shippedTriggers as (RequiredLiterals | null)[])
        : triggersOfFile(files.base);
  }
  return files.project ? [...base, ...triggersOfFile(files.project)] : base;
}

/** The same triggers for a registry already compiled (a context that brings its own). */
export function triggerLiteralsOfRegistry(registry: Registry): (RequiredLiterals | null)[] {
  return triggerLists.flatMap((list) => registry[list].map((pattern) => pattern.literals));
}

// A probe that throws has a file it cannot read: unreadable, never absent.
function safeRead(environment: RegistryEnvironment, path: string): Outcome<string, TextFileProblem> {
  try {
    return environment.readText(path);
  } catch (error) {
    return {
      ok: false,
      reason: 'unreadable',
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
