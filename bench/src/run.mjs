// The kit's speed benchmark: each guard installed into a scratch project with its own
// `install --project`, then the installed handler spawned with real payloads under each node
// binary measured (this machine's, and Node 24, 22 and 26 from npm), interleaved with that binary's
// own floor (bare node reading stdin) so every ratio compares runs taken under the same load. The
// peer guard (cc-safety-net) runs on the same Bash payloads, and a fixed sample of real agent
// commands gives the mean cost per Bash call. It reports; it never fails on a number (budgets are
// printed beside each class).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  defaultCacheDir,
  defaultMajors,
  installPeer,
  nodeDirOf,
  parseMajors,
  resolveNodes,
} from './nodes.mjs';
import { sampleRealCommands } from './real-commands.mjs';
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
  readTrace,
  replaceInstalledBundle,
  serverPids,
  spawnArgsFor,
  stopServers,
  traceLinesFrom,
  traceSize,
  verdictOf,
  waitForServer,
} from './scratch.mjs';
import { measureSegments } from './segments.mjs';
import { measureServerMemory } from './server-memory.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

const args = process.argv.slice(2);
const option = (name, fallback) => readOption(args, name, fallback);
// The smoke run (CI, `pnpm --filter @kit/bench test`): this machine's node and Node 24, a short corpus.
const smoke = args.includes('--smoke');
const runs = Number(option('--runs', smoke ? '1' : '40'));
const thisMajor = Number(process.versions.node.split('.')[0]);
const majors = parseMajors(option('--node', (smoke ? [24, thisMajor] : defaultMajors).join(',')));
// Paths given on the command line are read from where the command was typed: under `pnpm bench`
// this script runs in bench/, and pnpm names the caller's folder in INIT_CWD.
const callerDir = process.env.INIT_CWD || process.cwd();
const cacheDir = resolve(callerDir, option('--node-cache', defaultCacheDir()));
const corpusFile = resolve(callerDir, option('--corpus', join(root, 'corpus/agent-commands.jsonl')));
const corpusSize = Number(option('--corpus-size', smoke ? '10' : '120'));
// Each command's time is the median of its runs, each run paired with a floor spawn: one spike on a
// loaded machine moves a mean of single calls by more than the budget's margin (1.19× once, against
// 1.06× published, with the guard's own judging 0.5 ms of a 33 ms call).
const corpusRuns = Number(option('--corpus-runs', smoke ? '1' : '3'));
const bundles = option('--bundles', undefined);
const bundleDir = bundles === undefined ? undefined : resolve(callerDir, bundles);
const out = resolve(here, '..', option('--out', 'results/latest.json'));
const quiet = args.includes('--quiet');
const codeCache = !args.includes('--no-code-cache');
const tracing = !args.includes('--no-trace');
const withPeer = !args.includes('--no-peer');
const log = (text) => {
  if (!quiet) process.stdout.write(`${text}\n`);
};
const say = (text) => process.stderr.write(`${text}\n`);

function timeSpawn(command, argv, input, env, cwd) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, argv, { input, env, cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, result };
}

const median = (values) => quantile(values, 0.5);
function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}
const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
const round2 = (n) => Math.round(n * 100) / 100;
/** Lets a pending SIGINT or SIGTERM handler run between the synchronous spawns. */
const yieldToSignals = () => new Promise((resolve) => setImmediate(resolve));
/** A table cell's text with its pipes escaped, so `make test | tail -5` stays one Markdown cell. */
const md = (text) => String(text).replaceAll('|', '\\|');

/**
 * One row measured under one node in one mode: its own TMPDIR (so a verdict server it starts, and
 * what it leaves there, are its own) and trace file, the argv that runs the handler under that node,
 * and its samples. `mode` is `server` (the verdict server on: the warm path a user gets after the
 * first call), `off` (KIT_HOOKS_SERVER=off: every call in process, what the first call pays), or
 * `peer` (cc-safety-net, which has no server). The server wait calls with a trace file of its own.
 */
