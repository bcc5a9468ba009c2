// The scratch project every guard is installed into, the payload classes, and the floor: shared by
// the wall-time benchmark (run.mjs) and the instruction counts (instructions.mjs).
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';

/** The guards the benchmark installs, in the order their classes are listed. */
export const guards = ['exit-status-guard', 'git-write-gate', 'roseline-gate'];

// A long nested command: substitutions, a re-parsed bash -c string and a heredoc, as agents write them.
const nestedCommand = [
  'set -euo pipefail',
  'cd "$(git rev-parse --show-toplevel)" && echo "on $(git branch --show-current) at `date +%s`"',
  'for f in $(ls src | grep -v test); do wc -l "src/$f"; done',
  "bash -c 'npm run lint && npm run typecheck'",
  'cat > tmp/notes.md <<EOF',
  'Build notes for $(whoami): make check | tail -5 is what we ran',
  'EOF',
  'diff <(sort a.txt) <(sort b.txt) || true',
  'npm test -- --reporter=dot && echo "done: $(date -u +%FT%TZ)"',
].join('\n');

/** A managed git repository with a C# project, a fake `dnx` on PATH, and its own HOME and TMPDIR. */
export function makeScratchProject() {
  const base = mkdtempSync(join(tmpdir(), 'kit-bench-'));
  const project = join(base, 'project');
  const home = join(base, 'home');
  const bin = join(base, 'bin');
  const temp = join(base, 'tmp');
  const dirs = [
    project,
    home,
    bin,
    temp,
    join(project, '.claude/skills'),
    join(project, 'src'),
    join(project, 'app'),
  ];
  for (const dir of dirs) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(join(project, '.claude/skills/repo-profile.md'), '---\nname: repo-profile\n---\n# Profile\n');
  writeFileSync(join(project, 'App.csproj'), '<Project Sdk="Microsoft.NET.Sdk"></Project>\n');
  writeFileSync(
    join(project, 'src/Widget.cs'),
    'namespace App;\npublic class Widget { public int Size() => 1; }\n',
  );
  writeFileSync(
    join(project, 'app/package.json'),
    `${JSON.stringify({ name: 'app', private: true, scripts: { test: 'node --test' } }, null, 2)}\n`,
  );
  writeFileSync(join(bin, 'dnx'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin, 'dnx'), 0o755);
  const git = spawnSync('git', ['init', '-q', project]);
  if (git.status !== 0) throw new Error(`git init failed: ${git.stderr}`);
  // The floor: node running an empty CommonJS script that reads stdin, the plainest start there is
  // (an .mjs floor would add the ES module loader, about 4 ms, and flatter every ratio).
  const floorScript = join(base, 'floor.cjs');
  writeFileSync(floorScript, "process.stdin.resume();\nprocess.stdin.on('end', () => {});\n");
  return { base, project, home, bin, temp, floorScript };
}

