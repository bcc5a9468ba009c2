import type { HookInput } from '@kit/gate-approval';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../src/evaluate.ts';
import { judgeFailedPayload } from '../src/strict-policy.ts';
import { bashCall, fakeContext } from './fake-context.ts';

const strict = { TAGOUT_HOOKS_STRICT: '1' };
const overLong = `git status ${'x'.repeat(70 * 1024)}`;
// One command past each of the limits the gate reads a command under (src/limits.ts).
const pastLimits: [string, string][] = [
  ['over 65536 characters', `git status ${'x'.repeat(65_600)}`],
  ['deeper than 8 levels', `${'eval '.repeat(9)}git push`],
  [
    'functions that call each other more than 8 deep',
    `${Array.from({ length: 10 }, (_, i) => `f${i}() { cd sub; f${i + 1}; }`).join('; ')}; f0; git push`,
  ],
];

/** A path strict mode refuses, and its twin that passes (unmanaged, or not git-looking). */
interface StrictPath {
  name: string;
  refused: { input: HookInput; raw?: string };
  twin: { input: HookInput; raw?: string };
}

const notBash: HookInput = {
  session_id: 's',
  hook_event_name: 'PreToolUse',
  tool_name: 'BashOutput',
  tool_input: { bash_id: 'git-1' },
  cwd: '/repos/managed',
};

