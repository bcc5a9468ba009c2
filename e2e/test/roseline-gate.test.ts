import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { runClaude } from '../src/claude.ts';
import { pathWith } from '../src/environment.ts';
import { aTurnLater, csharpFile, csharpFileMarker, csharpTree } from '../src/guard-cases.ts';
import type { ToolCall } from '../src/messages-api.ts';
import {
  deniedIds,
  describeRun,
  type GuardedProject,
  installInScratchProject,
  stubExecutable,
} from '../src/scenario.ts';
import { removeScratch, scratchDir } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

describe('roseline-gate, installed with npx from the registry, in a marked C# project', () => {
  let installed: GuardedProject;
  let read: ToolCall;
  beforeAll(async () => {
    installed = await installInScratchProject(source, 'roseline-gate', { tree: csharpTree });
    read = { name: 'Read', input: { file_path: csharpFile(installed.project) } };
  });

  test('denies a .cs Read with dnx on PATH, returns the file on the identical retry in the same session, then denies again', async () => {
    const run = await runClaude({
      cwd: installed.project,
      home: await scratchDir('roseline-session'),
      script: [read, aTurnLater, read, read],
      env: { PATH: pathWith(await stubExecutable('dnx')) },
    });
    const [first, waited, retry, third] = run.toolResults;
    expect(run.toolResults, describeRun(run)).toHaveLength(4);
    expect(waited?.isError, describeRun(run)).toBe(false);
    expect(first?.isError).toBe(true);
    expect(first?.text).toMatch(/^PreToolUse:Read hook error: roseline-gate: /);
    expect(first?.text).toContain(csharpFile(installed.project));
    expect(first?.text).toContain('search_symbols');
    expect(first?.text).not.toContain(csharpFileMarker);
    expect(retry?.isError, describeRun(run)).toBe(false);
    expect(retry?.text).toContain(csharpFileMarker);
    // The escape is one-shot: deny, pass, deny.
    expect(third?.isError).toBe(true);
    expect(third?.text).toMatch(/^PreToolUse:Read hook error: roseline-gate: /);
    expect(deniedIds(run)).toEqual([first?.toolUseId, third?.toolUseId]);
  });

  test('without dnx on PATH the same Read returns the file at once (control: the launcher probe decides)', async () => {
    const run = await runClaude({
      cwd: installed.project,
      home: await scratchDir('roseline-no-dnx'),
      script: [read],
    });
    expect(
      run.toolResults.map((result) => result.isError),
      describeRun(run),
    ).toEqual([false]);
    expect(run.toolResults[0]?.text).toContain(csharpFileMarker);
    expect(run.permissionDenials).toEqual([]);
  });
});
