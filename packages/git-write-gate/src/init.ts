import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIO, GuardCommand } from '@kit/gate-approval';
import { profileRelativePath, skillRelativePath } from './probe.ts';

/** The files `init` writes, relative to the top of the work tree, and the template each comes from. */
export const initFiles: readonly { path: string; template: string; executable: boolean }[] = [
  { path: skillRelativePath, template: 'repo-profile/SKILL.md', executable: false },
  {
    path: '.claude/skills/repo-profile/agent-branch.sh',
    template: 'repo-profile/agent-branch.sh',
    executable: true,
  },
];

/**
 * The package's templates folder: one folder up from this module, which is `src/init.ts` from source
 * and `dist/cli.js` once bundled; both sit one folder below the package.
 */
export function templatesFolder(moduleUrl: string = import.meta.url): string {
  return join(dirname(dirname(fileURLToPath(moduleUrl))), 'templates');
}

/** The top of the work tree holding `cwd`, as git says, or null outside one. */
function workTreeTop(cwd: string): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

export interface InitResult {
  code: number;
  lines: string[];
}

/**
 * Makes the repository holding `cwd` one the gate manages: the repo-profile skill (which names the
 * replacement routes for commit and push) and the route's script. A profile already there, in
 * either layout, is the user's: left as it is (exit 1) unless `force`.
 */
export function initRepository(
  cwd: string,
  force: boolean,
  templates: string = templatesFolder(),
): InitResult {
  const top = workTreeTop(cwd);
  if (top === null) return { code: 1, lines: [`git-write-gate init: ${cwd} is not in a git work tree`] };
  const existing = [skillRelativePath, profileRelativePath].filter((path) => existsSync(join(top, path)));
  if (existing.length > 0 && !force) {
    return {
      code: 1,
      lines: [
        `git-write-gate init: ${existing.join(' and ')} already in ${top}: it is left as it is.`,
        'Add the git-write-gate: block and the route yourself (see the README), or run `git-write-gate init --force` to replace it.',
      ],
    };
  }
  const lines = [`git-write-gate init: ${top} is now a repository the gate manages`];
  for (const file of initFiles) {
    const target = join(top, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, readFileSync(join(templates, file.template)));
    if (file.executable) chmodSync(target, 0o755);
    lines.push(`  wrote ${relative(top, target)}`);
  }
  lines.push(
    'Commit .claude/skills/repo-profile so every clone and worktree is managed too; the profile names',
    'agent-branch.sh as the route for commit and push, and the deny reason points at it.',
  );
  return { code: 0, lines };
}

const usage = `git-write-gate init [--cwd DIR] [--force]
Writes .claude/skills/repo-profile/SKILL.md (the repo-profile skill Claude Code loads, with the
gate's block naming the replacement for commit and push) and .claude/skills/repo-profile/agent-branch.sh
(the route: a commit in a private index onto a branch of the agent's own, a push of that branch only)
at the top of the work tree. An existing profile is never overwritten without --force.`;

/** `git-write-gate init`, as a guard command of the shared CLI. */
export const initCommand: GuardCommand = {
  summary: 'make this repository one the gate manages: the repo-profile skill and a commit/push route',
  usage,
  run: async (argv: string[], io: CliIO): Promise<number> => {
    const at = argv.indexOf('--cwd');
    const unknown = argv.filter((arg, i) => arg !== '--force' && arg !== '--cwd' && argv[i - 1] !== '--cwd');
    if (unknown.length > 0 || (at !== -1 && argv[at + 1] === undefined)) {
      io.stderr(`${usage}\n`);
      return 2;
    }
    const result = initRepository(at === -1 ? io.cwd : (argv[at + 1] as string), argv.includes('--force'));
    (result.code === 0 ? io.stdout : io.stderr)(`${result.lines.join('\n')}\n`);
    return result.code;
  },
};