/** Runs a guard's own `install --project` and returns the handler it wrote (command + args). */
export function installGuard(root, guard, scratch) {
  const cli = join(root, 'packages', guard, 'dist/cli.js');
  const result = spawnSync(process.execPath, [cli, 'install', '--project'], {
    cwd: scratch.project,
    env: { ...process.env, HOME: scratch.home },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${guard} install failed: ${result.stderr || result.stdout}`);
  const settings = JSON.parse(readFileSync(join(scratch.project, '.claude/settings.json'), 'utf8'));
  for (const group of settings.hooks?.PreToolUse ?? []) {
    for (const handler of group.hooks ?? []) {
      if ((handler.args ?? []).some((arg) => arg.includes(guard))) {
        // A project handler names its bundle below ${CLAUDE_PROJECT_DIR}; the host expands it.
        const args = (handler.args ?? []).map((arg) =>
          arg.replaceAll('${CLAUDE_PROJECT_DIR}', scratch.project),
        );
        return { command: handler.command, args };
      }
    }
  }
  throw new Error(`${guard}: no handler in .claude/settings.json after install`);
}

/**
 * Swaps the bundle `install` copied for another build of the same guard (`<dir>/<guard>.cjs`), so
 * two builds can be compared in one run under the same load. The settings entry stays as installed.
 */
export function replaceInstalledBundle(handler, guard, dir) {
  const installed = handler.args.find((arg) => arg.endsWith(`${guard}.cjs`));
  if (installed === undefined) throw new Error(`${guard}: no .cjs among the handler's args ${handler.args}`);
  copyFileSync(join(dir, `${guard}.cjs`), installed);
}

// Where a hook bundle keeps mvdan-sh's code cache (see @kit/shell-segments src/embedded-module.ts).
const codeCacheFolder = (temp) => join(temp, `kit-code-cache-${process.getuid?.() ?? 'user'}`);

/**
 * The environment of one class's spawns under one node: the scratch HOME, a PATH led by the
 * scratch bin (the fake `dnx`) and the measured node's own folder (so anything the hook starts as
 * `node` is that binary too), and a TMPDIR of the class's own, so what one class leaves there
 * (mvdan-sh's code cache) is that class's own doing. Without a code cache, the cache folder is made
 * writable by everyone, which the loader refuses to read or write: every parse compiles mvdan-sh
 * from source, the hook's fallback path. `trace` names a KIT_HOOKS_TRACE file, or none.
 * `server: false` sets KIT_HOOKS_SERVER=off (every call answered in process, as the first call is);
 * otherwise the hook's verdict server runs, one per TMPDIR, and ends after `serverIdleSeconds` of
 * quiet should the bench die before stopServers ends it.
 */
export function benchEnv(scratch, temp, { codeCache = true, nodeDir, trace, server = true } = {}) {
  mkdirSync(temp, { recursive: true });
  if (!codeCache) {
    mkdirSync(codeCacheFolder(temp), { recursive: true });
    chmodSync(codeCacheFolder(temp), 0o777);
  }
  const path = [scratch.bin, ...(nodeDir === undefined ? [] : [nodeDir]), process.env.PATH].join(delimiter);
  const env = {
    ...process.env,
    HOME: scratch.home,
    TMPDIR: temp,
    PATH: path,
    CLAUDE_PROJECT_DIR: scratch.project,
  };
  delete env.KIT_HOOKS_TRACE;
  delete env.KIT_HOOKS_SERVER;
  if (!server) env.KIT_HOOKS_SERVER = 'off';
  env.KIT_HOOKS_SERVER_IDLE_SECONDS = String(serverIdleSeconds);
  // Options meant for the bench's own node must not reach the node under test.
  delete env.NODE_OPTIONS;
  if (trace !== undefined) env.KIT_HOOKS_TRACE = trace;
  return env;
}

/** How long a verdict server the bench started outlives its last call, should stopServers not run. */
export const serverIdleSeconds = 120;

/**
 * The verdict servers the bench's hooks started, by process id: every process whose command line
 * runs a bundle under this scratch project with the server's argument (Linux /proc; elsewhere none
 * are found, and the idle bound ends them).
 */
export function serverPids(scratch) {
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const pids = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let argv;
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (argv.includes('--kit-serve-verdicts') && argv.some((arg) => arg.startsWith(scratch.base))) {
      pids.push(Number(entry));
    }
  }
  return pids;
}

/** Every verdict-server mailbox under this folder (each class's TMPDIR holds its own folder). */
function mailboxesUnder(folder) {
  const found = [];
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && entry.name.endsWith('.box') && /^kit-hooks-/.test(basename(folder)))
      found.push(path);
    else if (entry.isDirectory()) found.push(...mailboxesUnder(path));
  }
  return found;
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Ends every verdict server the bench's hooks started, and returns how many there were: their
 * mailboxes removed first (a server whose mailbox is gone stops within a second, fail-open's own
 * way out), then any still running after 3 s sent SIGTERM by its process id, and SIGKILL after 1 s more.
 */
export function stopServers(scratch) {
  const before = serverPids(scratch);
  for (const mailbox of mailboxesUnder(scratch.temp)) rmSync(mailbox, { recursive: true, force: true });
  for (let waited = 0; waited < 3000 && serverPids(scratch).length > 0; waited += 100) sleep(100);
  for (const signal of ['SIGTERM', 'SIGKILL']) {
    const left = serverPids(scratch);
    if (left.length === 0) break;
    for (const pid of left) {
      try {
        process.kill(pid, signal);
      } catch {
        // gone already
      }
    }
    sleep(1000);
  }
  return before.length;
}

/**
 * Calls a hook until its trace says the verdict server answered (`path: 'server'`), at most
 * `boundMs`: the first call finds no server and starts one, which takes a few hundred ms to warm.
 * `call()` runs the hook once with KIT_HOOKS_TRACE set to `trace`. Returns the calls it took and
 * whether the server answered.
 */
export function waitForServer(call, trace, boundMs = 5000) {
  const started = Date.now();
  for (let calls = 1; ; calls++) {
    const from = traceSize(trace);
    call();
    const lines = traceLinesFrom(trace, from);
    if (lines.some((line) => line.path === 'server')) return { calls, answered: true };
    if (Date.now() - started > boundMs) return { calls, answered: false };
    sleep(100);
  }
}

/** The size of a trace file now (0 when there is none): where the next call's lines start. */
export function traceSize(file) {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** The JSON lines a trace file gained after `offset` (see traceSize). */
export function traceLinesFrom(file, offset) {
  let text = '';
  try {
    text = readFileSync(file).subarray(offset).toString('utf8');
  } catch {
    return [];
  }
  const lines = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      lines.push(JSON.parse(line));
    } catch {
      // a torn line: not counted
    }
  }
  return lines;
}

/**
 * What a KIT_HOOKS_TRACE file says about the calls it saw: how many lines, the values of any field
 * naming which path answered (`path`, `answeredBy`: a later hook may answer in process or from a
 * verdict server), why a call was not answered by the server (`server`: none, off, busy, gone, …), the
 * `parser` notes (`true` / `false`: whether the call needed mvdan-sh, wherever it ran), and the
 * fail-open causes, each with its count.
 */