const strictPaths: StrictPath[] = [
  {
    name: 'a payload with no command string, raw text git-looking',
    refused: {
      input: { ...bashCall('x'), tool_input: { cmd: 'git push' } },
      raw: '{"tool_input":{"cmd":"git push"}}',
    },
    twin: { input: { ...bashCall('x'), tool_input: { cmd: 'ls' } }, raw: '{"tool_input":{"cmd":"ls"}}' },
  },
  {
    name: 'another tool than exactly Bash, raw text git-looking',
    refused: { input: notBash, raw: JSON.stringify(notBash) },
    twin: {
      input: { ...notBash, tool_input: { bash_id: 'b1' } },
      raw: JSON.stringify({ ...notBash, tool_input: { bash_id: 'b1' } }),
    },
  },
  {
    name: 'a missing cwd',
    refused: { input: { ...bashCall('git push'), cwd: undefined } },
    twin: { input: { ...bashCall('ls'), cwd: undefined } },
  },
  {
    name: 'a cwd that is not a directory',
    refused: { input: bashCall('git status', '/repos/managed/notes.txt') },
    twin: { input: bashCall('ls', '/repos/managed/notes.txt') },
  },
  {
    name: 'a cwd that does not exist',
    refused: { input: bashCall('git status', '/repos/gone') },
    twin: { input: bashCall('make', '/repos/gone') },
  },
  {
    name: 'an unparseable command',
    refused: { input: bashCall('git commit -m "unclosed') },
    twin: { input: bashCall('git commit -m "unclosed', '/repos/plain') },
  },
  {
    name: 'an unparseable command outside any repository',
    refused: { input: bashCall('git log )(') },
    twin: { input: bashCall('git log )(', '/outside/work') },
  },
  {
    name: 'an over-long command',
    refused: { input: bashCall(overLong) },
    twin: { input: bashCall(overLong, '/repos/plain') },
  },
  {
    name: 'a nested string that cannot be parsed',
    refused: { input: bashCall(`bash -c 'git commit -m "unclosed'`) },
    twin: { input: bashCall(`bash -c 'git commit -m "unclosed'`, '/repos/plain') },
  },
  {
    name: 'a nested string that is an expansion',
    refused: { input: bashCall('eval "$git_command"') },
    twin: { input: bashCall('eval "$git_command"', '/outside/work') },
  },
  {
    name: 'a shell -c string that is an expansion',
    refused: { input: bashCall('bash -lc "$git_command"') },
    twin: { input: bashCall('bash -lc "$git_command"', '/repos/plain') },
  },
  {
    name: 'an ssh ProxyCommand that is an expansion (it runs here)',
    refused: { input: bashCall('ssh -o "ProxyCommand=$git_proxy" host uptime') },
    twin: { input: bashCall('ssh -o "ProxyCommand=$git_proxy" host uptime', '/repos/plain') },
  },
  {
    name: 'arguments xargs or find -exec supply at run time',
    refused: { input: bashCall('git ls-files | xargs git checkout --') },
    twin: { input: bashCall('git ls-files | xargs git checkout --', '/repos/plain') },
  },
  {
    name: 'a command name that is an expansion',
    refused: { input: bashCall('$git push') },
    twin: { input: bashCall('$git push', '/repos/plain') },
  },
  {
    name: 'a git subcommand that is an expansion',
    refused: { input: bashCall('git "$action" origin main') },
    twin: { input: bashCall('git "$action" origin main', '/repos/plain') },
  },
  {
    name: 'an expansion that could be --hard',
    refused: { input: bashCall('git reset $MODE') },
    twin: { input: bashCall('git reset $MODE', '/outside/work') },
  },
  {
    name: 'a script a shell reads that is only known at run time',
    refused: { input: bashCall('git show HEAD:deploy.sh | bash') },
    twin: { input: bashCall('git show HEAD:deploy.sh | bash', '/repos/plain') },
  },
  {
    name: 'a heredoc script with an expansion',
    refused: { input: bashCall('sh <<EOF\ngit push $remote\nEOF') },
    twin: { input: bashCall('sh <<EOF\ngit push $remote\nEOF', '/outside/work') },
  },
  {
    name: 'a command name that is a variable holding git',
    refused: { input: bashCall('g=git; $g push') },
    twin: { input: bashCall('g=git; $g push', '/repos/plain') },
  },
  {
    name: 'the positional parameters as the command',
    refused: { input: bashCall('set -- git push; "$@"') },
    twin: { input: bashCall('set -- git push; "$@"', '/repos/plain') },
  },
  {
    name: 'an array as the command',
    refused: { input: bashCall('a=(git push); "${a[@]}"') },
    twin: { input: bashCall('a=(git push); "${a[@]}"', '/repos/plain') },
  },
  {
    name: 'a function that runs its arguments',
    refused: { input: bashCall('run() { "$@"; }; run git push') },
    twin: { input: bashCall('run() { "$@"; }; run git push', '/repos/plain') },
  },
  {
    name: 'a command substitution as the command name',
    refused: { input: bashCall('$(echo git) push') },
    twin: { input: bashCall('$(echo git) push', '/repos/plain') },
  },
  {
    name: 'a brace expansion as the command name',
    refused: { input: bashCall('{git,push} origin') },
    twin: { input: bashCall('{git,push} origin', '/repos/plain') },
  },
  {
    name: 'an alias the line defines',
    refused: { input: bashCall('alias g=git; g push') },
    twin: { input: bashCall('alias g=git; g push', '/repos/plain') },
  },
  {
    name: 'xargs supplying the subcommand',
    refused: { input: bashCall('echo push | xargs git') },
    twin: { input: bashCall('echo push | xargs git', '/repos/plain') },
  },
  {
    name: 'xargs -I putting its input where the subcommand stands',
    refused: { input: bashCall('xargs -I{} git {} origin < subcommands.txt') },
    twin: { input: bashCall('xargs -I{} git {} origin < subcommands.txt', '/repos/plain') },
  },
  {
    name: '-c alias only known at run time',
    refused: { input: bashCall('git -c "alias.x=$v" x') },
    twin: { input: bashCall('git -c "alias.x=$v" x', '/repos/plain') },
  },
  {
    name: 'GIT_CONFIG_COUNT/KEY/VALUE handing an alias only known at run time',
    refused: {
      input: bashCall('GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0="$v" git x'),
    },
    twin: {
      input: bashCall(
        'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0="$v" git x',
        '/repos/plain',
      ),
    },
  },
  {
    name: 'GIT_CONFIG_PARAMETERS exported earlier on the line',
    refused: { input: bashCall(`export GIT_CONFIG_PARAMETERS="'alias.x=commit'"; git x`) },
    twin: { input: bashCall(`export GIT_CONFIG_PARAMETERS="'alias.x=commit'"; git x`, '/repos/plain') },
  },
  {
    name: 'config only known at run time in front of git clean',
    refused: { input: bashCall('git -c "$cfg" clean -d') },
    twin: { input: bashCall('git -c "$cfg" clean -d', '/repos/plain') },
  },
  {
    name: 'pathspecs read from a file',
    refused: { input: bashCall('git restore --pathspec-from-file=list.txt') },
    twin: { input: bashCall('git restore --pathspec-from-file=list.txt', '/repos/plain') },
  },
  {
    name: 'a write whose --git-dir is an expansion (the repository it writes is not known)',
    refused: { input: bashCall('git --git-dir=$HOME/.cfg/ --work-tree=$HOME commit -qm x') },
    twin: { input: bashCall('git --git-dir=$HOME/.cfg/ --work-tree=$HOME status') },
  },
  {
    name: 'a cd into a managed repository, then a nested string that cannot be parsed',
    refused: { input: bashCall(`cd /repos/managed && sh -c 'git push "'`, '/outside/work') },
    twin: { input: bashCall(`cd /repos/plain && sh -c 'git push "'`, '/outside/work') },
  },
];

const judge = ({ input, raw }: { input: HookInput; raw?: string }, env: Record<string, string>) =>
  evaluate(input, fakeContext(env, undefined, raw));

describe('past a limit the command cannot be judged, and the reason names the limit', () => {
  test.for(pastLimits)('%s: refused in strict mode where managed, its twin passes', ([limit, command]) => {
    const verdict = evaluate(bashCall(command), fakeContext(strict));
    expect(verdict.kind).toBe('refuse');
    expect('reason' in verdict ? verdict.reason : '').toContain(limit.split(' ').slice(-2).join(' '));
    expect(evaluate(bashCall(command, '/repos/plain'), fakeContext(strict)).kind).not.toBe('refuse');
    expect(['none', 'cannotJudge']).toContain(evaluate(bashCall(command), fakeContext()).kind);
  });
  test('control: just within the limits, a write is still denied', () => {
    expect(evaluate(bashCall(`${'git status; '.repeat(5000)}git push`), fakeContext(strict)).kind).toBe(
      'deny',
    );
  });
});

