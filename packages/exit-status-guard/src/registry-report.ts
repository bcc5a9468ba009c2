import type { CliIO } from '@kit/gate-approval';
import { readText } from './context.ts';
import { loadRegistry, type Registry, registryLists } from './registry.ts';

function registryIn(io: CliIO): Registry {
  return loadRegistry({ env: io.env, cwd: io.cwd, readText });
}

/** doctor's registry lines: an override that cannot be read, a project file that is not an object, a dropped pattern. */
export function registryProblems(io: CliIO): string[] {
  return registryIn(io).problems.map((problem) =>
    problem.pattern === undefined
      ? `registry: ${problem.message}`
      : `registry: ${problem.source} ${problem.list}: ${JSON.stringify(problem.pattern)} ${problem.message}`,
  );
}

/** The resolved registry as text (or JSON): where it came from, how many patterns per list, what was dropped. */
export function describeRegistry(io: CliIO, json: boolean): string {
  const registry = registryIn(io);
  const counts = Object.fromEntries(registryLists.map((list) => [list, registry[list].length]));
  if (json) {
    return JSON.stringify({
      sources: registry.sources,
      counts,
      patterns: Object.fromEntries(
        registryLists.map((list) => [list, registry[list].map((regex) => regex.source)]),
      ),
      problems: registry.problems,
    });
  }
  const lines = [
    `base:    ${registry.sources.base}`,
    `project: ${registry.sources.project ?? '(none)'}${registry.sources.replaced ? ' (replace: true)' : ''}`,
    ...registryLists.map((list) => `${list.padEnd(8)} ${counts[list]} patterns`),
    ...(registry.problems.length === 0
      ? ['problems: none']
      : registry.problems.map(
          (problem) =>
            `problem: ${problem.source}${problem.list ? ` ${problem.list}` : ''}${problem.pattern !== undefined ? ` ${JSON.stringify(problem.pattern)}` : ''}: ${problem.message}`,
        )),
  ];
  return lines.join('\n');
}
