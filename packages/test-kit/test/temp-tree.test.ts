import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  executable,
  freshTempDir,
  git,
  hookEnv,
  recordingIO,
  hookNode,
  removeTree,
  runHookCommand,
  runHookFile,
  tempDir,
  tempRepo,
  tempTree,
} from '../src/index.ts';

const collected = tempDir('kit-collected');
let fromEarlierTest = '';

describe('tempTree', () => {
  test('writes files, empty folders and modes', () => {
    const root = tempTree({ 'a/b.txt': 'hi', 'empty/': '', 'bin/tool': executable('#!/bin/sh\n') });
    expect(readFileSync(join(root, 'a/b.txt'), 'utf8')).toBe('hi');
    expect(statSync(join(root, 'empty')).isDirectory()).toBe(true);
    if (process.platform !== 'win32') expect(statSync(join(root, 'bin/tool')).mode & 0o777).toBe(0o755);
    fromEarlierTest = root;
  });
  test('a tree made in a test is gone when it finishes; one made while collecting lives on', () => {
    expect(fromEarlierTest).not.toBe('');
    expect(existsSync(fromEarlierTest)).toBe(false);
    expect(existsSync(collected)).toBe(true);
  });
});

/** A process writing new files into `folder` until it is killed or 20 s pass (as a server makes its files), once it has made 2,000: so many that a removal listing the folder once always finds a new one at its end. */
async function startWriting(folder: string): Promise<ChildProcess> {
  const script = `const fs = require('node:fs'); for (let i = 0; Date.now() < ${Date.now() + 20_000}; i++) try { fs.writeFileSync(process.argv[1] + '/f' + i, 'x'); } catch {}`;
  const writer = spawn(process.execPath, ['-e', script, folder], { stdio: 'ignore' });
  while (readdirSync(folder).length < 2000) await new Promise((resolve) => setTimeout(resolve, 10));
  return writer;
}

// A verdict server a hook started may still be making its mailbox in the test's temp folder when
// the test ends; the removal must not fail on it, nor leave the folder behind.
describe('a temp folder a process is still writing in when its test ends', () => {
  let writing = '';
  let writer: ChildProcess | undefined;
  test('is removed without an error', async () => {
    writing = tempDir('kit-writing');
    writer = await startWriting(writing);
  });
  test('and is gone', () => {
    writer?.kill();
    expect(writing).not.toBe('');
    expect(existsSync(writing)).toBe(false);
  });
});

// As in an e2e run: the server writes in TMPDIR/kit-hooks-<uid>, two folders below the one removed.
describe('removeTree', () => {
  test('removes a folder a process writes in two folders down, and it is gone', async () => {
    const dir = freshTempDir('kit-deep-writing');
    const deep = join(dir, '.tmp', 'kit-hooks-0');
    mkdirSync(deep, { recursive: true });
    const writer = await startWriting(deep);
    try {
      removeTree(dir);
      expect(existsSync(dir)).toBe(false);
      expect(existsSync(`${dir}.removing`)).toBe(false);
    } finally {
      writer.kill();
    }
  });
  test('a folder that is not there is no error', () => {
    const dir = freshTempDir('kit-gone');
    removeTree(dir);
    expect(() => removeTree(dir)).not.toThrow();
    expect(existsSync(dir)).toBe(false);
  });
});

test('tempRepo is a real repository with one commit on main', () => {
  const repo = tempRepo({ 'README.md': 'x\n' });
  expect(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
  expect(git(repo, 'log', '--format=%s').trim()).toBe('initial');
});

test('recordingIO collects both streams', () => {
  const io = recordingIO({ cwd: '/p' });
  io.stdout('a');
  io.stdout('b');
  io.stderr('c');
  expect([io.cwd, io.out(), io.err()]).toEqual(['/p', 'ab', 'c']);
});

test('runHookFile passes stdin and the environment it is given', () => {
  const root = tempTree({
    'echo.mjs': "process.stdin.on('data', (d) => process.stdout.write(`${process.env.X}:${d}`));",
  });
  expect(runHookFile(join(root, 'echo.mjs'), 'in', { env: { X: 'x' } })).toEqual({
    exitCode: 0,
    stdout: 'x:in',
    stderr: '',
  });
  expect(runHookFile(join(root, 'echo.mjs'), { a: 1 }, { env: {} }).stdout).toBe('undefined:{"a":1}');
});

test('runHookCommand expands ${CLAUDE_PROJECT_DIR} in args and sets it, as Claude Code does', () => {
  const project = tempTree({
    '.claude/hooks/echo.cjs': 'process.stdout.write(`${process.argv[2]}|${process.env.CLAUDE_PROJECT_DIR}`);',
  });
  const handler = {
    command: process.execPath,
    args: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/echo.cjs', '${CLAUDE_PROJECT_DIR}/x'],
  };
  expect(runHookCommand(handler, '', { env: {}, projectDir: project }).stdout).toBe(
    `${project}/x|${project}`,
  );
  expect(runHookCommand(handler, '', { env: { CLAUDE_PROJECT_DIR: project } }).stdout).toBe(
    `${project}/x|${project}`,
  );
  expect(() => runHookCommand(handler, '', { env: {} })).toThrow(/pass projectDir/);
});

test('hook processes run on hookNode(): KIT_TEST_NODE when set, else this node', () => {
  const root = tempTree({ 'version.cjs': 'process.stdout.write(process.version)' });
  const expected = process.env.KIT_TEST_NODE
    ? spawnSync(process.env.KIT_TEST_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()
    : process.version;
  expect(hookNode()).toBe(process.env.KIT_TEST_NODE || process.execPath);
  expect(runHookFile(join(root, 'version.cjs'), '', { env: hookEnv() }).stdout).toBe(expected);
  const handler = { command: 'node', args: [join(root, 'version.cjs')] };
  if (process.env.KIT_TEST_NODE)
    expect(runHookCommand(handler, '', { env: hookEnv() }).stdout).toBe(expected);
});
