// The scratch project every guard is installed into, the payload classes, and the floor: shared by
// the wall-time benchmark (run.mjs) and the instruction counts (instructions.mjs).
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  for (const dir of [project, home, bin, temp, join(project, '.claude/skills'), join(project, 'src')]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(join(project, '.claude/skills/repo-profile.md'), '---\nname: repo-profile\n---\n# Profile\n');
  writeFileSync(join(project, 'App.csproj'), '<Project Sdk="Microsoft.NET.Sdk"></Project>\n');
  writeFileSync(
    join(project, 'src/Widget.cs'),
    'namespace App;\npublic class Widget { public int Size() => 1; }\n',
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
 * The environment a class's spawns get: the scratch HOME and PATH, and a TMPDIR of the class's own,
 * so what one class leaves there (mvdan-sh's code cache) is that class's own doing. Without a code
 * cache, the cache folder is made writable by everyone, which the loader refuses to read or write:
 * every parse compiles mvdan-sh from source, the hook's fallback path.
 */
export function benchEnv(scratch, temp, { codeCache = true } = {}) {
  mkdirSync(temp, { recursive: true });
  if (!codeCache) {
    mkdirSync(codeCacheFolder(temp), { recursive: true });
    chmodSync(codeCacheFolder(temp), 0o777);
  }
  const env = {
    ...process.env,
    HOME: scratch.home,
    TMPDIR: temp,
    PATH: `${scratch.bin}:${process.env.PATH}`,
    CLAUDE_PROJECT_DIR: scratch.project,
  };
  delete env.KIT_HOOKS_TRACE;
  return env;
}

/** True when a hook loaded mvdan-sh under this TMPDIR: its first parse leaves a code cache there. */
export function hasLoadedParser(temp) {
  try {
    return readdirSync(codeCacheFolder(temp)).some((name) => name.endsWith('.v8cache'));
  } catch {
    return false;
  }
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

/**
 * The payload classes: which installed handler, which payload, the budget, the expected verdict,
 * and whether the class may load the parser (the no-operator and no-git classes must not).
 */
export function defineClasses(scratch, handlers, { codeCache = true } = {}) {
  const bash = (command) => () => payload(scratch, 'Bash', { command, description: 'bench' });
  const classes = [
    {
      id: 'exit-status-guard: no operator',
      handler: handlers['exit-status-guard'],
      budget: 1.15,
      expect: 'silent',
      parser: false,
      input: bash('npm test'),
    },
    {
      id: 'exit-status-guard: make test | tail -5',
      handler: handlers['exit-status-guard'],
      budget: 1.5,
      expect: 'deny',
      input: bash('make test | tail -5'),
    },
    {
      id: 'exit-status-guard: long nested command',
      handler: handlers['exit-status-guard'],
      budget: 1.5,
      expect: 'any',
      input: bash(nestedCommand),
    },
    {
      id: 'git-write-gate: ls (no git)',
      handler: handlers['git-write-gate'],
      budget: 1.15,
      expect: 'silent',
      parser: false,
      input: bash('ls -la src'),
    },
    {
      id: 'git-write-gate: git status (managed repo)',
      handler: handlers['git-write-gate'],
      budget: 1.5,
      expect: 'silent',
      input: bash('git status --short'),
    },
    {
      id: 'git-write-gate: git commit (managed repo)',
      handler: handlers['git-write-gate'],
      budget: 1.5,
      expect: 'deny',
      input: bash('git commit -m "wip"'),
    },
    {
      id: 'roseline-gate: .cs Read (marked project, dnx on PATH)',
      handler: handlers['roseline-gate'],
      budget: 1.5,
      expect: 'deny',
      input: () => payload(scratch, 'Read', { file_path: join(scratch.project, 'src/Widget.cs') }),
    },
  ];
  return classes.map((c, index) => {
    const temp = join(scratch.temp, String(index));
    return { ...c, temp, env: benchEnv(scratch, temp, { codeCache }) };
  });
}

/** What a hook answered, from its exit status and stdout. */
export function verdictOf(result) {
  if (result.status === 2) return 'refuse';
  if (result.stdout.includes('"permissionDecision":"deny"')) return 'deny';
  return result.stdout === '' && result.status === 0 ? 'silent' : `other(${result.status})`;
}

/** The value after `--name` on the command line, or the fallback. */
export function readOption(args, name, fallback) {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
}
