import { describe, expect, test } from 'vitest';
import { headText, unwrapLaunchers } from '../src/launchers.ts';
import { parse } from '../src/parse.ts';
import type { Segment } from '../src/types.ts';

function firstSegment(command: string): Segment {
  const outcome = parse(command);
  if (!outcome.ok || !outcome.value.segments[0]) throw new Error(`${command}: no segment`);
  return outcome.value.segments[0];
}

const unwrap = (command: string) => {
  const { head, launchers, assigns, splitString } = unwrapLaunchers(firstSegment(command).argv);
  return {
    head: head.map((word) => word.value ?? word.text).join(' '),
    launchers,
    assigns,
    split: splitString?.value ?? null,
  };
};

interface LauncherCase {
  name: string;
  commands: string[];
  head: string;
  launchers?: string[];
}

const cases: LauncherCase[] = [
  // positive control: the canonical launderings of a git push
  {
    name: 'sudo -u',
    commands: ['sudo -u x git push', 'sudo --user=x git push', 'sudo --user x git push', 'sudo -ux git push'],
    head: 'git push',
    launchers: ['sudo'],
  },
  {
    name: 'env -i with assignments',
    commands: [
      'env -i A=1 git',
      'env - A=1 git',
      'env -u HOME git',
      'env --unset=HOME git',
      'env -C /tmp git',
      '/usr/bin/env git',
    ],
    head: 'git',
    launchers: ['env'],
  },
  {
    name: 'timeout with options and a duration',
    commands: [
      'timeout -s KILL 5 git',
      'timeout 5 git',
      'timeout --signal=KILL -k 10 5m git',
      'timeout --preserve-status 5 git',
      'timeout -sKILL 5 git',
    ],
    head: 'git',
    launchers: ['timeout'],
  },
  {
    name: 'nice',
    commands: ['nice -n 10 make', 'nice make', 'nice -10 make', 'nice -n10 make', 'nice --adjustment=5 make'],
    head: 'make',
    launchers: ['nice'],
  },
  {
    name: 'stdbuf',
    commands: ['stdbuf -oL make', 'stdbuf -o L -e 0 make', 'stdbuf --output=L make'],
    head: 'make',
    launchers: ['stdbuf'],
  },
  {
    name: 'xargs',
    commands: [
      'xargs -n1 git',
      'xargs -I{} git',
      'xargs -I {} git',
      'xargs -0 -n 1 -P 4 git',
      'xargs --max-args=1 git',
      'xargs -r git',
    ],
    head: 'git',
    launchers: ['xargs'],
  },
  {
    // Each -exec action is a command line of its own (parse reads them): find is the head.
    name: 'find is not a launcher',
    commands: ['find . -name x -exec git add {} +', 'sudo find . -name x -exec git add {} +'],
    head: 'find . -name x -exec git add {} +',
  },
  { name: 'time (the program)', commands: ['time -p make', 'command time -p make'], head: 'make' },
  { name: 'nohup', commands: ['nohup make &', 'nohup -- make'], head: 'make', launchers: ['nohup'] },
  {
    name: 'exec',
    commands: ['exec make', 'exec -a name make', 'exec -c make'],
    head: 'make',
    launchers: ['exec'],
  },
  { name: 'builtin', commands: ['builtin cd'], head: 'cd', launchers: ['builtin'] },
  {
    name: 'command runs',
    commands: ['command git push', 'command -p git push'],
    head: 'git push',
    launchers: ['command'],
  },
  {
    name: 'chained',
    commands: ['sudo -u x env A=1 timeout 5 nice -n 1 git push'],
    head: 'git push',
    launchers: ['sudo', 'env', 'timeout', 'nice'],
  },
  // the other direction: no command runs, or no launcher at all
  {
    name: 'command -v is a lookup',
    commands: ['command -v git', 'command -V git', 'command -pv git'],
    head: '',
    launchers: ['command'],
  },
  {
    name: 'sudo lookups',
    commands: ['sudo -l git push', 'sudo -v', 'sudo --list', 'sudo -e /etc/hosts'],
    head: '',
    launchers: ['sudo'],
  },
  {
    name: 'a launcher with nothing to run',
    commands: ['env', 'nohup', 'timeout 5', 'env --version'],
    head: '',
  },
  {
    name: 'not launchers',
    commands: [
      'git push',
      'envsubst < a',
      'find . -name x',
      'make sudo',
      'constructor a',
      'toString a',
      '__proto__ a',
    ],
    head: '',
    launchers: [],
  },
];