describe.for(strictPaths)('$name', ({ refused, twin }) => {
  test('strict: refused', () => {
    const verdict = judge(refused, strict);
    expect(verdict.kind).toBe('refuse');
    expect(verdict).toMatchObject({
      reason: expect.stringMatching(/^git-write-gate: cannot judge .*\(strict mode\)/),
    });
  });
  test('strict: its twin passes', () => expect(['none', 'cannotJudge']).toContain(judge(twin, strict).kind));
  test('default: no opinion', () => expect(['none', 'cannotJudge']).toContain(judge(refused, {}).kind));
});

// Step 3: strict mode refuses only what it cannot judge. A read subcommand is a read whatever
// repository its global options name, expansions included (a dotfiles repository in $HOME).
const readsWithDynamicGlobals = [
  'git --git-dir=$HOME/.cfg/ --work-tree=$HOME status',
  'git --git-dir=$HOME/.cfg/ --work-tree=$HOME log --oneline',
  'git --git-dir=$HOME/.cfg/ --work-tree=$HOME submodule status',
  'git "--git-dir=$HOME/.cfg" --work-tree="$HOME" diff',
  '/usr/bin/git --work-tree=$HOME --git-dir $HOME/.cfg status',
];
const writesWithDynamicGlobals = [
  'git --git-dir=$HOME/.cfg/ --work-tree=$HOME commit -qm x',
  'git --git-dir=$HOME/.cfg/ --work-tree=$HOME push',
  'git $opts status', // the expansion may be the subcommand itself
];

describe('strict: a read is judged whatever its global options carry', () => {
  test.for(readsWithDynamicGlobals)('%s: passes in a managed repository', (command) => {
    expect(evaluate(bashCall(command), fakeContext(strict)).kind).toBe('none');
  });
  test.for(writesWithDynamicGlobals)('%s: refused (cannot judge where it writes)', (command) => {
    expect(evaluate(bashCall(command), fakeContext(strict)).kind).toBe('refuse');
  });
});

describe('runHook fail-open paths (not JSON, not an object, stdin unreadable) in strict mode', () => {
  test.for(['invalid-json', 'not-an-object', 'stdin-too-large', 'stdin-timeout', 'threw'])(
    '%s: git-looking raw text is refused',
    (cause) => {
      expect(judgeFailedPayload('{"tool_input":{"command":"git push"', strict, cause)?.kind).toBe('refuse');
    },
  );
  test('a backslash (a JSON escape) is git-looking', () => {
    expect(judgeFailedPayload('{"command":"echo \\"hi\\""', strict, 'invalid-json')?.kind).toBe('refuse');
  });
  test('raw text that is not git-looking: no opinion', () => {
    expect(judgeFailedPayload('{"tool_input":{"command":"ls"', strict, 'invalid-json')).toBeUndefined();
  });
  test('default mode: no opinion even for git-looking raw text', () => {
    expect(judgeFailedPayload('{"tool_input":{"command":"git push"', {}, 'invalid-json')).toBeUndefined();
  });
});

describe('a nested refusal makes the whole line cannot-judge, but a judged write still denies', () => {
  test('a judged write beside an unjudgeable nested string denies', () => {
    expect(evaluate(bashCall('git push; eval "$X"'), fakeContext(strict)).kind).toBe('deny');
  });
  test('a nested write is a deny, not a refusal', () => {
    expect(evaluate(bashCall(`bash -c 'git push'`), fakeContext(strict)).kind).toBe('deny');
  });
  test('a readable nested read passes in strict mode', () => {
    expect(evaluate(bashCall(`bash -c 'git status'`), fakeContext(strict)).kind).toBe('none');
  });
});

describe('default mode: every fail-open path is silent, beside a control that still denies', () => {
  const failOpen: [string, HookInput][] = [
    ['no command', { ...bashCall('x'), tool_input: {} }],
    ['a numeric command', { ...bashCall('x'), tool_input: { command: 42 } }],
    ['tool Bash in another case', { ...bashCall('git push'), tool_name: 'bash' }],
    ['no tool_input', { ...bashCall('x'), tool_input: undefined }],
    ['missing cwd', { ...bashCall('git push'), cwd: undefined }],
    ['relative cwd', bashCall('git push', 'repos/managed')],
    ['cwd is a file', bashCall('git push', '/repos/managed/notes.txt')],
    ['unparseable', bashCall('git push "')],
    ['over-long', bashCall(`git push ${'x'.repeat(70 * 1024)}`)],
    ['nested unparseable', bashCall(`bash -c 'git push "'`)],
    ['nested expansion', bashCall('eval "$X git"')],
    ['dynamic command name', bashCall('"$git" push')],
  ];
  test.for(failOpen)('%s: no opinion', ([, input]) =>
    expect(['none', 'cannotJudge']).toContain(evaluate(input, fakeContext()).kind),
  );
  test('control: the same payload shape with a readable git push denies', () =>
    expect(evaluate(bashCall('git push'), fakeContext()).kind).toBe('deny'));
});
