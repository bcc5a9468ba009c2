import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/evaluate.ts';
import { buildDenyText } from '../src/reasons.ts';
import { fakeContext, readCall } from './helpers.ts';

describe('the deny reason', () => {
  test('with a project hint', () => {
    expect(buildDenyText('/repo/src/App/Program.cs', '/repo/src/App/App.csproj')).toMatchInlineSnapshot(`
      "/repo/src/App/Program.cs is C# that roseline answers without reading the whole file (project /repo/src/App/App.csproj). Instead of Read, use:
      - the file's shape, or to find a member in it: search_symbols {"file":"/repo/src/App/Program.cs","project":"/repo/src/App/App.csproj"} (no query: an outline of the file)
      - one member's body: get_symbol_info with the member's name and {"includeSource":true,"project":"/repo/src/App/App.csproj"}
      - usages and calls: find_references, find_implementations, get_call_graph
      - a file:line you already have: get_symbol_at_position with {"file":"/repo/src/App/Program.cs"} and the line
      - edits: edit_member (one member), rename_symbol (a name everywhere)
      The tools are mcp__roseline__<tool>, or mcp__plugin_<plugin>_roseline__<tool> when a plugin ships the server; if they are deferred, load them with ToolSearch first (query "roseline").
      Read the file only when you need its exact full text, when an Edit needs a prior Read, or for a change outside member bodies (using directives, namespaces, attributes above a type, top-level statements): then repeat this identical Read in a later turn, within 2 minutes, and it passes, once (identical Reads sent together are all denied)."
    `);
  });

  test('without one (.sln only)', () => {
    const text = buildDenyText('/repo/src/Thing.cs', null);
    expect(text).not.toContain('project');
    expect(text).toContain('search_symbols {"file":"/repo/src/Thing.cs"}');
  });

  // Each need the reason must route, and the words that route it.
  test.for([
    ['file shape', 'search_symbols {"file":'],
    ['one member', 'get_symbol_info'],
    ['its source', '"includeSource":true'],
    ['usages', 'find_references'],
    ['implementations', 'find_implementations'],
    ['calls', 'get_call_graph'],
    ['a file:line', 'get_symbol_at_position'],
    ['edits', 'edit_member'],
    ['renames', 'rename_symbol'],
    ['the server form', 'mcp__roseline__<tool>'],
    ['the plugin form', 'mcp__plugin_<plugin>_roseline__<tool>'],
    ['deferred tools', 'ToolSearch'],
    ['the escape', 'repeat this identical Read in a later turn, within 2 minutes'],
    ['a burst is no retry', 'identical Reads sent together are all denied'],
    ['when: exact text', 'exact full text'],
    ['when: an Edit', 'an Edit needs a prior Read'],
    [
      'when: outside member bodies',
      'using directives, namespaces, attributes above a type, top-level statements',
    ],
  ])('names %s', ([, words]) => {
    expect(buildDenyText('/repo/A.cs', '/repo/A.csproj')).toContain(words);
  });

  test('a Windows path is written as a JSON string the model can pass as it stands', () => {
    const { context } = fakeContext({
      flavor: path.win32,
      files: ['C:\\repo\\src\\App\\App.csproj', 'C:\\repo\\src\\App\\Models\\User.CS'],
    });
    const verdict = evaluate(readCall('C:\\repo\\src\\App\\Models\\User.CS', 'C:\\repo'), context);
    expect(verdict.kind).toBe('deny');
    const reason = verdict.kind === 'deny' ? verdict.reason : '';
    expect(reason.startsWith('roseline-gate: C:\\repo\\src\\App\\Models\\User.CS ')).toBe(true);
    expect(reason).toContain(
      'search_symbols {"file":"C:\\\\repo\\\\src\\\\App\\\\Models\\\\User.CS","project":"C:\\\\repo\\\\src\\\\App\\\\App.csproj"}',
    );
  });
});

describe('Windows paths through evaluate (fake file system)', () => {
  const files = [
    'C:\\repo\\App.sln',
    'C:\\repo\\src\\Lib\\Lib.csproj',
    'C:\\repo\\src\\Lib\\a\\b\\C.CS',
    'C:\\repo\\tools\\Tool.cs',
  ];
  test.for([
    ['C:\\repo\\src\\Lib\\a\\b\\C.CS', 'deny'],
    ['C:/repo/src/Lib/a/b/C.CS', 'deny'],
    ['C:\\repo\\tools\\Tool.cs', 'deny'], // the .sln, no hint
    ['C:\\repo\\src\\Lib\\Lib.csproj', 'none'],
    ['D:\\elsewhere\\X.cs', 'cannotJudge'], // a folder that does not exist cannot be read
  ] as const)('%s: %s', ([file, want]) => {
    const { context } = fakeContext({ flavor: path.win32, files });
    expect(evaluate(readCall(file, 'C:\\repo'), context).kind).toBe(want);
  });

  test('a\\b\\C.CS relative to a Windows cwd', () => {
    const { context } = fakeContext({ flavor: path.win32, files });
    const verdict = evaluate(readCall('a\\b\\C.CS', 'C:\\repo\\src\\Lib'), context);
    expect(verdict).toMatchObject({
      kind: 'deny',
      reason: expect.stringContaining('"project":"C:\\\\repo\\\\src\\\\Lib\\\\Lib.csproj"'),
    });
  });

  test('the .sln-only file has no hint', () => {
    const { context } = fakeContext({ flavor: path.win32, files });
    const verdict = evaluate(readCall('C:\\repo\\tools\\Tool.cs', 'C:\\repo'), context);
    expect(verdict.kind === 'deny' && verdict.reason).not.toContain('"project"');
  });

  test('no launcher on a Windows PATH: silent; ROSELINE_GATE=on: deny', () => {
    expect(
      evaluate(
        readCall('C:\\repo\\src\\Lib\\a\\b\\C.CS', 'C:\\repo'),
        fakeContext({ flavor: path.win32, files, launcher: false }).context,
      ).kind,
    ).toBe('none');
    const forced = fakeContext({ flavor: path.win32, files, launcher: false, env: { ROSELINE_GATE: 'on' } });
    expect(evaluate(readCall('C:\\repo\\src\\Lib\\a\\b\\C.CS', 'C:\\repo'), forced.context).kind).toBe(
      'deny',
    );
  });
});
