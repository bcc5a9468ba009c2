import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bashPayload, type HookInput } from '@kit/gate-approval';
import { initRepo, writeTree } from '@kit/test-kit';
import type { GuardContext } from '../src/context.ts';

/** A file system described by its work-tree tops and its files; every ancestor of an entry is a directory. */
export interface FakeWorld {
  workTrees: string[];
  files: Record<string, string>;
  directories?: string[];
}

const managedProfile = '---\nname: repo-profile\ndescription: how to work here\n---\n# Repo profile\n';

/**
 * The world most cases run in: /repos/managed (profile, a sub-folder), /repos/plain (a repository
 * with no profile), /repos/declared (a profile declaring replacements, one of whose files exists),
 * /repos/narrow (a profile denying only pushes), /outside (no repository at all).
 */
export const standardWorld: FakeWorld = {
  workTrees: ['/repos/managed', '/repos/plain', '/repos/declared', '/repos/narrow'],
  files: {
    '/repos/managed/.claude/skills/repo-profile.md': managedProfile,
    '/repos/managed/notes.txt': 'a file, not a directory',
    '/repos/declared/.claude/skills/repo-profile.md': [
      '---',
      'name: repo-profile',
      'git-write-gate:',
      '  commit: scripts/guarded-commit.sh -C <worktree> <branch> -- <git commit args>',
      '  push: scripts/guarded-push.sh -C <worktree> <branch>',
      '---',
      '',
    ].join('\n'),
    '/repos/declared/scripts/guarded-commit.sh': '#!/bin/sh\n',
    '/repos/narrow/.claude/skills/repo-profile.md':
      '---\nname: repo-profile\ngit-write-gate:\n  deny: [push]\n---\n',
    '/repos/plain/README.md': 'plain',
  },
  directories: ['/repos/managed/sub/deep', '/outside/work', '/repos/plain/sub'],
};

/** A GuardContext over a FakeWorld: no disk, no process.env. */
export function fakeContext(
  env: Record<string, string | undefined> = {},
  world: FakeWorld = standardWorld,
  raw?: string,
): GuardContext {
  const directories = new Set<string>(['/']);
  const addAncestors = (path: string): void => {
    for (let dir = dirname(path); !directories.has(dir); dir = dirname(dir)) directories.add(dir);
  };
  for (const file of Object.keys(world.files)) addAncestors(file);
  for (const dir of [...world.workTrees, ...(world.directories ?? [])]) {
    directories.add(dir);
    addAncestors(dir);
  }
  return {
    env,
    ...(raw === undefined ? {} : { raw }),
    isDirectory: (path) => directories.has(path),
    isFile: (path) => Object.hasOwn(world.files, path),
    readText: (path) => {
      const text = Object.hasOwn(world.files, path) ? world.files[path] : undefined;
      return text === undefined
        ? { ok: false, reason: 'absent', message: `${path} does not exist` }
        : { ok: true, value: text };
    },
    findWorkTreeTop: (dir) => {
      for (let current = dir; ; current = dirname(current)) {
        if (world.workTrees.includes(current)) return current;
        if (dirname(current) === current) return null;
      }
    },
  };
}

/** A Bash PreToolUse payload, in the managed repository unless told otherwise; `extra` fields win. */
export function bashCall(command: string, cwd = '/repos/managed', extra: Partial<HookInput> = {}): HookInput {
  return { ...bashPayload(command, { cwd, sessionId: 's1' }), ...extra };
}

/** A FakeWorld made real under `root` with real git; returns how a command or cwd's /repos and /outside move under it. */
export function realWorld(root: string, world: FakeWorld = standardWorld): (text: string) => string {
  for (const top of world.workTrees) initRepo(join(root, top));
  writeTree(
    root,
    Object.fromEntries(Object.entries(world.files).map(([path, text]) => [path.slice(1), text])),
  );
  for (const folder of world.directories ?? []) mkdirSync(join(root, folder), { recursive: true });
  return (text) => text.replace(/(?<![\w.])\/(repos|outside)\b/g, `${root}/$1`);
}
