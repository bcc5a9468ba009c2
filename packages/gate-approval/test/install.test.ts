import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempTree } from '@kit/test-kit';
import { cli, makeGuard } from './cli-harness.ts';

const guard = makeGuard();
const projectSettings = (root: string) => join(root, '.claude', 'settings.json');
const projectBundle = (root: string) => join(root, '.claude', 'hooks', 'example-guard.mjs');
// What a project handler names: the bundle below ${CLAUDE_PROJECT_DIR}, so a teammate's clone runs it.
const projectHandlerArg = '${CLAUDE_PROJECT_DIR}/.claude/hooks/example-guard.mjs';
const handlerFor = (_root: string, extra: object = {}) => ({
  type: 'command',
  command: 'node',
  args: [projectHandlerArg],
  timeout: 5,
  ...extra,
});

/** Settings files as users have them: other hooks, other keys, every formatting a JSON file can have. */
const startingFiles: Record<string, string> = {
  'an empty object': '{}\n',
  'other keys only': '{\n  "model": "opus",\n  "permissions": {\n    "allow": ["Bash"]\n  }\n}\n',
  'other hooks, 4-space indent': `${JSON.stringify({ env: { A: '1' }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'other-guard hook' }] }], PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'log' }] }] } }, null, 4)}\n`,
  'tab indent, no final newline': JSON.stringify({ model: 'opus', hooks: { Stop: [] } }, null, '\t'),
  'one compact line':
    '{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command","command":"x"}]}]}}',
  'CRLF line endings': '{\r\n  "model": "opus"\r\n}\r\n',
  'odd spacing': '{ "model" :"opus",\n"hooks":{ "PreToolUse" : [ ] },   "z": [1,2 ,3] }\n',
  'empty hooks object': '{\n  "hooks": {}\n}\n',
  'an empty Bash group and a byte-order mark':
    '\uFEFF{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "Bash", "hooks": [] }\n    ]\n  }\n}\n',
};

describe('install --project into existing settings, then uninstall', () => {
  test.for(Object.entries(startingFiles))('%s', async ([, before]) => {
    const root = tempTree({ '.claude/settings.json': before });
    const home = tempTree();
    const first = await cli(guard, ['install', '--project'], { cwd: root, home });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const installed = readFileSync(projectSettings(root), 'utf8');
    const document = JSON.parse(installed.replace(/^\uFEFF/, ''));
    const original = JSON.parse(before.replace(/^\uFEFF/, ''));

    // every other key keeps its value and its place; exactly one new group at the end
    expect(Object.keys(document).slice(0, Object.keys(original).length)).toEqual(Object.keys(original));
    const groups = document.hooks.PreToolUse;
    expect(groups.at(-1)).toEqual({ matcher: 'Bash', hooks: [handlerFor(root)] });
    expect(groups.slice(0, -1)).toEqual(original.hooks?.PreToolUse ?? []);
    expect({ ...document, hooks: { ...document.hooks, PreToolUse: undefined } }).toEqual({
      ...original,
      hooks: { ...original.hooks, PreToolUse: undefined },
    });
    expect(installed.endsWith(before.includes('\r\n') ? '}\r\n' : '}\n')).toBe(true);
    expect(readFileSync(projectBundle(root), 'utf8')).toBe(readFileSync(guard.bundle, 'utf8'));
    expect(readFileSync(`${projectSettings(root)}`.concat('.bak'), 'utf8')).toBe(before);

    // a second install changes nothing
    const second = await cli(guard, ['install', '--project'], { cwd: root, home });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('already installed');
    expect(readFileSync(projectSettings(root), 'utf8')).toBe(installed);

    // uninstall restores the previous content byte for byte and removes the bundle
    const removed = await cli(guard, ['uninstall', '--project'], { cwd: root, home });
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(projectSettings(root), 'utf8')).toBe(before);
    expect(existsSync(projectBundle(root))).toBe(false);
  });
});

