import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { HookInput } from '@kit/gate-approval';
import { tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/evaluate.ts';
import { cases } from './cases.ts';
import {
  envWithPath,
  filesBelow,
  outcomeOf,
  readCall,
  realFsContext,
  stubLauncherFolder,
} from './helpers.ts';

describe.for(cases)('$name', ({ tree, files, cwd, env, launcher, want, project }) => {
  test.for(files)('%s', (file) => {
    const root = tempTree(tree);
    const bin = launcher === false ? tempDir('rg-empty-bin') : stubLauncherFolder();
    const { context, temp } = realFsContext(envWithPath([bin], env));
    const verdict = evaluate(readCall(path.join(root, file), path.join(root, cwd ?? '')), context);
    expect(outcomeOf(verdict)).toBe(want);
    if (verdict.kind !== 'deny') {
      // No opinion arms nothing: the temp folder stays empty.
      expect(filesBelow(temp)).toEqual([]);
      return;
    }
    expect(verdict.reason.startsWith(`roseline-gate: ${path.join(root, file)} `)).toBe(true);
    expect(verdict.rule).toBe('csharp-read');
    if (project === null) expect(verdict.reason).not.toContain('"project"');
    if (project) expect(verdict.reason).toContain(`"project":${JSON.stringify(path.join(root, project))}`);
  });
});

test('no case name or Read appears twice in a row', () => {
  expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  for (const c of cases) expect(new Set(c.files).size).toBe(c.files.length);
});

test('the table holds both directions', () => {
  expect(cases[0]?.want).toBe('deny');
  expect(cases.some((c) => c.want === 'silent')).toBe(true);
});

describe('the payload', () => {
  const root = () => tempTree({ 'P.csproj': '', 'Thing.cs': '' });
  const payloads: [string, (file: string, cwd: string) => unknown][] = [
    ['NotebookRead', (file, cwd) => ({ ...readCall(file, cwd), tool_name: 'NotebookRead' })],
    [
      'Grep',
      (file, cwd) => ({
        ...readCall(file, cwd),
        tool_name: 'Grep',
        tool_input: { pattern: 'class', path: file },
      }),
    ],
    ['read in lower case', (file, cwd) => ({ ...readCall(file, cwd), tool_name: 'read' })],
    ['Read with a trailing space', (file, cwd) => ({ ...readCall(file, cwd), tool_name: 'Read ' })],
    ['no tool_name', (file, cwd) => ({ ...readCall(file, cwd), tool_name: undefined })],
    ['no tool_input', (file, cwd) => ({ ...readCall(file, cwd), tool_input: undefined })],
    ['tool_input null', (file, cwd) => ({ ...readCall(file, cwd), tool_input: null })],
    ['tool_input a string', (file, cwd) => ({ ...readCall(file, cwd), tool_input: file })],
    ['tool_input an array', (file, cwd) => ({ ...readCall(file, cwd), tool_input: [file] })],
    ['file_path a number', (file, cwd) => ({ ...readCall(file, cwd), tool_input: { file_path: 7 } })],
    ['file_path missing', (file, cwd) => ({ ...readCall(file, cwd), tool_input: { path: file } })],
    ['file_path empty', (file, cwd) => ({ ...readCall(file, cwd), tool_input: { file_path: '' } })],
    ['no session_id', (file, cwd) => ({ ...readCall(file, cwd), session_id: undefined })],
    ['session_id empty', (file, cwd) => ({ ...readCall(file, cwd), session_id: '' })],
    [
      'a relative file_path and no absolute cwd',
      (_file, _cwd) => ({ ...readCall('Thing.cs', 'relative/cwd') }),
    ],
  ];

  test('the control: the well-formed Read denies', () => {
    const dir = root();
    const { context } = realFsContext(envWithPath([stubLauncherFolder()]));
    expect(evaluate(readCall(path.join(dir, 'Thing.cs'), dir), context).kind).toBe('deny');
  });

  test.for(payloads)('%s means no opinion and arms nothing', ([, build]) => {
    const dir = root();
    const { context, temp } = realFsContext(envWithPath([stubLauncherFolder()]), { cwd: 'relative' });
    const verdict = evaluate(build(path.join(dir, 'Thing.cs'), dir) as HookInput, context);
    expect(outcomeOf(verdict)).toBe('silent');
    expect(filesBelow(temp)).toEqual([]);
  });

  test('a relative file_path is placed in the payload cwd', () => {
    const dir = root();
    const { context } = realFsContext(envWithPath([stubLauncherFolder()]));
    const verdict = evaluate(readCall('Thing.cs', dir), context);
    expect(verdict).toMatchObject({
      kind: 'deny',
      reason: expect.stringContaining(`"project":${JSON.stringify(path.join(dir, 'P.csproj'))}`),
    });
  });

  test('with no payload cwd, the context cwd stands in', () => {
    const dir = root();
    const { context } = realFsContext(envWithPath([stubLauncherFolder()]), { cwd: dir });
    expect(evaluate({ ...readCall('Thing.cs', dir), cwd: undefined }, context).kind).toBe('deny');
  });
});

describe.skipIf(process.platform === 'win32')('the launcher probe (POSIX)', () => {
  test('a dnx without an execute bit is no launcher', async () => {
    const { chmodSync } = await import('node:fs');
    const dir = tempTree({ 'P.csproj': '', 'Thing.cs': '' });
    const bin = stubLauncherFolder();
    const { context } = realFsContext(envWithPath([bin]));
    expect(evaluate(readCall(path.join(dir, 'Thing.cs'), dir), context).kind).toBe('deny');
    chmodSync(path.join(bin, 'dnx'), 0o644);
    const fresh = realFsContext(envWithPath([bin]));
    expect(evaluate(readCall(path.join(dir, 'Thing.cs'), dir), fresh.context).kind).toBe('none');
  });

  test('a dnx reachable only through a relative PATH entry is no launcher; the absolute entry is', () => {
    const dir = tempTree({ 'P.csproj': '', 'Thing.cs': '' });
    const bin = stubLauncherFolder();
    const relativeBin = path.relative(process.cwd(), bin);
    const read = readCall(path.join(dir, 'Thing.cs'), dir);
    expect(evaluate(read, realFsContext(envWithPath([relativeBin, '.'])).context).kind).toBe('none');
    expect(evaluate(read, realFsContext(envWithPath([relativeBin, bin])).context).kind).toBe('deny');
  });

  test('a symbolic link named like C# source: to a folder it is none, to a file it is C#', async () => {
    const { symlinkSync } = await import('node:fs');
    const dir = tempTree({ 'P.csproj': '', 'real/': '', 'Real.cs': '' });
    symlinkSync(path.join(dir, 'real'), path.join(dir, 'ToFolder.cs'));
    symlinkSync(path.join(dir, 'Real.cs'), path.join(dir, 'ToFile.cs'));
    const { context } = realFsContext(envWithPath([stubLauncherFolder()]));
    expect(evaluate(readCall(path.join(dir, 'ToFolder.cs'), dir), context).kind).toBe('none');
    expect(evaluate(readCall(path.join(dir, 'ToFile.cs'), dir), context).kind).toBe('deny');
  });

  test('a FIFO named like C# source is not a file', () => {
    const dir = tempTree({ 'P.csproj': '' });
    const fifo = path.join(dir, 'Pipe.cs');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const { context, temp } = realFsContext(envWithPath([stubLauncherFolder()]));
    expect(evaluate(readCall(fifo, dir), context).kind).toBe('none');
    expect(filesBelow(temp)).toEqual([]);
  });

  test('a path whose kind cannot be told (a link loop) is a doubt: no opinion, no marker', async () => {
    const { symlinkSync } = await import('node:fs');
    const dir = tempTree({ 'P.csproj': '' });
    symlinkSync(path.join(dir, 'Loop.cs'), path.join(dir, 'Loop.cs'));
    const { context, temp } = realFsContext(envWithPath([stubLauncherFolder()]));
    expect(evaluate(readCall(path.join(dir, 'Loop.cs'), dir), context)).toEqual({
      kind: 'cannotJudge',
      cause: 'unreadable-path',
    });
    expect(filesBelow(temp)).toEqual([]);
  });

  test('dnx in a later PATH entry is found', () => {
    const dir = tempTree({ 'P.csproj': '', 'Thing.cs': '' });
    const { context } = realFsContext(envWithPath([tempDir('rg-empty'), stubLauncherFolder()]));
    expect(evaluate(readCall(path.join(dir, 'Thing.cs'), dir), context).kind).toBe('deny');
  });
});
