// The kit's speed benchmark: each guard installed into a scratch project with its own
// `install --project`, then the installed command spawned with real payloads, interleaved with
// the floor (bare node reading stdin) so every ratio compares runs taken under the same load.
// It reports; it never fails on a number (budgets are printed beside each class).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  defineClasses,
  guards,
  hasLoadedParser,
  installGuard,
  makeScratchProject,
  readOption,
  replaceInstalledBundle,
  verdictOf,
} from './scratch.mjs';
import { measureSegments } from './segments.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

const args = process.argv.slice(2);
const option = (name, fallback) => readOption(args, name, fallback);
const runs = Number(option('--runs', '40'));
const bundles = option('--bundles', undefined);
const out = resolve(here, '..', option('--out', 'results/latest.json'));
const quiet = args.includes('--quiet');
const log = (text) => {
  if (!quiet) process.stdout.write(`${text}\n`);
};

function timeSpawn(command, argv, input, env, cwd) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, argv, { input, env, cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, result };
}

const median = (values) => quantile(values, 0.5);
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

async function main() {
  const scratch = makeScratchProject();
  try {
    const handlers = {};
    for (const guard of guards) {
      handlers[guard] = installGuard(root, guard, scratch);
      if (bundles !== undefined) replaceInstalledBundle(handlers[guard], guard, bundles);
    }
    const codeCache = !args.includes('--no-code-cache');
    const classes = defineClasses(scratch, handlers, { codeCache });

    // One warm-up round fills the OS file cache and any code cache the bundles keep.
    const samples = new Map(classes.map((c) => [c.id, []]));
    const floorSamples = [];
    const verdicts = new Map();
    for (let round = -1; round < runs; round++) {
      for (const c of classes) {
        const floor = timeSpawn(process.execPath, [scratch.floorScript], c.input(), c.env, scratch.project);
        const hook = timeSpawn(c.handler.command, c.handler.args, c.input(), c.env, scratch.project);
        if (round < 0) {
          verdicts.set(c.id, {
            verdict: verdictOf(hook.result),
            parser: codeCache ? hasLoadedParser(c.temp) : undefined,
          });
          continue;
        }
        floorSamples.push(floor.ms);
        samples.get(c.id).push(hook.ms);
      }
    }

    const floorMedian = median(floorSamples);
    const rows = classes.map((c) => {
      const values = samples.get(c.id);
      const row = {
        class: c.id,
        verdict: verdicts.get(c.id).verdict,
        expected: c.expect,
        parserLoaded: verdicts.get(c.id).parser,
        medianMs: round2(median(values)),
        p95Ms: round2(quantile(values, 0.95)),
        ratio: round2(median(values) / floorMedian),
        budget: c.budget,
      };
      row.withinBudget = row.ratio <= c.budget;
      return row;
    });
    const segments = await measureSegments(root);
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      runs,
      floor: { medianMs: round2(floorMedian), p95Ms: round2(quantile(floorSamples, 0.95)) },
      classes: rows,
      segments,
    };
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    printTable(report);
    const wrong = rows.filter((r) => r.expected !== 'any' && r.verdict !== r.expected);
    if (wrong.length > 0) {
      // A hook that answers wrongly is measured on the wrong path: that is a broken setup, not a number.
      for (const r of wrong)
        process.stderr.write(`bench: ${r.class} answered ${r.verdict}, expected ${r.expected}\n`);
      process.exitCode = 1;
    }
    // The pre-checks' promise: these classes decide without mvdan-sh. Seen through the code cache
    // the parser's first load writes into the class's own TMPDIR.
    const parsed = classes.filter((c) => c.parser === false && verdicts.get(c.id).parser === true);
    for (const c of parsed)
      process.stderr.write(`bench: ${c.id} loaded the parser; it must decide without it\n`);
    if (parsed.length > 0) process.exitCode = 1;
  } finally {
    rmSync(scratch.base, { recursive: true, force: true });
  }
}

const round2 = (n) => Math.round(n * 100) / 100;

function printTable(report) {
  log(`node ${report.node}, ${report.runs} runs per class, interleaved with the floor`);
  log(`floor (bare node reading stdin): median ${report.floor.medianMs} ms, p95 ${report.floor.p95Ms} ms\n`);
  log('| class | verdict | parser | median ms | p95 ms | ratio | budget |');
  log('|---|---|---|---:|---:|---:|---:|');
  for (const r of report.classes) {
    const mark = r.withinBudget ? '' : ' (over)';
    const parser = r.parserLoaded === undefined ? '?' : r.parserLoaded ? 'loaded' : 'not loaded';
    log(
      `| ${r.class} | ${r.verdict} | ${parser} | ${r.medianMs} | ${r.p95Ms} | ${r.ratio}×${mark} | ${r.budget}× |`,
    );
  }
  const s = report.segments;
  log(
    `\n@kit/shell-segments, in process, ${s.corpusSize} commands: cold (load mvdan-sh + first parse) ${s.coldMs} ms; warm ${s.warmPerSecond} commands/s (${s.warmSegmentsPerSecond} segments/s)`,
  );
  log(`\nJSON: ${out}`);
}

await main();
