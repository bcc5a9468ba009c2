import { readTextFile } from '@kit/fail-open';
import type { CliIO } from '@kit/gate-approval';
import { loadRegistry, type Registry, registryLists } from './registry.ts';

function registryIn(io: CliIO): Registry {
  return loadRegistry({ env: io.env, cwd: io.cwd, readText: readTextFile });
}

/** doctor's registry lines: an override that cannot be read, a project file that is not an object, a dropped pattern. */
export function registryProblems(io: CliIO): string[] {
  return registryIn(io).problems.map((problem) =>
    problem.pattern === undefined
      ? `registry: ${problem.message}`
      : `registry: ${problem.source} ${problem.list}: ${JSON.stringify(problem.pattern)} ${problem.message}`,
  );
}

function countsOf(registry: Registry): Record<string, number> {
  return Object.fromEntries(registryLists.map((list) => [list, registry[list].length]));
}

/** The resolved registry as JSON: its sources, the count and the patterns of each list, every problem. */
export function describeRegistryJson(io: CliIO): string {
  const registry = registryIn(io);
  return JSON.stringify({
    sources: registry.sources,
    counts: countsOf(registry),
    patterns: Object.fromEntries(
      registryLists.map((list) => [list, registry[list].map((regex) => regex.source)]),
    ),
    problems: registry.problems,
  });
}

/** The resolved registry as text: where it came from, how many patterns per list, what was dropped. */
export function describeRegistry(io: CliIO): string {
  const registry = registryIn(io);
  const counts = countsOf(registry);
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
