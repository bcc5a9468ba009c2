import shippedRegistry from '../exit-status-guard.json' with { type: 'json' };
import { compilePattern } from './pattern.ts';

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
  gates: RegExp[];
  exempt: RegExp[];
  mutators: RegExp[];
  restores: RegExp[];
  problems: RegistryProblem[];
  sources: RegistrySources;
}

/** What loading needs from the outside world: env, a folder, and a file reader. */
export interface RegistryEnvironment {
  env: Record<string, string | undefined>;
  cwd: string; // the payload cwd, used when CLAUDE_PROJECT_DIR is unset
  /** The file's text; null when it does not exist; undefined when it exists but cannot be read. */
  readText: (path: string) => string | null | undefined;
}

/** The base registry's variables, current name first (it wins). */
export const registryVariables: readonly string[] = ['EXIT_STATUS_GUARD_REGISTRY', 'PIPE_GUARD_REGISTRY'];
/** The project file names under `.claude/`, current name first; the first that exists is the one read. */
export const projectRegistryNames: readonly string[] = ['exit-status-guard.json', 'pipe-guard.json'];

/** The registry that ships in the package (inlined into the hook bundle at build time). */
export function shippedRegistryFile(): RegistryFile {
  return shippedRegistry as RegistryFile;
}

/** A file's parsed content as a registry object: anything but a JSON object counts as `{}`. */
export function parseRegistryText(text: string | null | undefined): { file: RegistryFile; problem?: string } {
  if (text === null || text === undefined)
    return { file: {}, problem: text === undefined ? 'cannot be read' : 'does not exist' };
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      return { file: {}, problem: 'is not a JSON object' };
    return { file: parsed as RegistryFile };
  } catch (error) {
    return {
      file: {},
      problem: `is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

function joinPath(dir: string, ...parts: string[]): string {
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
  return [dir.replace(/[\\/]+$/, ''), ...parts].join(sep);
}

const compiledCache = new Map<string, { regex: RegExp | null; message?: string }>();

function compileCached(pattern: unknown): { regex: RegExp | null; message?: string } {
  const key = typeof pattern === 'string' ? pattern : `\u0000${JSON.stringify(pattern)}`;
  let hit = compiledCache.get(key);
  if (!hit) {
    const outcome = compilePattern(pattern);
    hit = outcome.ok ? { regex: outcome.regex } : { regex: null, message: outcome.message };
    if (compiledCache.size < 4096) compiledCache.set(key, hit);
  }
  return hit;
}

function patternsOf(
  file: RegistryFile,
  list: RegistryList,
  source: string,
  problems: RegistryProblem[],
): RegExp[] {
  const raw: unknown = file[list];
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push({ source, list, message: `"${list}" is not a list` });
    return [];
  }
  const out: RegExp[] = [];
  for (const pattern of raw) {
    const { regex, message } = compileCached(pattern);
    if (regex) out.push(regex);
    else problems.push({ source, list, pattern: String(pattern), message: `dropped: ${message}` });
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

/**
 * Resolves and compiles the registry of one call. The base is the shipped file, or the file named by
 * EXIT_STATUS_GUARD_REGISTRY (1.x: PIPE_GUARD_REGISTRY), which replaces it. The project file is the
 * first that exists of `.claude/exit-status-guard.json` and `.claude/pipe-guard.json` under
 * CLAUDE_PROJECT_DIR (else the payload cwd): one file, never merged with the other. Its lists are
 * appended, or replace the base with `replace: true`. An unreadable or non-object file counts as `{}`.
 */
export function loadRegistry(environment: RegistryEnvironment): Registry {
  const problems: RegistryProblem[] = [];
  let base = shippedRegistryFile();
  let baseSource = 'shipped';
  for (const variable of registryVariables) {
    const path = environment.env[variable];
    if (!path) continue;
    baseSource = path;
    const { file, problem } = parseRegistryText(safeRead(environment, path));
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
      const text = safeRead(environment, path);
      if (text === null) continue;
      const { file, problem } = parseRegistryText(text);
      if (problem) problems.push({ source: path, message: `${path} ${problem}; it counts as {}` });
      project = file;
      projectSource = path;
      break;
    }
  }
  return compileRegistry(
    base,
    project,
    { base: baseSource, project: projectSource, replaced: false },
    problems,
  );
}

function safeRead(environment: RegistryEnvironment, path: string): string | null | undefined {
  try {
    return environment.readText(path);
  } catch {
    return undefined;
  }
}