function makeCell(scratch, node, key, handler, mode) {
  // Short, as a user's would be (the verdict server's mailbox, TMPDIR/kit-hooks-<uid>/<key>.box, has
  // no length limit since the socket went).
  const temp = join(scratch.temp, `${node.major}${key}${mode[0]}`);
  const traceDir = join(scratch.base, 'trace', `node-${node.major}`);
  mkdirSync(traceDir, { recursive: true });
  const trace = tracing ? join(traceDir, `${key}-${mode}.jsonl`) : undefined;
  const options = { codeCache, nodeDir: nodeDirOf(node.binary), server: mode !== 'off' };
  const env = benchEnv(scratch, temp, { ...options, trace });
  const waitTrace = join(traceDir, `${key}-${mode}.wait.jsonl`);
  const waitEnv = benchEnv(scratch, temp, { ...options, trace: waitTrace });
  return {
    mode,
    temp,
    trace,
    env,
    waitTrace,
    waitEnv,
    spawn: spawnArgsFor(handler, node.binary),
    samples: [],
    verdicts: {},
  };
}

/** The modes a row is measured in: a kit class with its verdict server and without; the peer as it is. */
const modesOf = (row) => (row.kind === 'kit' ? ['server', 'off'] : ['peer']);

/** Counts one verdict in a cell, and keeps the first stderr of an unexpected answer. */
function noteVerdict(cell, result) {
  const verdict = verdictOf(result);
  cell.verdicts[verdict] = (cell.verdicts[verdict] ?? 0) + 1;
  if (verdict.startsWith('other') && cell.stderr === undefined) cell.stderr = result.stderr.slice(0, 400);
}

/** A cell's verdict: the one it always answered, else every one it gave with its count. */
function verdictText(cell) {
  const seen = Object.keys(cell.verdicts);
  if (seen.length === 1) return seen[0];
  return `mixed(${seen.map((v) => `${v} ${cell.verdicts[v]}`).join(', ')})`;
}

/**
 * Waits, for each verdict-server cell, until its hook is answered by the server (bounded): the
 * first call started one, which takes a few hundred ms to warm. Says which did not get there.
 */
function warmServers(cells, scratch, input) {
  let waited = 0;
  for (const cell of cells) {
    if (cell.mode !== 'server') continue;
    const call = () =>
      spawnSync(cell.spawn.command, cell.spawn.args, {
        input: input(),
        env: cell.waitEnv,
        cwd: scratch.project,
        encoding: 'utf8',
      });
    const outcome = waitForServer(call, cell.waitTrace, serverWaitMs);
    waited += outcome.calls;
    cell.serverReady = outcome.answered;
    if (!outcome.answered)
      say(`bench: ${cell.label}: no answer from its verdict server within ${serverWaitMs} ms`);
  }
  return waited;
}

// How long the bench waits for a class's verdict server to answer before it times that class anyway.
const serverWaitMs = 5000;

