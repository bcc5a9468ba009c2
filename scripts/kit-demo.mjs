// The kit's main job, as a user meets it: pack the packages, install a guard into a scratch
// project from its tarball, wire it with its own `install --project`, then run the command the
// settings entry names exactly as Claude Code runs it, and watch it deny a check piped into tail.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packages = [
  'shell-segments',
  'fail-open',
  'gate-approval',
  'exit-status-guard',
  'git-write-gate',
  'roseline-gate',
];
const say = (text) => process.stdout.write(`${text}\n`);
const run = (command, args, options = {}) =>
  execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });

const scratch = mkdtempSync(join(tmpdir(), 'kit-demo-'));
try {
  const tarballs = join(scratch, 'tarballs');
  mkdirSync(tarballs);
  for (const name of packages) {
    run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: join(root, 'packages', name) });
  }
  const project = join(scratch, 'project');
  mkdirSync(project);
  run('git', ['init', '-q'], { cwd: project });
  writeFileSync(join(project, 'package.json'), '{ "name": "demo-project", "private": true }\n');
  say(
    '$ npm install <the six packed tarballs>   # what `npx @kit/exit-status-guard` fetches from the registry',
  );
  const files = readdirSync(tarballs).map((file) => join(tarballs, file));
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files], { cwd: project });

  say('$ npx exit-status-guard install --project');
  process.stdout.write(
    run('npx', ['--no-install', 'exit-status-guard', 'install', '--project'], { cwd: project }),
  );

  const settings = JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8'));
  say('\n.claude/settings.json now holds:');
  say(JSON.stringify(settings.hooks.PreToolUse, null, 2));

  const [group] = settings.hooks.PreToolUse;
  const [handler] = group.hooks;
  for (const command of ['make test | tail -5', 'make test > tmp/test.log 2>&1; echo "EXIT=$?"']) {
    const payload = {
      session_id: 'demo',
      transcript_path: join(scratch, 'transcript.jsonl'),
      cwd: project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command, description: 'run the tests' },
      tool_use_id: 'toolu_demo',
    };
    // Exactly what Claude Code does with the entry: exec form, ${CLAUDE_PROJECT_DIR} in args
    // expanded to the folder it runs in, JSON on stdin.
    const args = handler.args.map((arg) => arg.replaceAll('${CLAUDE_PROJECT_DIR}', project));
    const result = spawnSync(handler.command, args, {
      input: JSON.stringify(payload),
      encoding: 'utf8',
      cwd: project,
      env: { ...process.env, CLAUDE_PROJECT_DIR: project },
    });
    say(`\nThe model runs Bash: ${command}`);
    if (result.stdout.trim() === '') {
      say(`  hook exit ${result.status}, no output: no opinion, the command runs`);
    } else {
      const reason = JSON.parse(result.stdout).hookSpecificOutput.permissionDecisionReason;
      say(`  hook exit ${result.status}, permissionDecision deny; the model reads:\n`);
      say(reason.replace(/^/gm, '    '));
    }
  }

  say('\n$ npx exit-status-guard doctor --project');
  const doctor = spawnSync('npx', ['--no-install', 'exit-status-guard', 'doctor', '--project'], {
    cwd: project,
    encoding: 'utf8',
  });
  process.stdout.write(doctor.stdout + doctor.stderr);
  if (doctor.status !== 0) process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
