import { createRequire } from 'node:module';
import { isAbsolute } from 'node:path';
import type { GuardJudge } from './guard-judge.ts';

/** A judge module that could not be loaded, and why: what the session's notice and doctor report. */
export interface LoadProblem {
  module: string;
  message: string;
}

/**
 * The guards one judge process serves, each loaded once from its judge module (a guard's
 * `dist/judge.cjs`, self-contained): the modules named when the server started, and any module a
 * handler names by its absolute path. A module is keyed by its path, so a guard upgraded in place
 * of another version is a new path, loaded beside the old one; a call naming the old path keeps
 * the judge it had.
 */
export class JudgeModules {
  private readonly byPath = new Map<string, GuardJudge | LoadProblem>();
  private readonly started: string[];

  /** `onLoaded` is told each module loaded, once, as it loads (what the session's record lists). */
  constructor(
    modules: readonly string[],
    private readonly onLoaded: (module: string) => void = () => undefined,
  ) {
    this.started = [...modules];
  }

  /** Loads the modules named at start and warms each up. Never throws. */
  loadStarted(): void {
    for (const path of this.started) {
      const loaded = this.load(path);
      if ('judge' in loaded) warm(loaded);
    }
  }

  /** The judge for a call: by its module path when the handler names one, else by guard name among the started ones. */
  find(guard: string, module: string | undefined): GuardJudge | LoadProblem {
    if (module !== undefined) {
      const loaded = this.load(module);
      if ('judge' in loaded && loaded.guard !== guard) {
        return { module, message: `the module serves ${loaded.guard}, not ${guard}` };
      }
      return loaded;
    }
    for (const path of this.started) {
      const loaded = this.load(path);
      if ('judge' in loaded && loaded.guard === guard) return loaded;
    }
    // The guard's own module may be among those that failed: say why, so the user can act on it.
    const failed = this.started
      .map((path) => this.load(path))
      .filter((entry): entry is LoadProblem => !('judge' in entry));
    const why = failed.map((problem) => `; ${problem.module}: ${problem.message}`).join('');
    return {
      module: '(none)',
      message: `no judge module for ${guard} was named when the server started${why}`,
    };
  }

  /** Every module that could not be loaded so far. */
  problems(): LoadProblem[] {
    return [...this.byPath.values()].filter((entry): entry is LoadProblem => !('judge' in entry));
  }

  private load(path: string): GuardJudge | LoadProblem {
    const known = this.byPath.get(path);
    if (known !== undefined) return known;
    const loaded = requireJudge(path);
    this.byPath.set(path, loaded);
    if ('judge' in loaded) this.onLoaded(path);
    return loaded;
  }
}

function requireJudge(path: string): GuardJudge | LoadProblem {
  if (!isAbsolute(path)) return { module: path, message: 'a judge module is named by its absolute path' };
  let exported: unknown;
  try {
    exported = createRequire(path)(path);
  } catch (error) {
    return { module: path, message: error instanceof Error ? error.message : String(error) };
  }
  const judge = (exported as { judge?: unknown } | null)?.judge;
  if (isGuardJudge(judge)) return judge;
  return { module: path, message: 'the module exports no `judge` (a GuardJudge)' };
}

function isGuardJudge(value: unknown): value is GuardJudge {
  const candidate = value as Partial<GuardJudge> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.guard === 'string' &&
    typeof candidate.judge === 'function' &&
    typeof candidate.warmUp === 'function'
  );
}

function warm(judge: GuardJudge): void {
  try {
    judge.warmUp();
  } catch {
    // A warm-up that throws leaves the first call to load what it needs.
  }
}
