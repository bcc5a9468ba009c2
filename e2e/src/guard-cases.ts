import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathWith } from './environment.ts';
import type { ToolCall } from './messages-api.ts';
import type { GuardName } from './pack.ts';
import { stubExecutable } from './scenario.ts';
import { git, type Tree } from '@kit/test-kit';

/**
 * For each guard, one call it denies, in a project where it applies, and how to see on disk (or in
 * the tool_result) that the call really ran. The cross-cutting scenarios (fail-open, doctor, strict
 * timeout) run every row, so each guard is proven through the same doors.
 */
export interface GuardCase {
  guard: GuardName;
  tree: Tree; // the scratch project's files (committed)
  call: (project: string) => ToolCall;
  /** Extra CLI environment the deny needs (a stub dnx on PATH). */
  env: () => Promise<Record<string, string>>;
  /** True once the denied call's side effect happened; `toolText` is what the model got back. */
  ran: (project: string, toolText: string) => boolean;
  opener: string; // how the tool_result of a deny starts
}

const roselineFileMarker = 'e2e-roseline-file-body-7f3a';

/**
 * A repository the kit manages: git-write-gate's evidence probe looks for this committed skill, in
 * the layout Claude Code loads (`.claude/skills/<name>/SKILL.md`); the flat `repo-profile.md` is
 * read too, and only a test about that layout uses it.
 */
export const managedRepoTree: Tree = {
  '.claude/skills/repo-profile/SKILL.md':
    '---\nname: repo-profile\ndescription: how to write to this repository\n---\n\nUse the guarded scripts.\n',
};

/** A marked C# project: a .csproj at the top, the file one folder down (the walk-up finds the marker). */
export const csharpTree: Tree = {
  'App.csproj': '<Project Sdk="Microsoft.NET.Sdk" />\n',
  'src/Widget.cs': `namespace App;\n\n// ${roselineFileMarker}\npublic class Widget\n{\n    public int Size => 3;\n}\n`,
};
export const csharpFile = (project: string): string => join(project, 'src', 'Widget.cs');
export const csharpFileMarker: string = roselineFileMarker;
/**
 * The stand-in model answers at once; a real model's retry comes a turn later. roseline-gate passes
 * only a retry that comes a quiet second after the denial, so a script waits this long in between.
 */
export const aTurnLater: ToolCall = { name: 'Bash', input: { command: 'sleep 1.5', description: 'wait' } };

/** An unterminated quote: no shell parser can read it, so git-write-gate cannot judge it (strict mode refuses it). */
export const unparseableCommit: ToolCall = {
  name: 'Bash',
  input: { command: 'git commit -m "unterminated', description: 'commit' },
};

/** The number of commits on HEAD. */
export function commitCount(project: string): number {
  return Number(git(project, 'rev-list', '--count', 'HEAD').trim());
}

export const guardCases: GuardCase[] = [
  {
    guard: 'exit-status-guard',
    // `make test` adds a line to a file each time it runs: "it ran" (and how often) is a fact on disk.
    tree: { Makefile: 'test:\n\techo ran >> made-test.txt\n\techo tests passed\n' },
    call: () => ({ name: 'Bash', input: { command: 'make test | tail -5', description: 'run the tests' } }),
    env: async () => ({}),
    ran: (project) => existsSync(join(project, 'made-test.txt')),
    opener: 'PreToolUse:Bash hook error: exit-status-guard: ',
  },
  {
    guard: 'git-write-gate',
    tree: managedRepoTree,
    call: () => ({
      name: 'Bash',
      input: { command: 'git commit --allow-empty -m "e2e: a commit"', description: 'commit' },
    }),
    env: async () => ({}),
    ran: (project) => commitCount(project) > 1,
    opener: 'PreToolUse:Bash hook error: git-write-gate: ',
  },
  {
    guard: 'roseline-gate',
    tree: csharpTree,
    call: (project) => ({ name: 'Read', input: { file_path: csharpFile(project) } }),
    env: async () => ({
      PATH: pathWith(await stubExecutable('dnx')),
    }),
    ran: (_project, toolText) => toolText.includes(roselineFileMarker),
    opener: 'PreToolUse:Read hook error: roseline-gate: ',
  },
];
