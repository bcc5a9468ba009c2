// A load-independent view of the same classes: instructions executed per spawn, counted by valgrind's
// callgrind (about 20x slower than a real run, so a few runs only). Wall time on a shared machine
// drifts with the load; the instruction count of one spawn barely moves. Each kit class is counted
// with its verdict server (started and warmed outside callgrind: the count is the client's alone,
// the process the host spawns, which reads the payload, asks the server and writes its reply; the
// server's own work runs outside callgrind) and with KIT_HOOKS_SERVER=off (all of it in process).
//   node src/instructions.mjs [--node 24] [--runs 1] [--no-peer] [--out results/instructions.json]
// --node picks the binary the floor and the hooks run under: this machine's node by default, any
// other major from the same npm cache run.mjs uses (--node-cache DIR).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultCacheDir, installPeer, nodeDirOf, parseMajors, resolveNodes } from './nodes.mjs';
import {
  bashPayload,
  benchEnv,
  budgets,
  commandLabel,
  defineClasses,
  guards,
  installGuard,
  makeScratchProject,
  readOption,
  replaceInstalledBundle,
  spawnArgsFor,
  stopServers,
  traceLinesFrom,
  traceSize,
  verdictOf,
  waitForServer,
} from './scratch.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => readOption(args, name, fallback);
const runs = Number(option('--runs', '1'));
const major = parseMajors(option('--node', process.versions.node.split('.')[0]))[0];
const callerDir = process.env.INIT_CWD || process.cwd();
const cacheDir = resolve(callerDir, option('--node-cache', defaultCacheDir()));
const bundles = option('--bundles', undefined);
const out = resolve(here, '..', option('--out', 'results/instructions.json'));
const say = (text) => process.stderr.write(`${text}\n`);

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
  const [node] = resolveNodes([major], cacheDir, say);
  if (node.skipped !== undefined) throw new Error(`Node ${major}: ${node.skipped}`);
  const peer = args.includes('--no-peer') ? { skipped: '--no-peer' } : installPeer(cacheDir, say);
  if (peer.skipped !== undefined) say(`instructions: cc-safety-net skipped: ${peer.skipped}`);
  const codeCache = !args.includes('--no-code-cache');
  const scratch = makeScratchProject();
  try {
    const handlers = {};
    for (const guard of guards) {
      handlers[guard] = installGuard(root, guard, scratch);
      if (bundles !== undefined) replaceInstalledBundle(handlers[guard], guard, resolve(callerDir, bundles));
    }
    const rows = defineClasses(scratch).map((c) => ({ ...c, kind: 'kit', handler: handlers[c.guard] }));
    if (peer.handler !== undefined) {
      for (const command of new Set(rows.filter((r) => r.command !== undefined).map((r) => r.command))) {
        rows.push({
          id: `${peer.name}: ${commandLabel(command)}`,
          kind: 'peer',
          handler: peer.handler,
          input: () => bashPayload(scratch, command),
        });
      }
    }
    const nodeDir = nodeDirOf(node.binary);
    const floor = [];
    const results = [];
    rows.forEach((row, index) => {
      for (const mode of row.kind === 'kit' ? ['server', 'off'] : ['peer']) {
        const temp = join(scratch.temp, `${index}${mode[0]}`);
        const trace = join(scratch.base, `trace-${index}${mode[0]}.jsonl`);
        const env = benchEnv(scratch, temp, { codeCache, nodeDir, trace, server: mode !== 'off' });
        const spawn = spawnArgsFor(row.handler, node.binary);
        const call = () =>
          spawnSync(spawn.command, spawn.args, {
            input: row.input(),
            env,
            cwd: scratch.project,
            encoding: 'utf8',
          });
        // A plain run first: it answers the verdict, writes any code cache the hook keeps and, with
        // the server on, starts the server, which is then waited for (outside callgrind).
        const warm = call();
        const ready = mode === 'server' ? waitForServer(call, trace).answered : undefined;
        const from = traceSize(trace);
        const counts = [];
        for (let i = 0; i < runs; i++) {
          floor.push(
            countInstructions(node.binary, [scratch.floorScript], row.input(), env, scratch.project),
          );
          counts.push(countInstructions(spawn.command, spawn.args, row.input(), env, scratch.project));
        }
        // Which path answered the counted calls: a client slowed 20x by callgrind may pass the
        // front's reply bound and answer in process (then the count is of that path).
        const lines = traceLinesFrom(trace, from);
        const paths = {};
        for (const line of lines) {
          const key = line.path === 'in-process' && line.server ? `in-process (${line.server})` : line.path;
          if (key !== undefined) paths[key] = (paths[key] ?? 0) + 1;
        }
        results.push({
          class: row.id,
          kind: row.kind,
          mode,
          verdict: verdictOf(warm),
          parserLoaded:
            row.kind === 'kit'
              ? lines.some((line) => line.parser === true)
                ? true
                : lines.some((line) => line.parser === false)
                  ? false
                  : undefined
              : undefined,
          ...(ready === undefined ? {} : { serverReady: ready }),
          paths,
          instructions: median(counts),
          budget: row.kind === 'kit' ? budgets.class : undefined,
        });
      }
    });
    stopServers(scratch);
    const floorCount = median(floor);
    for (const r of results) r.ratio = Math.round((r.instructions / floorCount) * 100) / 100;
    const report = {
      date: new Date().toISOString(),
      node: node.version,
      source: node.source,
      runs,
      floor: floorCount,
      classes: results,
    };
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`node ${report.node} (${node.source}), callgrind, ${runs} run(s) per class\n`);
    process.stdout.write(
      `floor (bare node reading stdin): ${(floorCount / 1e6).toFixed(1)} M instructions\n\n`,
    );
    process.stdout.write(
      '| class | mode | verdict | parser | path | M instructions | ratio | budget |\n|---|---|---|---|---|---:|---:|---:|\n',
    );
    for (const r of results) {
      const parser = r.parserLoaded === undefined ? '—' : r.parserLoaded ? 'needed' : 'not needed';
      const budget = r.budget === undefined ? '—' : `${r.budget}×`;
      const paths =
        Object.entries(r.paths)
          .map(([path, n]) => `${path} ${n}`)
          .join(', ') || '—';
      const mode = { server: 'server (client only)', off: 'server off', peer: '—' }[r.mode];
      process.stdout.write(
        `| ${r.class.replaceAll('|', '\\|')} | ${mode} | ${r.verdict} | ${parser} | ${paths} | ${(r.instructions / 1e6).toFixed(1)} | ${r.ratio}× | ${budget} |\n`,
      );
    }
    process.stdout.write(`\nJSON: ${out}\n`);
  } finally {
    stopServers(scratch);
    rmSync(scratch.base, { recursive: true, force: true });
  }
}

main();
