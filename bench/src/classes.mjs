// The parse-and-judge cost per call of issue 24's classes, in process: each row's payload handed to
// the built guard's `evaluate` (what the verdict server runs for every call), timed call by call,
// the median of N beside a plain short command. No spawn, no floor: this is the guard's own share
// of a call, the part a class adds. It reports; no budget is asserted.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { classRows } from './class-rows.mjs';
import { sampleRealCommands } from './real-commands.mjs';
import { readOption } from './scratch.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => readOption(args, name, fallback);
const callerDir = process.env.INIT_CWD || process.cwd();
// The checkout whose built dist/ is measured (`--root /work/main`: main's build).
const root = resolve(callerDir, option('--root', resolve(here, '../..')));
const calls = Number(option('--calls', '200'));
const warm = Number(option('--warm', '30'));
const corpusCalls = Number(option('--corpus-calls', '21'));
const corpusFile = resolve(callerDir, option('--corpus', join(root, 'corpus/agent-commands.jsonl')));
const corpusSize = Number(option('--corpus-size', '120'));
const out = resolve(here, '..', option('--out', 'results/classes.json'));
const quiet = args.includes('--quiet');
const log = (text) => {
  if (!quiet) process.stdout.write(`${text}\n`);
};

const round3 = (n) => Math.round(n * 1000) / 1000;
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * q))];
}

/** A managed repository (git's own layout, a committed profile, an alias `ci` in its config) to judge in. */
function makeRepository() {
  const base = mkdtempSync(join(tmpdir(), 'kit-classes-'));
  const repo = join(base, 'repo');
  mkdirSync(join(repo, '.claude/skills'), { recursive: true });
  mkdirSync(join(repo, 'sub'), { recursive: true });
  mkdirSync(join(base, 'outside'), { recursive: true });
  // A folder beside the repository that links into it: `set -P; cd to-repo-sub/..` ends inside.
  symlinkSync(join(repo, 'sub'), join(base, 'outside', 'to-repo-sub'));
  writeFileSync(
    join(repo, '.claude/skills/repo-profile.md'),
    '---\nname: repo-profile\ndescription: how to work here\n---\n# Repo profile\n',
  );
  const init = spawnSync('git', ['init', '-q', repo], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`git init failed: ${init.stderr.trim()}`);
  spawnSync('git', ['-C', repo, 'config', 'alias.ci', 'commit']);
  return { base, repo };
}

const payload = (command, cwd, background) => ({
  session_id: 'bench-classes',
  transcript_path: '/dev/null',
  cwd,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command, description: 'bench', ...(background ? { run_in_background: true } : {}) },
});

/** Times one judge on one payload: `warm` untimed calls, then `count` timed ones, each on its own. */
function time(judge, input, count = calls) {
  let verdict;
  for (let i = 0; i < warm; i++) verdict = judge(input);
  const samples = [];
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    judge(input);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return {
    verdict: verdict.kind,
    medianMs: round3(quantile(samples, 0.5)),
    p90Ms: round3(quantile(samples, 0.9)),
  };
}

async function loadJudges(repo) {
  const load = (name) => import(pathToFileURL(join(root, 'packages', name, 'dist/index.js')).href);
  const esg = await load('exit-status-guard');
  const gwg = await load('git-write-gate');
  const env = { HOME: repo, PATH: process.env.PATH };
  const esgContext = esg.realContext({ env });
  const gwgContext = gwg.realContext({ env, raw: '' });
  return {
    'exit-status-guard': (input) => esg.evaluate(input, esgContext),
    'git-write-gate': (input) => gwg.evaluate(input, gwgContext),
  };
}

/** Each guard's per-call cost over the corpus sample: mean, median, and the costliest commands. */
function measureCorpus(judges, cwd) {
  const sample = sampleRealCommands(corpusFile, corpusSize);
  if (sample.skipped) return { skipped: sample.skipped };
  const perGuard = {};
  for (const [guard, judge] of Object.entries(judges)) {
    const costs = sample.sample.map((command) => {
      const input = payload(command, cwd, false);
      return { command, ...time(judge, input, corpusCalls) };
    });
    const medians = costs.map((c) => c.medianMs);
    perGuard[guard] = {
      calls: costs.length,
      meanMs: round3(medians.reduce((a, b) => a + b, 0) / medians.length),
      medianMs: round3(quantile(medians, 0.5)),
      costliest: [...costs].sort((a, b) => b.medianMs - a.medianMs).slice(0, 5),
    };
  }
  return { file: corpusFile, step: sample.step, perGuard };
}

const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', '\\n');
const shorten = (text) => (text.length > 70 ? `${text.slice(0, 67)}…` : text);

async function main() {
  const { base, repo } = makeRepository();
  try {
    const judges = await loadJudges(repo);
    const rows = classRows(repo).map((row) => {
      const input = payload(row.command, row.cwd ?? repo, row.background === true);
      return { ...row, command: row.label ?? row.command, ...time(judges[row.guard], input) };
    });
    const corpus = args.includes('--no-corpus') ? undefined : measureCorpus(judges, repo);
    const report = { node: process.version, root, calls, warm, rows, corpus };
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    log(`node ${process.version}, ${root}: median of ${calls} calls after ${warm} warm ones, in process\n`);
    log('| guard | class | command | verdict | median ms | p90 ms |\n|---|---|---|---|---:|---:|');
    for (const r of rows)
      log(
        `| ${r.guard} | ${r.class} | \`${cell(shorten(r.command))}\` | ${r.verdict} | ${r.medianMs} | ${r.p90Ms} |`,
      );
    for (const [guard, c] of Object.entries(corpus?.perGuard ?? {})) {
      log(
        `\ncorpus, ${guard}: ${c.calls} commands, mean ${c.meanMs} ms, median ${c.medianMs} ms; costliest:`,
      );
      for (const each of c.costliest) log(`  ${each.medianMs} ms  ${cell(shorten(each.command))}`);
    }
    if (corpus?.skipped) log(`\ncorpus skipped: ${corpus.skipped}`);
    log(`\nJSON: ${out}`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

await main();
