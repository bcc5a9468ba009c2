import { dirname } from 'node:path';
import * as exitStatusGuard from '@kit/exit-status-guard';
import { bashPayload } from '@kit/gate-approval';
import * as gitWriteGate from '@kit/git-write-gate';
import type { AgentCommand } from './commands.ts';

/** What one guard said about one command: the verdict, and the rule and reason of a deny or refusal. */
export type Recorded =
  | { verdict: 'none' }
  | { verdict: 'cannotJudge'; cause: string }
  | { verdict: 'deny' | 'refuse'; rule: string | null; reason: string };

/** A guard in one setting, asked about every command of the corpus. */
export interface Situation {
  name: string;
  judge: (command: AgentCommand) => Recorded;
}

// A virtual world, so that a verdict never depends on the machine the suite runs on: the
// payload cwd is /work/project, and every absolute path is a directory of one work tree whose
// top is `/` (a `cd` anywhere stays inside it). Managed or not is whether the profile is there.
const projectDir = '/work/project';
const profile = '/.claude/skills/repo-profile.md';
const absent = { ok: false, reason: 'absent', message: 'not in the virtual world' } as const;

function payloadOf(command: AgentCommand) {
  return bashPayload(command.command, {
    cwd: projectDir,
    sessionId: 'corpus',
    ...(command.run_in_background ? { runInBackground: true } : {}),
  });
}

function record(verdict: { kind: string; rule?: string; reason?: string; cause?: string }): Recorded {
  switch (verdict.kind) {
    case 'deny':
    case 'refuse':
      return { verdict: verdict.kind, rule: verdict.rule ?? null, reason: verdict.reason ?? '' };
    case 'cannotJudge':
      return { verdict: 'cannotJudge', cause: verdict.cause ?? '' };
    default:
      return { verdict: 'none' };
  }
}

function gitWorld(managed: boolean, env: Record<string, string>): gitWriteGate.GuardContext {
  return {
    env,
    isDirectory: (path) => path.startsWith('/') && path !== profile && dirname(path) !== '/.claude/skills',
    isFile: (path) => managed && path === profile,
    readText: (path) =>
      managed && path === profile ? { ok: true, value: '---\nname: repo-profile\n---\n' } : absent,
    findWorkTreeTop: (dir) => (dir.startsWith('/') ? '/' : null),
  };
}

const exitStatusContext: exitStatusGuard.GuardContext = {
  env: {},
  cwd: projectDir,
  readText: () => absent, // no project registry: the shipped one alone
  findScratchpad: () => null, // the rewrite's log is tmp/out.log behind its own mkdir
};

/** The situations the corpus records, each a name and a judge. */
export const situations: Situation[] = [
  {
    name: 'exit-status-guard',
    judge: (command) => record(exitStatusGuard.evaluate(payloadOf(command), exitStatusContext)),
  },
  ...[
    { name: 'git-write-gate plain', managed: false, strict: false },
    { name: 'git-write-gate managed', managed: true, strict: false },
    { name: 'git-write-gate plain strict', managed: false, strict: true },
    { name: 'git-write-gate managed strict', managed: true, strict: true },
  ].map(({ name, managed, strict }) => {
    const context = gitWorld(managed, strict ? { TAGOUT_HOOKS_STRICT: '1' } : {});
    return {
      name,
      judge: (command: AgentCommand) => record(gitWriteGate.evaluate(payloadOf(command), context)),
    };
  }),
];
