// The MCP judge's classes of `pnpm bench` (issue 25): its memory (one judge, three guards, 10,000
// calls from the corpus: corpus/bench/) and its cost per Bash call in the real Claude Code CLI, quiet
// and under the spec's load (e2e/host-bench/; it says it skipped, and why, when the CLI of e2e/ is not
// installed). Each class prints its budget as met or not met and writes its JSON to results/; a class
// fails this script only when it could not measure, never on a number.
// --smoke: a short run of each. --only memory|host: one class.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

const classes = [
  {
    name: 'memory',
    filter: '@kit/corpus',
    script: 'judge-memory',
    env: smoke
      ? { KIT_MEMORY_BENCH_CALLS: '2000', KIT_MEMORY_BENCH_OUT: 'results/judge-memory-smoke.json' }
      : {},
  },
  {
    name: 'host',
    filter: '@kit/e2e',
    script: 'host-bench',
    env: smoke
      ? {
          KIT_HOST_BENCH_ROUNDS: '1',
          KIT_HOST_BENCH_CALLS: '3',
          KIT_HOST_BENCH_OUT: 'results/host-latency-smoke.json',
        }
      : {},
  },
];

for (const c of classes) {
  if (only !== undefined && c.name !== only) continue;
  process.stdout.write(`\nbench: the judge's ${c.name} class (pnpm --filter ${c.filter} ${c.script})\n`);
  const run = spawnSync('pnpm', ['--filter', c.filter, c.script], {
    stdio: 'inherit',
    env: { ...process.env, ...c.env },
  });
  if (run.status !== 0) {
    process.stderr.write(
      `bench: the judge's ${c.name} class could not measure (exit ${run.status ?? run.signal})\n`,
    );
    process.exitCode = 1;
  }
}