test('the indentation of the file is kept', async () => {
  const root = tempTree({ '.claude/settings.json': startingFiles['other hooks, 4-space indent'] as string });
  await cli(guard, ['install', '--project'], { cwd: root, home: tempTree() });
  expect(readFileSync(projectSettings(root), 'utf8')).toMatch(/^\{\n {4}"env"/);
  const tabs = tempTree({ '.claude/settings.json': startingFiles['tab indent, no final newline'] as string });
  await cli(guard, ['install', '--project'], { cwd: tabs, home: tempTree() });
  expect(readFileSync(projectSettings(tabs), 'utf8')).toMatch(/^\{\n\t"model"/);
});

test('without a settings file: install creates it (2 spaces), uninstall removes it and the bundle', async () => {
  const root = tempTree({ 'README.md': 'x' });
  const home = tempTree();
  expect((await cli(guard, ['install', '--project'], { cwd: root, home })).code).toBe(0);
  expect(readFileSync(projectSettings(root), 'utf8')).toBe(
    `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [handlerFor(root)] }] } }, null, 2)}\n`,
  );
  expect(existsSync(`${projectSettings(root)}.bak`)).toBe(false);
  expect((await cli(guard, ['uninstall', '--project'], { cwd: root, home })).code).toBe(0);
  expect(existsSync(projectSettings(root))).toBe(false);
  expect(existsSync(join(root, '.claude'))).toBe(false);
  expect(existsSync(join(root, 'README.md'))).toBe(true);
});

describe('scopes', () => {
  test('--user writes ~/.claude (io.home), --local writes settings.local.json; both default to user', async () => {
    const root = tempTree();
    const home = tempTree();
    expect((await cli(guard, ['install'], { cwd: root, home })).code).toBe(0);
    const user = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'));
    expect(user.hooks.PreToolUse[0].hooks[0].args).toEqual([
      join(home, '.claude', 'hooks', 'example-guard.mjs'),
    ]);
    expect(existsSync(join(home, '.claude', 'hooks', 'example-guard.mjs'))).toBe(true);
    expect((await cli(guard, ['install', '--local'], { cwd: root, home })).code).toBe(0);
    expect(
      JSON.parse(readFileSync(join(root, '.claude', 'settings.local.json'), 'utf8')).hooks.PreToolUse[0]
        .hooks[0],
    ).toEqual(handlerFor(root));
    expect(existsSync(projectSettings(root))).toBe(false);
  });

  test('uninstall --local keeps the bundle while --project settings still use it', async () => {
    const root = tempTree();
    const home = tempTree();
    await cli(guard, ['install', '--project'], { cwd: root, home });
    await cli(guard, ['install', '--local'], { cwd: root, home });
    const result = await cli(guard, ['uninstall', '--local'], { cwd: root, home });
    expect(result.stdout).toContain('kept');
    expect(existsSync(projectBundle(root))).toBe(true);
    await cli(guard, ['uninstall', '--project'], { cwd: root, home });
    expect(existsSync(projectBundle(root))).toBe(false);
  });

  test('two scope flags are an error', async () => {
    const result = await cli(guard, ['install', '--user', '--project'], {
      cwd: tempTree(),
      home: tempTree(),
    });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'install: choose one scope, got --user and --project\n',
    });
  });
});

