// A load-independent view of the same classes: instructions executed per spawn, counted by valgrind's
// callgrind (about 20x slower than a real run, so a few runs only). Wall time on a shared machine
// drifts with the load; the instruction count of one spawn barely moves.
//   node src/instructions.mjs [--runs 1] [--out results/instructions.json]
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

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => readOption(args, name, fallback);
const runs = Number(option('--runs', '1'));
const bundles = option('--bundles', undefined);
const out = resolve(here, '..', option('--out', 'results/instructions.json'));

function countInstructions(command, argv, input, env, cwd) {
  const result = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', command, ...argv],
    { input, env, cwd, encoding: 'utf8' },
  );
  const match = /Collected : (\d+)/.exec(result.stderr ?? '');
  if (match === null) throw new Error(`callgrind gave no count: ${result.error ?? result.stderr}`);
  return Number(match[1]);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

function main() {
  if (spawnSync('valgrind', ['--version']).status !== 0) throw new Error('valgrind is not on PATH');
  const scratch = makeScratchProject();
  try {
    const handlers = {};
    for (const guard of guards) {
      handlers[guard] = installGuard(root, guard, scratch);
      if (bundles !== undefined) replaceInstalledBundle(handlers[guard], guard, bundles);
    }
    const codeCache = !args.includes('--no-code-cache');
    const classes = defineClasses(scratch, handlers, { codeCache });
    const floor = [];
    const rows = [];
    for (const c of classes) {
      // A plain run first: it answers the verdict and writes any code cache the hook keeps.
      const warm = spawnSync(c.handler.command, c.handler.args, {
        input: c.input(),
        env: c.env,
        cwd: scratch.project,
        encoding: 'utf8',
      });
      const counts = [];
      for (let i = 0; i < runs; i++) {
        floor.push(
          countInstructions(process.execPath, [scratch.floorScript], c.input(), c.env, scratch.project),
        );
        counts.push(countInstructions(c.handler.command, c.handler.args, c.input(), c.env, scratch.project));
      }
      rows.push({
        class: c.id,
        verdict: verdictOf(warm),
        parserLoaded: codeCache ? hasLoadedParser(c.temp) : undefined,
        instructions: median(counts),
        budget: c.budget,
      });
    }
    const floorCount = median(floor);
    for (const row of rows) row.ratio = Math.round((row.instructions / floorCount) * 100) / 100;
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      runs,
      floor: floorCount,
      classes: rows,
    };
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`node ${report.node}, callgrind, ${runs} run(s) per class\n`);
    process.stdout.write(
      `floor (bare node reading stdin): ${(floorCount / 1e6).toFixed(1)} M instructions\n\n`,
    );
    process.stdout.write(
      '| class | verdict | parser | M instructions | ratio | budget |\n|---|---|---|---:|---:|---:|\n',
    );
    for (const r of rows) {
      const parser = r.parserLoaded === undefined ? '?' : r.parserLoaded ? 'loaded' : 'not loaded';
      process.stdout.write(
        `| ${r.class} | ${r.verdict} | ${parser} | ${(r.instructions / 1e6).toFixed(1)} | ${r.ratio}× | ${r.budget}× |\n`,
      );
    }
    process.stdout.write(`\nJSON: ${out}\n`);
  } finally {
    rmSync(scratch.base, { recursive: true, force: true });
  }
}

main();