async function main() {
  const resolved = resolveNodes(majors, cacheDir, say);
  const nodes = resolved.filter((n) => n.skipped === undefined);
  for (const n of resolved.filter((n) => n.skipped !== undefined)) {
    say(`bench: Node ${n.major} skipped: ${n.skipped}`);
  }
  if (nodes.length === 0) throw new Error('no node to measure');
  const peer = withPeer ? installPeer(cacheDir, say) : { skipped: '--no-peer' };
  if (peer.skipped !== undefined) say(`bench: the peer cc-safety-net skipped: ${peer.skipped}`);

  const scratch = makeScratchProject();
  // A run stopped by hand still ends its verdict servers and removes its scratch project: the
  // loops below yield to the event loop after each row, where this handler runs.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      stopServers(scratch);
      rmSync(scratch.base, { recursive: true, force: true });
      process.exit(130);
    });
  }
  try {
    const handlers = {};
    for (const guard of guards) {
      handlers[guard] = installGuard(root, guard, scratch);
      if (bundleDir !== undefined) replaceInstalledBundle(handlers[guard], guard, bundleDir);
    }

    // The rows: every kit class, then the peer on each distinct Bash payload the classes use.
    const rows = defineClasses(scratch).map((c) => ({ ...c, kind: 'kit', handler: handlers[c.guard] }));
    if (peer.handler !== undefined) {
      const commands = [...new Set(rows.filter((r) => r.command !== undefined).map((r) => r.command))];
      for (const command of commands) {
        rows.push({
          id: `${peer.name}: ${commandLabel(command)}`,
          guard: peer.name,
          kind: 'peer',
          command,
          expect: 'any',
          handler: peer.handler,
          input: () => bashPayload(scratch, command),
        });
      }
    }
    rows.forEach((row, index) => {
      row.cells = new Map();
      for (const node of nodes) {
        for (const mode of modesOf(row)) {
          const cell = makeCell(scratch, node, `r${index}`, row.handler, mode);
          cell.label = `Node ${node.major}: ${row.id}`;
          row.cells.set(`${node.major}:${mode}`, cell);
        }
      }
    });
    const cellOf = (row, node, mode) => row.cells.get(`${node.major}:${mode}`);
    const floorSamples = new Map(nodes.map((n) => [n.major, []]));
    const floorEnv = new Map(
      nodes.map((n) => [
        n.major,
        benchEnv(scratch, join(scratch.temp, `node-${n.major}`, 'floor'), { nodeDir: nodeDirOf(n.binary) }),
      ]),
    );
    const floorOf = (node, input) =>
      timeSpawn(node.binary, [scratch.floorScript], input, floorEnv.get(node.major), scratch.project);

    // One warm-up round first: it fills the OS file cache and any code cache the bundles keep, and
    // its server-mode calls start each class's verdict server. Then, before any timed call, each
    // server-mode class is called until its server answers. Then the timed rounds, interleaved: for
    // each row, each node's floor then that node's hook in each mode, so every number sees the same load.
    const started = Date.now();
    const loadBefore = loadavg();
    for (let round = -1; round < runs; round++) {
      for (const row of rows) {
        for (const node of nodes) {
          const input = row.input();
          const floor = floorOf(node, input);
          if (round >= 0) floorSamples.get(node.major).push(floor.ms);
          for (const mode of modesOf(row)) {
            const cell = cellOf(row, node, mode);
            const hook = timeSpawn(cell.spawn.command, cell.spawn.args, input, cell.env, scratch.project);
            noteVerdict(cell, hook.result);
            if (round >= 0) cell.samples.push(hook.ms);
          }
        }
        await yieldToSignals();
      }
      if (round === -1) {
        const all = rows.flatMap((row) => [...row.cells.values()]);
        const calls = warmServersOfRows(rows, scratch);
        // The path column counts the timed rounds only: the warm-up's lines (the first call, in
        // process) are dropped.
        for (const cell of all) if (cell.trace !== undefined) writeFileSync(cell.trace, '');
        say(
          `bench: warm-up round done in ${((Date.now() - started) / 1000).toFixed(0)} s (${calls} calls until every verdict server answered)`,
        );
      }
    }
    const loadAfterClasses = loadavg();
    const classServers = stopServers(scratch);

    const sample = sampleRealCommands(corpusFile, corpusSize);
    if (sample.skipped !== undefined) say(`bench: corpus mean skipped: ${sample.skipped}`);
    const corpus =
      sample.skipped === undefined
        ? await measureCorpus(scratch, nodes, handlers, peer, sample, floorOf)
        : undefined;
    const loadAfter = loadavg();
    const corpusServers = stopServers(scratch);
    const serversLeft = serverPids(scratch).length;
    if (serversLeft > 0)
      say(`bench: ${serversLeft} verdict server(s) still running after the bench stopped them`);

    const segments = await measureSegments(root);
    // The verdict server's resident set after its first call and after 10,000 more (issue 23).
    const serverMemory = measureServerMemory(
      join(root, 'packages/exit-status-guard/dist/hook.cjs'),
      smoke ? 200 : 10_000,
    );
    const report = {
      date: new Date().toISOString(),
      runs,
      smoke,
      machine: {
        cpus: cpus().length,
        model: cpus()[0]?.model,
        loadAverage: {
          before: loadBefore.map(round2),
          afterClasses: loadAfterClasses.map(round2),
          after: loadAfter.map(round2),
        },
        benchNode: process.version,
      },
      budgets: { ...budgets, peer: 'no class slower than the peer on the same payload', on: 'Node 24' },
      servers: { classes: classServers, corpus: corpusServers, leftRunning: serversLeft },
      peer:
        peer.handler === undefined
          ? { name: 'cc-safety-net', skipped: peer.skipped }
          : { name: peer.name, version: peer.version, handler: handlerText(peer.handler) },
      corpusSample:
        sample.skipped === undefined
          ? {
              file: sample.file,
              total: sample.total,
              sampled: sample.sample.length,
              step: sample.step,
              unreadable: sample.unreadable,
              runs: corpusRuns,
            }
          : { file: sample.file, skipped: sample.skipped },
      skippedNodes: resolved.filter((n) => n.skipped !== undefined),
      nodes: nodes.map((node) =>
        nodeReport(node, rows, cellOf, floorSamples.get(node.major), corpus?.get(node.major)),
      ),
      segments,
      serverMemory,
    };
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    printReport(report);

    for (const n of report.nodes) {
      for (const r of n.classes) {
        for (const [mode, verdict] of [
          ['server', r.verdict],
          ['off', r.off.verdict],
        ]) {
          if (r.expected !== 'any' && verdict !== r.expected) {
            // A hook that answers wrongly is measured on the wrong path: a broken setup, not a number.
            process.stderr.write(
              `bench: Node ${n.major}: ${r.class} (${mode}) answered ${verdict}, expected ${r.expected}\n`,
            );
            if (r.stderr) process.stderr.write(`  its stderr: ${r.stderr}\n`);
            process.exitCode = 1;
          }
        }
        // The pre-checks' promise: these classes decide without mvdan-sh, wherever they are
        // answered. Seen in the trace's `parser` note, in process and in the server alike.
        if (r.mustNotParse && r.parserLoaded === true) {
          process.stderr.write(
            `bench: Node ${n.major}: ${r.class} went to the parser; it must decide without it\n`,
          );
          process.exitCode = 1;
        }
      }
    }
    if (serversLeft > 0) process.exitCode = 1;
  } finally {
    stopServers(scratch);
    rmSync(scratch.base, { recursive: true, force: true });
  }
}