describe('an older entry of the same guard is upgraded in place', () => {
  const other = { type: 'command', command: 'other-guard hook' };
  const olderForms: [string, object][] = [
    ['a different timeout', { type: 'command', command: 'node', args: ['BUNDLE'], timeout: 30 }],
    [
      'a shell-form command naming the bundle',
      { type: 'command', command: 'node "/old place/example-guard.mjs"', timeout: 5 },
    ],
    [
      'a stale path',
      { type: 'command', command: 'node', args: ['/somewhere/else/example-guard.mjs'], timeout: 5 },
    ],
    ['the bin wired directly', { type: 'command', command: 'npx example-guard hook' }],
    [
      'a strict entry installed without --strict now',
      { type: 'command', command: 'node', args: ['BUNDLE'], timeout: 5, onFailure: 'block' },
    ],
  ];
  test.for(olderForms)('%s', async ([, older]) => {
    const root = tempTree();
    const entry = JSON.parse(JSON.stringify(older).replace('BUNDLE', projectBundle(root)));
    const before = {
      model: 'opus',
      hooks: {
        PreToolUse: [
          { matcher: 'Read', hooks: [{ type: 'command', command: 'r' }] },
          { matcher: 'Bash', hooks: [other, entry, other] },
        ],
      },
    };
    mkdirSync(join(root, '.claude'));
    writeFileSync(projectSettings(root), `${JSON.stringify(before, null, 2)}\n`);
    const result = await cli(guard, ['install', '--project'], { cwd: root, home: tempTree() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('handler upgraded');
    const after = JSON.parse(readFileSync(projectSettings(root), 'utf8'));
    expect(after).toEqual({
      model: 'opus',
      hooks: {
        PreToolUse: [
          before.hooks.PreToolUse[0],
          { matcher: 'Bash', hooks: [other, handlerFor(root), other] },
        ],
      },
    });
  });

  test('duplicates collapse to one, and an entry under another matcher moves to its own group', async () => {
    const root = tempTree();
    const stale = { type: 'command', command: 'node', args: ['/x/example-guard.mjs'] };
    const before = {
      hooks: {
        PreToolUse: [
          { matcher: 'Read', hooks: [stale] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'keep' }, stale] },
        ],
      },
    };
    mkdirSync(join(root, '.claude'));
    writeFileSync(projectSettings(root), JSON.stringify(before));
    await cli(guard, ['install', '--project'], { cwd: root, home: tempTree() });
    expect(JSON.parse(readFileSync(projectSettings(root), 'utf8'))).toEqual({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'keep' }] },
          { matcher: 'Bash', hooks: [handlerFor(root)] },
        ],
      },
    });
  });

  test('--strict adds onFailure block and the strict switch, and says what it costs; a plain install takes both away', async () => {
    const root = tempTree();
    const home = tempTree();
    const strict = await cli(guard, ['install', '--project', '--strict'], { cwd: root, home });
    expect(strict.stdout).toContain('BLOCKS the tool call');
    expect(strict.stdout).toContain('runs the guard with --strict (TAGOUT_HOOKS_STRICT');
    expect(JSON.parse(readFileSync(projectSettings(root), 'utf8')).hooks.PreToolUse[0].hooks[0]).toEqual(
      handlerFor(root, { args: [projectHandlerArg, '--strict'], onFailure: 'block' }),
    );
    expect((await cli(guard, ['install', '--project', '--strict'], { cwd: root, home })).stdout).toContain(
      'already installed',
    );
    await cli(guard, ['install', '--project'], { cwd: root, home });
    expect(JSON.parse(readFileSync(projectSettings(root), 'utf8')).hooks.PreToolUse[0].hooks[0]).toEqual(
      handlerFor(root),
    );
  });

  test('a guard without a strict mode refuses --strict and writes nothing', async () => {
    const root = tempTree();
    const home = tempTree();
    const failsOpen = { ...guard, strictMode: false };
    const result = await cli(failsOpen, ['install', '--project', '--strict'], { cwd: root, home });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'install: example-guard has no strict mode: it fails open on every doubt, so --strict does not apply\n',
    });
    expect(existsSync(projectSettings(root))).toBe(false);
    expect((await cli(failsOpen, ['--help'], { cwd: root, home })).stdout).not.toContain('--strict');
  });

  test('a changed bundle is copied again while the settings stay as they are', async () => {
    const root = tempTree();
    const home = tempTree();
    await cli(guard, ['install', '--project'], { cwd: root, home });
    const settings = readFileSync(projectSettings(root), 'utf8');
    writeFileSync(projectBundle(root), '// an older bundle\n');
    const again = await cli(guard, ['install', '--project'], { cwd: root, home });
    expect(again.stdout).toContain('(updated)');
    expect(readFileSync(projectBundle(root), 'utf8')).toBe(readFileSync(guard.bundle, 'utf8'));
    expect(readFileSync(projectSettings(root), 'utf8')).toBe(settings);
  });
});