describe.for(cases)('$name', ({ commands, head, launchers }) => {
  test.for(commands)('%s', (command) => {
    const result = unwrap(command);
    if (head !== '' || launchers?.length !== 0) expect(result.head).toBe(head);
    else expect(result.head).toBe(command.replace(/ <.*/, ''));
    if (launchers) expect(result.launchers).toEqual(launchers);
  });
});

test('env and sudo assignments are collected, dynamic ones with their source text', () => {
  expect(unwrap('sudo A=1 env -i B="two words" C=$x git').assigns).toEqual([
    { name: 'A', value: '1' },
    { name: 'B', value: 'two words' },
    { name: 'C', value: '$x' },
  ]);
});

test('env -S: the string leads the head and is returned for re-parsing', () => {
  expect(unwrap("env -S 'git push' origin")).toMatchObject({
    head: 'git push origin',
    split: 'git push',
    launchers: ['env'],
  });
  expect(unwrap("env -iS'git push'")).toMatchObject({ head: 'git push', split: 'git push' });
  expect(unwrap("env --split-string='git push'")).toMatchObject({ split: 'git push' });
});

describe('roots: chroot NEWROOT, and whether it moves to that root', () => {
  const rootsOf = (command: string) =>
    unwrapLaunchers(firstSegment(command).argv).roots.map(({ word, chdir, at }) => [word.value, chdir, at]);
  test.for([
    ['chroot /srv git push', [['/srv', true, 0]]],
    ['chroot --skip-chdir / git push', [['/', false, 0]]],
    ['chroot --userspec=0:0 /srv git push', [['/srv', true, 0]]],
    ['env -C /a chroot /srv git push', [['/srv', true, 1]]],
  ] as const)('%s -> %j', ([command, want]) => expect(rootsOf(command)).toEqual(want));
  test.for(['env -C /srv git push', 'sudo git push', 'chroot --help'])('%s -> none', (command) =>
    expect(rootsOf(command)).toEqual([]),
  );
});

describe('directories: where a launcher runs the command (env -C, sudo -D)', () => {
  const directoriesOf = (command: string) =>
    unwrapLaunchers(firstSegment(command).argv).directories.map((word) => word.value);
  test.for([
    ['env -C /repo git push', ['/repo']],
    ['env --chdir=/repo git push', ['/repo']],
    ['env --chdir /repo git push', ['/repo']],
    ['env -iC/repo git push', ['/repo']],
    ['sudo -D /repo git push', ['/repo']],
    ['sudo -u x --chdir=/repo git push', ['/repo']],
    ['sudo -D /a env -C b git push', ['/a', 'b']],
    ['env -C "$DIR" git push', [null]],
  ] as const)('%s -> %j', ([command, want]) => expect(directoriesOf(command)).toEqual(want));
  test.for([
    'env git push',
    'env -u C git push',
    'sudo -u D git push',
    'cd /repo',
    'git -C /repo push',
    'timeout -s C 5 git',
  ])('%s -> none', (command) => expect(directoriesOf(command)).toEqual([]));
});

test('a dynamic word where an option could stand ends the unwrapping', () => {
  expect(unwrap('timeout $opts 5 git')).toMatchObject({ head: '$opts 5 git', launchers: ['timeout'] });
});

describe('headText', () => {
  test.for([
    ['GIT_GATE=off git push origin main', 'git push origin main'],
    ['sudo -u x "git" push', 'git push'],
    ['g\\it push', 'git push'],
    ['/usr/bin/git push', '/usr/bin/git push'],
    ['git commit -m "$(date)"', 'git commit -m "$(date)"'],
    ['> out.log', ''],
  ])('%s -> %s', ([command, head]) => {
    expect(headText(firstSegment(command as string))).toBe(head);
  });
});