/** warmServers over every row's server cells, each with its own row's payload. */
function warmServersOfRows(rows, scratch) {
  let calls = 0;
  for (const row of rows) {
    calls += warmServers([...row.cells.values()], scratch, row.input);
  }
  return calls;
}

/** Whether any trace line says the call went to the parser: true, false, or undefined (no note). */
function parserOf(lines) {
  if (lines.some((line) => line.parser === true)) return true;
  if (lines.some((line) => line.parser === false)) return false;
  return undefined;
}

/**
 * The corpus mean: each sampled command sent to each Bash guard, with its verdict server and with
 * the server off, and to the peer, under each node, each call paired with a floor spawn of that
 * node. Each server-mode guard is first called until its server answers. Whether a call went to
 * the parser is its trace line's `parser` note.
 */
async function measureCorpus(scratch, nodes, handlers, peer, sample, floorOf) {
  const bashGuards = guards.filter((g) => g !== 'roseline-gate');
  const subjects = bashGuards.flatMap((g) =>
    ['server', 'off'].map((mode) => ({ guard: g, kind: 'kit', mode, handler: handlers[g] })),
  );
  if (peer.handler !== undefined)
    subjects.push({ guard: peer.name, kind: 'peer', mode: 'peer', handler: peer.handler });
  const byNode = new Map();
  for (const node of nodes) {
    const floors = [];
    const cells = subjects.map((s, index) => ({
      ...s,
      ...makeCell(scratch, node, `c${index}`, s.handler, s.mode),
      label: `Node ${node.major}: corpus, ${s.guard} (${s.mode})`,
      parsed: 0,
      noted: 0,
      perCommand: [],
      perCommandRatio: [],
      commands: [],
    }));
    warmServers(cells, scratch, () => bashPayload(scratch, 'git status --short'));
    byNode.set(node.major, { floors, cells });
  }
  const started = Date.now();
  for (const [at, command] of sample.sample.entries()) {
    for (const node of nodes) {
      const { floors, cells } = byNode.get(node.major);
      for (const cell of cells) {
        const times = [];
        const paired = [];
        const from = cell.trace === undefined ? 0 : traceSize(cell.trace);
        for (let i = 0; i < corpusRuns; i++) {
          const input = bashPayload(scratch, command);
          paired.push(floorOf(node, input).ms);
          const hook = timeSpawn(cell.spawn.command, cell.spawn.args, input, cell.env, scratch.project);
          noteVerdict(cell, hook.result);
          times.push(hook.ms);
        }
        if (cell.kind === 'kit' && cell.trace !== undefined) {
          const parsed = parserOf(traceLinesFrom(cell.trace, from));
          if (parsed !== undefined) cell.noted++;
          if (parsed === true) cell.parsed++;
        }
        floors.push(...paired);
        cell.samples.push(...times);
        cell.perCommand.push(median(times));
        // Over the floor spawns paired with this command's calls: load that drifts during the phase
        // moves both alike, where a ratio to the whole phase's floor would carry the drift.
        cell.perCommandRatio.push(median(times) / median(paired));
        cell.commands.push(command);
      }
    }
    await yieldToSignals();
    if ((at + 1) % 20 === 0)
      say(
        `bench: corpus ${at + 1}/${sample.sample.length} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
      );
  }
  return byNode;
}

function handlerText(handler) {
  return [handler.command, ...handler.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ');
}

/** One cell's numbers against its node's floor: median, p95, ratio, verdict, and its trace. */
function cellReport(cell, floorMedian) {
  const values = cell.samples;
  const trace = cell.trace === undefined ? undefined : readTrace(cell.trace);
  return {
    verdict: verdictText(cell),
    medianMs: round2(median(values)),
    p95Ms: round2(quantile(values, 0.95)),
    ratio: round2(median(values) / floorMedian),
    ...(cell.serverReady === undefined ? {} : { serverReady: cell.serverReady }),
    ...(trace === undefined ? {} : { trace }),
  };
}

// A trace's parser notes as the column says: true when any call went to the parser.
const parserOfTrace = (trace) => {
  if (trace === undefined) return undefined;
  if ((trace.parsers.true ?? 0) > 0) return true;
  if ((trace.parsers.false ?? 0) > 0) return false;
  return undefined;
};

/**
 * One node's rows: each kit class with the verdict server (the top-level numbers: what users get
 * after the first call) and with it off (`off`), each against the node's floor; then the peer's.
 */
function nodeReport(node, rows, cellOf, floorValues, corpus) {
  const floorMedian = median(floorValues);
  const measured = rows.map((row) => {
    const main = cellOf(row, node, row.kind === 'kit' ? 'server' : 'peer');
    const first = cellReport(main, floorMedian);
    const off = row.kind === 'kit' ? cellReport(cellOf(row, node, 'off'), floorMedian) : undefined;
    const parser = row.kind === 'kit' ? (parserOfTrace(first.trace) ?? parserOfTrace(off?.trace)) : undefined;
    return {
      class: row.id,
      guard: row.guard,
      kind: row.kind,
      ...(row.command === undefined ? {} : { command: row.command }),
      handler: handlerText(row.handler),
      spawned: handlerText({ command: main.spawn.command, args: main.spawn.args }),
      expected: row.expect,
      ...(main.stderr === undefined ? {} : { stderr: main.stderr }),
      parserLoaded: parser,
      mustNotParse: row.parser === false,
      ...first,
      ...(off === undefined ? {} : { off }),
    };
  });
  const peerByCommand = new Map(measured.filter((r) => r.kind === 'peer').map((r) => [r.command, r]));
  const classes = measured.filter((r) => r.kind === 'kit');
  for (const r of classes) {
    r.budget = budgets.class;
    r.withinBudget = r.ratio <= budgets.class;
    r.off.withinBudget = r.off.ratio <= budgets.class;
    const p = r.command === undefined ? undefined : peerByCommand.get(r.command);
    if (p !== undefined) {
      r.peerMedianMs = p.medianMs;
      r.vsPeer = round2(r.medianMs / p.medianMs);
      r.fasterThanPeer = r.medianMs <= p.medianMs;
      r.off.vsPeer = round2(r.off.medianMs / p.medianMs);
      r.off.fasterThanPeer = r.off.medianMs <= p.medianMs;
    }
  }
  return {
    major: node.major,
    version: node.version,
    source: node.source,
    binary: node.binary,
    floor: {
      medianMs: round2(floorMedian),
      p95Ms: round2(quantile(floorValues, 0.95)),
      samples: floorValues.length,
    },
    classes,
    peer: measured.filter((r) => r.kind === 'peer'),
    corpus: corpus === undefined ? undefined : corpusReport(corpus),
  };
}

function corpusReport({ floors, cells }) {
  const floorMedian = median(floors);
  return {
    floor: { medianMs: round2(floorMedian), samples: floors.length },
    guards: cells.map((cell) => {
      const meanMs = mean(cell.perCommand);
      const medianMs = median(cell.perCommand);
      const row = {
        guard: cell.guard,
        kind: cell.kind,
        mode: cell.mode,
        calls: cell.perCommand.length,
        meanMs: round2(meanMs),
        medianMs: round2(medianMs),
        // Each command's time over its own paired floor spawns, then the mean (median) over the sample.
        meanRatio: round2(mean(cell.perCommandRatio)),
        medianRatio: round2(median(cell.perCommandRatio)),
        // The same times over the whole phase's floor median (the ratio before the pairing).
        phaseFloorRatio: { mean: round2(meanMs / floorMedian), median: round2(medianMs / floorMedian) },
        verdicts: cell.verdicts,
        // The commands whose calls took longest: where to look when a mean moves.
        costliest: cell.perCommand
          .map((ms, i) => ({ ms: round2(ms), command: cell.commands[i] }))
          .sort((a, b) => b.ms - a.ms)
          .slice(0, 5),
        ...(cell.serverReady === undefined ? {} : { serverReady: cell.serverReady }),
        ...(cell.trace === undefined ? {} : { trace: readTrace(cell.trace) }),
      };
      if (cell.kind === 'kit') {
        // The share of sampled commands whose call went to the parser (its trace line's note).
        row.parserShare = cell.noted === 0 ? undefined : round2(cell.parsed / cell.perCommand.length);
        row.budget = budgets.corpusMean;
        row.withinBudget = row.meanRatio <= budgets.corpusMean;
      }
      return row;
    }),
  };
}

/** Which path answered, with counts (`server 20`, `in-process 2 (busy 2)`), and any fail-open cause. */
const pathsText = (trace) => {
  const paths = Object.entries(trace?.paths ?? {});
  const servers = Object.entries(trace?.servers ?? {});
  const causes = Object.keys(trace?.causes ?? {});
  let text = paths.length === 0 ? '—' : paths.map(([path, n]) => `${path} ${n}`).join(', ');
  if (servers.length > 0) text += ` (${servers.map(([why, n]) => `${why} ${n}`).join(', ')})`;
  return causes.length === 0 ? text : `${text} (fail-open: ${causes.join(', ')})`;
};

const modeLabel = { server: 'server', off: 'server off', peer: '' };

function printReport(report) {
  const m = report.machine;
  log(
    `${report.runs} timed rounds per row after one warm-up, interleaved with each node's floor; ${m.cpus} cores; load average ${m.loadAverage.before[0]} before, ${m.loadAverage.afterClasses[0]} after the classes, ${m.loadAverage.after[0]} after the corpus`,
  );
  log(
    `verdict servers: ${report.servers.classes} for the classes, ${report.servers.corpus} for the corpus, all stopped (${report.servers.leftRunning} left running)`,
  );
  if (report.peer.skipped !== undefined) log(`peer: cc-safety-net skipped (${report.peer.skipped})`);
  else log(`peer: ${report.peer.name}@${report.peer.version}, run as \`${report.peer.handler}\``);
  const c = report.corpusSample;
  log(
    c.skipped === undefined
      ? `corpus: ${c.sampled} of ${c.total} commands in ${c.file} (${c.step === 1 ? 'all of them' : `one line in ${c.step}`}), ${c.runs} timed call(s) each`
      : `corpus: skipped (${c.skipped})`,
  );
  for (const s of report.skippedNodes) log(`Node ${s.major}: skipped (${s.skipped})`);
  for (const n of report.nodes) {
    log(`\n### Node ${n.version} (${n.source})\n`);
    log(`floor (bare node reading stdin): median ${n.floor.medianMs} ms, p95 ${n.floor.p95Ms} ms\n`);
    log(
      '| class | verdict | parser | path | median ms | p95 ms | ratio | server off: ms | ratio | budget | peer ms | vs peer |',
    );
    log('|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of n.classes) {
      const over = (within) => (within ? '' : ' (over)');
      const parser = r.parserLoaded === undefined ? '—' : r.parserLoaded ? 'loaded' : 'not loaded';
      const vsPeer = r.vsPeer === undefined ? '—' : `${r.vsPeer}×${r.fasterThanPeer ? '' : ' (slower)'}`;
      const verdict = r.off.verdict === r.verdict ? r.verdict : `${r.verdict} / off: ${r.off.verdict}`;
      log(
        `| ${md(r.class)} | ${verdict} | ${parser} | ${pathsText(r.trace)} | ${r.medianMs} | ${r.p95Ms} | ${r.ratio}×${over(r.withinBudget)} | ${r.off.medianMs} | ${r.off.ratio}×${over(r.off.withinBudget)} | ${r.budget}× | ${r.peerMedianMs ?? '—'} | ${vsPeer} |`,
      );
    }
    for (const r of n.peer) {
      log(
        `| ${md(r.class)} | ${r.verdict} | — | — | ${r.medianMs} | ${r.p95Ms} | ${r.ratio}× | — | — | — | — | — |`,
      );
    }
    if (n.corpus !== undefined) {
      log(`\ncorpus mean (floor of the corpus calls: median ${n.corpus.floor.medianMs} ms)\n`);
      log(
        '| guard | calls | parser needed | path | mean ms | median ms | mean ratio | median ratio | over the phase floor | budget (mean) |',
      );
      log('|---|---:|---:|---|---:|---:|---:|---:|---:|---:|');
      for (const g of n.corpus.guards) {
        const share = g.parserShare === undefined ? '—' : `${Math.round(g.parserShare * 100)}%`;
        const budget = g.budget === undefined ? '—' : `${g.budget}×`;
        const over = g.withinBudget === false ? ' (over)' : '';
        const name = g.kind === 'kit' ? `${g.guard} (${modeLabel[g.mode]})` : g.guard;
        log(
          `| ${name} | ${g.calls} | ${share} | ${pathsText(g.trace)} | ${g.meanMs} | ${g.medianMs} | ${g.meanRatio}×${over} | ${g.medianRatio}× | ${g.phaseFloorRatio.mean}× | ${budget} |`,
        );
      }
    }
  }
  printSummary(report);
  const s = report.segments;
  log(
    `\n@kit/shell-segments, in process (${report.machine.benchNode}), ${s.corpusSize} commands: cold (load mvdan-sh + first parse) ${s.coldMs} ms; warm ${s.warmPerSecond} commands/s (${s.warmSegmentsPerSecond} segments/s)`,
  );
  log(`\nJSON: ${out}`);
}

/** Every class's ratio on every node side by side (server / server off), the budget set on Node 24. */
function printSummary(report) {
  if (report.nodes.length < 2) return;
  const heads = report.nodes.map((n) => `Node ${n.major}`);
  log(`\n### Ratio to each node's own floor, side by side (with the verdict server / server off)\n`);
  log(`| class | ${heads.join(' | ')} | budget (Node 24) |`);
  log(`|---|${heads.map(() => '---:').join('|')}|---:|`);
  const first = report.nodes[0];
  const marks = (r) => {
    const all = [
      ...(r.withinBudget ? [] : ['over']),
      ...(r.fasterThanPeer === false ? ['slower than peer'] : []),
    ];
    return all.length === 0 ? '' : ` (${all.join(', ')})`;
  };
  const cell = (r) => `${r.ratio}×${marks(r)} / ${r.off.ratio}×${marks(r.off)}`;
  first.classes.forEach((r, i) => {
    log(`| ${md(r.class)} | ${report.nodes.map((n) => cell(n.classes[i])).join(' | ')} | ${r.budget}× |`);
  });
  first.peer.forEach((r, i) => {
    log(`| ${md(r.class)} | ${report.nodes.map((n) => `${n.peer[i].ratio}×`).join(' | ')} | — |`);
  });
  if (first.corpus !== undefined) {
    first.corpus.guards.forEach((g, i) => {
      const cells = report.nodes.map((n) => {
        const x = n.corpus.guards[i];
        return `${x.meanRatio}×${x.withinBudget === false ? ' (over)' : ''}`;
      });
      const name = g.kind === 'kit' ? `${g.guard} (${modeLabel[g.mode]})` : g.guard;
      log(
        `| corpus mean: ${name} | ${cells.join(' | ')} | ${g.budget === undefined ? '—' : `${g.budget}×`} |`,
      );
    });
  }
  log(`| floor, median ms | ${report.nodes.map((n) => n.floor.medianMs).join(' | ')} | |`);
}

await main();