describe('a settings file install cannot use is refused and left byte-identical', () => {
  const broken: [string, string, string][] = [
    ['cut JSON', '{ "hooks": ', 'is not valid JSON'],
    ['a comment', '{\n  // mine\n  "model": "opus"\n}\n', 'is not valid JSON'],
    ['an array', '[]\n', 'does not hold a JSON object'],
    ['null', 'null', 'does not hold a JSON object'],
    ['hooks is a list', '{"hooks":[]}', '"hooks" is not an object'],
    [
      'PreToolUse is an object',
      '{"hooks":{"PreToolUse":{"matcher":"Bash"}}}',
      '"hooks.PreToolUse" is not an array',
    ],
  ];
  test.for(broken)('%s', async ([, text, message]) => {
    const root = tempTree({ '.claude/settings.json': text });
    for (const argv of [
      ['install', '--project'],
      ['uninstall', '--project'],
      ['install', '--project', '--dry-run'],
    ]) {
      const result = await cli(guard, argv, { cwd: root, home: tempTree() });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(message);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(readFileSync(projectSettings(root), 'utf8')).toBe(text);
    }
    expect(existsSync(projectBundle(root))).toBe(false);
    expect(existsSync(`${projectSettings(root)}.bak`)).toBe(false);
  });
});

describe('a folder that cannot be written: one clear line, exit 1, nothing damaged', () => {
  // Tests run as root, where chmod stops nothing; these make the writes fail for any user.
  test('the project folder sits under a regular file', async () => {
    const root = tempTree({ 'not-a-folder': 'x' });
    const result = await cli(guard, ['install', '--project'], {
      cwd: join(root, 'not-a-folder', 'project'),
      home: tempTree(),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^install: cannot (read|write) .*ENOTDIR.*\n$/);
  });

  test('the hooks folder is a file: settings untouched, no backup written', async () => {
    const before = '{\n  "model": "opus"\n}\n';
    const root = tempTree({ '.claude/settings.json': before, '.claude/hooks': 'a file' });
    const result = await cli(guard, ['install', '--project'], { cwd: root, home: tempTree() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^install: cannot write .*example-guard\.mjs: .*nothing was changed\n$/);
    expect(readFileSync(projectSettings(root), 'utf8')).toBe(before);
    expect(existsSync(`${projectSettings(root)}.bak`)).toBe(false);
  });

  test('the settings write fails after the bundle was placed: the bundle is taken back', async () => {
    const before = '{\n  "model": "opus"\n}\n';
    const root = tempTree({ '.claude/settings.json': before });
    mkdirSync(`${projectSettings(root)}.bak`); // a backup that cannot be written
    const result = await cli(guard, ['install', '--project'], { cwd: root, home: tempTree() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^install: cannot write .*settings\.json: .*nothing was changed\n$/);
    expect(readFileSync(projectSettings(root), 'utf8')).toBe(before);
    expect(existsSync(projectBundle(root))).toBe(false);
  });

  const chattrWorks = (() => {
    const probe = tempTree({ f: '' });
    const ok = spawnSync('chattr', ['+i', join(probe, 'f')]).status === 0;
    if (ok) spawnSync('chattr', ['-i', join(probe, 'f')]);
    return ok;
  })();
  test.skipIf(!chattrWorks)('an immutable .claude folder (chattr +i)', async () => {
    const before = '{"model":"opus"}';
    const root = tempTree({ '.claude/settings.json': before, '.claude/hooks/keep': '' });
    execFileSync('chattr', ['+i', join(root, '.claude'), join(root, '.claude', 'hooks')]);
    try {
      const result = await cli(guard, ['install', '--project'], { cwd: root, home: tempTree() });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^install: cannot write .*\n$/);
      expect(readFileSync(projectSettings(root), 'utf8')).toBe(before);
    } finally {
      execFileSync('chattr', ['-i', join(root, '.claude'), join(root, '.claude', 'hooks')]);
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('--dry-run writes nothing', () => {
  test('install prints the change as a diff', async () => {
    const before = '{\n  "model": "opus"\n}\n';
    const root = tempTree({ '.claude/settings.json': before });
    const result = await cli(guard, ['install', '--project', '--dry-run', '--strict'], {
      cwd: root,
      home: tempTree(),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('dry run');
    expect(result.stdout).toContain('-   "model": "opus"');
    expect(result.stdout).toContain('+   "model": "opus",');
    expect(result.stdout).toContain('+             "onFailure": "block"');
    expect(readFileSync(projectSettings(root), 'utf8')).toBe(before);
    expect(existsSync(join(root, '.claude', 'hooks'))).toBe(false);
  });
  test('uninstall', async () => {
    const root = tempTree();
    const home = tempTree();
    await cli(guard, ['install', '--project'], { cwd: root, home });
    const installed = readFileSync(projectSettings(root), 'utf8');
    const result = await cli(guard, ['uninstall', '--project', '--dry-run'], { cwd: root, home });
    expect(result.stdout).toContain('dry run');
    expect(readFileSync(projectSettings(root), 'utf8')).toBe(installed);
    expect(existsSync(projectBundle(root))).toBe(true);
  });
});

describe('uninstall removes only its own handler', () => {
  test('other handlers in the same group, other groups and keys stay', async () => {
    const root = tempTree();
    const ours = handlerFor(root);
    const before = {
      a: 1,
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'x' }, ours] },
          { matcher: 'Bash', hooks: [ours] },
        ],
        Stop: [],
      },
    };
    mkdirSync(join(root, '.claude'));
    writeFileSync(projectSettings(root), JSON.stringify(before, null, 2));
    await cli(guard, ['uninstall', '--project'], { cwd: root, home: tempTree() });
    expect(readFileSync(projectSettings(root), 'utf8')).toBe(
      `${JSON.stringify({ a: 1, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x' }] }], Stop: [] } }, null, 2)}\n`,
    );
  });
  test('not installed: says so, exit 0, nothing written', async () => {
    const before = '{"model":"opus"}';
    const root = tempTree({ '.claude/settings.json': before });
    const result = await cli(guard, ['uninstall', '--project'], { cwd: root, home: tempTree() });
    expect(result).toMatchObject({
      code: 0,
      stdout: 'example-guard is not installed (project scope); nothing changed\n',
    });
    expect(readFileSync(projectSettings(root), 'utf8')).toBe(before);
  });
});

test('a matcher is any tool name or matcher expression, written as given and checked by doctor', async () => {
  for (const matcher of ['Edit|Write', 'mcp__github__create_issue']) {
    const root = tempTree();
    const home = tempTree();
    const other = { ...guard, matcher };
    expect((await cli(other, ['install', '--project'], { cwd: root, home })).code).toBe(0);
    expect(JSON.parse(readFileSync(projectSettings(root), 'utf8')).hooks.PreToolUse).toEqual([
      { matcher, hooks: [handlerFor(root)] },
    ]);
    const doctor = await cli(other, ['doctor', '--project'], { cwd: root, home });
    expect(doctor.stdout).toContain(`settings entry in ${projectSettings(root)}: matcher ${matcher}, node`);
    expect(doctor.code).toBe(0);
  }
});
