// Runs turbo's tasks one at a time, in dependency order, and prints a line as each one finishes:
// its duration and the duration it was expected to take, so a long quiet stretch of `npm test`
// always says what it is waiting on and for about how long. Each task is `turbo run <task>
// --filter=<package> --only`, so turbo's cache and per-task logs (.turbo/turbo-<task>.log, read by
// test-summary.mjs) work as before. Usage: node scripts/run-tasks.mjs <task>... [--filter=<turbo filter>]
// Expected durations: this checkout's last uncached run (.turbo/kit-task-times.json), else the
// reference table scripts/task-times.json (a run of main on the 2-core workplace machine).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const recordFile = join(root, '.turbo', 'kit-task-times.json');
const referenceFile = join(root, 'scripts', 'task-times.json');

// A table of task id to milliseconds; other keys (a note) are not durations.
const readJson = (file) =>
  Object.fromEntries(
    Object.entries(existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}).filter(
      ([, value]) => typeof value === 'number',
    ),
  );

/** The tasks turbo would run, as [{ id, dependencies }], from its dry run; placeholders dropped. */
export function plannedTasks(tasks, filters) {
  const dry = spawnSync('turbo', ['run', ...tasks, ...filters, '--dry=json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (dry.status !== 0) throw new Error(`turbo --dry=json failed:\n${dry.stderr}`);
  const plan = JSON.parse(dry.stdout.slice(dry.stdout.indexOf('{')));
  return plan.tasks.map((task) => ({
    id: task.taskId,
    runs: task.command !== '<NONEXISTENT>',
    dependencies: task.dependencies,
  }));
}

/** Kahn's order, ties broken by name so that two runs list the tasks the same way. */
export function dependencyOrder(tasks) {
  const known = new Set(tasks.map((task) => task.id));
  const waiting = new Map(tasks.map((task) => [task.id, task.dependencies.filter((id) => known.has(id))]));
  const order = [];
  while (waiting.size > 0) {
    const ready = [...waiting]
      .filter(([, dependencies]) => dependencies.every((id) => !waiting.has(id)))
      .map(([id]) => id)
      .sort();
    if (ready.length === 0) throw new Error(`a dependency cycle among ${[...waiting.keys()]}`);
    for (const id of ready) {
      order.push(tasks.find((task) => task.id === id));
      waiting.delete(id);
    }
  }
  return order;
}

/** "4m 05s", "12s". */
export function clock(ms) {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

/** One finished task's line. */
export function finishedLine({ index, total, id, outcome, ms, expectedMs, cached }) {
  const expected = expectedMs === undefined ? 'no expected time yet' : `expected ~${clock(expectedMs)}`;
  const took = cached ? `${clock(ms)}, cached` : clock(ms);
  return `kit: [${index}/${total}] ${outcome} ${id}  ${took} (${expected})`;
}

function runOne(task) {
  const hash = task.id.lastIndexOf('#');
  const [name, script] = [task.id.slice(0, hash), task.id.slice(hash + 1)];
  const started = Date.now();
  const result = spawnSync(
    'turbo',
    ['run', script, `--filter=${name}`, '--only', '--output-logs=errors-only', '--log-order=grouped'],
    { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  const cached = /Cached:\s+(\d+) cached, \1 total/.test(output);
  return { ok: result.status === 0, ms: Date.now() - started, cached, output };
}

function main(argv) {
  const filters = argv.filter((arg) => arg.startsWith('--filter'));
  const tasks = argv.filter((arg) => !arg.startsWith('--'));
  const order = dependencyOrder(plannedTasks(tasks, filters));
  const total = order.filter((task) => task.runs).length;
  const reference = readJson(referenceFile);
  const record = readJson(recordFile);
  const failed = new Set();
  let index = 0;
  for (const task of order) {
    // A failed task fails what depends on it, through turbo's placeholder tasks too.
    const blocked = task.dependencies.find((id) => failed.has(id));
    if (blocked !== undefined) failed.add(task.id);
    if (!task.runs) continue;
    index += 1;
    if (blocked !== undefined) {
      process.stdout.write(`kit: [${index}/${total}] skipped ${task.id}  (${blocked} failed)\n`);
      continue;
    }
    const expectedMs = record[task.id] ?? reference[task.id];
    // A task expected to take over a minute says so as it starts, so the wait has a name.
    if (expectedMs !== undefined && expectedMs > 60_000)
      process.stdout.write(`kit: [${index}/${total}] running ${task.id}  (expected ~${clock(expectedMs)})\n`);
    const { ok, ms, cached, output } = runOne(task);
    if (!ok) {
      failed.add(task.id);
      process.stdout.write(output);
    }
    if (ok && !cached) record[task.id] = ms;
    const outcome = ok ? 'done' : 'FAILED';
    process.stdout.write(`${finishedLine({ index, total, id: task.id, outcome, ms, expectedMs, cached })}\n`);
  }
  mkdirSync(join(root, '.turbo'), { recursive: true });
  writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);
  return failed.size === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