export function readTrace(file) {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { lines: 0, paths: {}, servers: {}, parsers: {}, causes: {} };
  }
  const summary = { lines: 0, paths: {}, servers: {}, parsers: {}, causes: {} };
  const count = (bag, value) => {
    bag[value] = (bag[value] ?? 0) + 1;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    summary.lines++;
    for (const field of ['path', 'answeredBy']) {
      if (typeof record[field] === 'string') count(summary.paths, record[field]);
    }
    if (typeof record.server === 'string') count(summary.servers, record.server);
    if (typeof record.parser === 'boolean') count(summary.parsers, String(record.parser));
    if (typeof record.cause === 'string') count(summary.causes, record.cause);
  }
  return summary;
}

let sessionCounter = 0;
const payload = (scratch, tool, toolInput) =>
  JSON.stringify({
    // A fresh session per call keeps roseline-gate's one-shot escape from turning every other Read into a pass.
    session_id: `bench-${process.pid}-${sessionCounter++}`,
    transcript_path: join(scratch.home, 'transcript.jsonl'),
    cwd: scratch.project,
    hook_event_name: 'PreToolUse',
    permission_mode: 'default',
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: 'toolu_bench',
  });

/** A Bash PreToolUse payload for `command`, as the host sends it. */
export const bashPayload = (scratch, command) => payload(scratch, 'Bash', { command, description: 'bench' });

/**
 * Every class's budget, as a ratio to the floor of the node it runs under (issue 15: every class
 * within 1.25× on Node 24, the real-command mean within 1.15×, and no class slower than the peer).
 */
export const budgets = { class: 1.25, corpusMean: 1.15 };

/**
 * The payload classes: which guard, which payload, the expected verdict, and whether the class may
 * load the parser (the no-operator and no-git classes must not). `command` is set for Bash classes:
 * the peer is measured on the same payloads.
 */
export function defineClasses(scratch) {
  const bash = (guard, label, command, rest) => ({
    id: `${guard}: ${label}`,
    guard,
    command,
    input: () => bashPayload(scratch, command),
    ...rest,
  });
  return [
    bash('exit-status-guard', 'no operator', 'npm test', { expect: 'silent', parser: false }),
    bash('exit-status-guard', 'make test | tail -5', 'make test | tail -5', { expect: 'deny' }),
    bash('exit-status-guard', 'git log --oneline | head -20', 'git log --oneline | head -20', {
      expect: 'silent',
    }),
    bash('exit-status-guard', 'cd app && npm test 2>&1 | tail -20', 'cd app && npm test 2>&1 | tail -20', {
      expect: 'deny',
    }),
    bash('exit-status-guard', 'git status (managed repo)', 'git status --short', { expect: 'silent' }),
    bash('exit-status-guard', 'long nested command', nestedCommand, { expect: 'any' }),
    bash('git-write-gate', 'ls (no git)', 'ls -la src', { expect: 'silent', parser: false }),
    bash('git-write-gate', 'git log --oneline | head -20', 'git log --oneline | head -20', {
      expect: 'silent',
    }),
    bash('git-write-gate', 'git status (managed repo)', 'git status --short', { expect: 'silent' }),
    bash('git-write-gate', 'git commit (managed repo)', 'git commit -m "wip"', { expect: 'deny' }),
    {
      id: 'roseline-gate: .cs Read (marked project, dnx on PATH)',
      guard: 'roseline-gate',
      expect: 'deny',
      input: () => payload(scratch, 'Read', { file_path: join(scratch.project, 'src/Widget.cs') }),
    },
  ];
}

/** A short label for a Bash command in a table: its first line, cut to 40 characters. */
export function commandLabel(command) {
  const first = command.split('\n')[0];
  const cut = first.length > 40 ? `${first.slice(0, 39)}…` : first;
  return command.includes('\n') ? `${cut} (${command.split('\n').length} lines)` : cut;
}

/**
 * The argv that runs an installed handler under one node binary: the handler's own args after that
 * binary in place of its `node`. A handler whose command is not `node` cannot be retargeted.
 */
export function spawnArgsFor(handler, nodeBinary) {
  const name = basename(handler.command).replace(/\.exe$/i, '');
  if (name !== 'node') {
    throw new Error(
      `the installed handler runs ${handler.command}, not node: the bench cannot run it under another node`,
    );
  }
  return { command: nodeBinary, args: handler.args };
}

/** What a hook answered, from its exit status and stdout. */
export function verdictOf(result) {
  if (result.status === 2) return 'refuse';
  if (result.stdout.includes('"permissionDecision":"deny"')) return 'deny';
  if (result.stdout.includes('"permissionDecision":"ask"')) return 'ask';
  if (result.stdout.includes('"permissionDecision":"allow"')) return 'allow';
  return result.stdout === '' && result.status === 0 ? 'silent' : `other(${result.status})`;
}

/** The value after `--name` on the command line, or the fallback. */
export function readOption(args, name, fallback) {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
}
