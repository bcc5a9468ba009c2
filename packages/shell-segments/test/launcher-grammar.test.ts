import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { unwrapLaunchers } from '../src/launchers.ts';
import { parse } from '../src/parse.ts';

// Each launcher read with its own option table, as the tool reads it. Every row names the command
// `rec a b` (or names none): where the tool is installed, the row is also run for real with a
// `rec` stub first on PATH, and what really ran must be what the head says.

interface GrammarRow {
  tool: string;
  commands: string[];
  head: 'rec a b' | '' | string; // '' : the tool runs no command of its own
  shellString?: 'rec a b'; // flock/script -c: the string a shell runs
  run?: false; // not run for real (needs a terminal, a fork, another PATH, or a tool this machine lacks)
}

const rows: GrammarRow[] = [
  // positive control: the tool runs the command after its options
  { tool: 'env', head: 'rec a b', commands: ['env rec a b', 'env -i PATH="$PATH" RECORD="$RECORD" rec a b'] },
  {
    tool: 'env',
    head: 'rec a b',
    commands: [
      'env - PATH="$PATH" RECORD="$RECORD" rec a b',
      'env -u HOME rec a b',
      'env --unset=HOME rec a b',
      'env --un HOME rec a b',
      'env -C / rec a b',
      'env --ch=/ rec a b',
      "env 'a b=c' rec a b",
      'env -- A=1 rec a b',
      'env -v rec a b',
      'env --block-signal rec a b',
      'env --default-signal=INT rec a b',
    ],
  },
  { tool: 'env', head: '', commands: ['env --help', 'env --vers', 'env --i rec a b', 'env A=1'] },
  {
    tool: 'nice',
    head: 'rec a b',
    commands: [
      'nice rec a b',
      'nice -n 5 rec a b',
      'nice -n5 rec a b',
      'nice -5 rec a b',
      'nice --5 rec a b',
      'nice --adj=3 rec a b',
      'nice --adjustment 3 rec a b',
    ],
  },
  { tool: 'nice', head: '', commands: ['nice --help', 'nice --ver', 'nice -n 5'] },
  {
    tool: 'timeout',
    head: 'rec a b',
    commands: [
      'timeout 5 rec a b',
      'timeout -s KILL 5 rec a b',
      'timeout -sKILL 5 rec a b',
      'timeout --sig=KILL 5 rec a b',
      'timeout --k 1 5 rec a b',
      'timeout --fore 5 rec a b',
      'timeout -v 5 rec a b',
      'timeout --preserve-status 5 rec a b',
    ],
  },
  { tool: 'timeout', head: '', commands: ['timeout 5', 'timeout --help', 'timeout --v 5 rec a b'] },
  { tool: 'nohup', head: 'rec a b', commands: ['nohup rec a b', 'nohup -- rec a b'] },
  { tool: 'nohup', head: '', commands: ['nohup --help', 'nohup --vers'] },
  {
    tool: 'stdbuf',
    head: 'rec a b',
    commands: [
      'stdbuf -oL rec a b',
      'stdbuf -o L -e 0 rec a b',
      'stdbuf --output=L rec a b',
      'stdbuf --out L rec a b',
    ],
  },
  { tool: 'stdbuf', head: '', commands: ['stdbuf --help', 'stdbuf -oL'] },
  {
    tool: 'time',
    head: 'rec a b',
    commands: [
      'command time -p rec a b',
      '/usr/bin/time -f %e rec a b',
      '/usr/bin/time --format=%e rec a b',
      '/usr/bin/time -o /dev/null rec a b',
      '/usr/bin/time -a -o /dev/null rec a b',
      '/usr/bin/time -q rec a b',
    ],
  },
  { tool: 'time', head: '', commands: ['/usr/bin/time -V', '/usr/bin/time --help'] },
  { tool: 'command', head: 'rec a b', commands: ['command rec a b', 'command -- rec a b'] },
  { tool: 'command', head: 'rec a b', commands: ['command -p rec a b'], run: false }, // -p: the default PATH
  {
    tool: 'command',
    head: '',
    commands: ['command -v rec a b', 'command -V rec a b', 'command -pv rec a b'],
  },
  { tool: 'exec', head: 'rec a b', commands: ['exec rec a b', 'exec -a name rec a b', 'exec -l rec a b'] },
  { tool: 'exec', head: '', commands: ['exec', 'exec -a name'] },
  {
    tool: 'xargs',
    head: 'rec a b',
    commands: [
      'xargs rec a b',
      'xargs -0 rec a b',
      'xargs -n 1 rec a b',
      'xargs -n1 rec a b',
      'xargs -i rec a b',
      'xargs -i{} rec a b',
      'xargs -I {} rec a b',
      'xargs -IX rec a b',
      'xargs -e rec a b',
      'xargs -eEOF rec a b',
      'xargs -E EOF rec a b',
      'xargs -l rec a b',
      'xargs -l1 rec a b',
      'xargs -L 1 rec a b',
      'xargs --max-args=1 rec a b',
      'xargs --max-a 1 rec a b',
      'xargs -P 2 rec a b',
      'xargs -d , rec a b',
      'xargs --replace rec a b',
      'xargs -t rec a b',
      'xargs --show-limits rec a b',
    ],
  },
  { tool: 'xargs', head: '', commands: ['xargs --help', 'xargs --version', 'xargs --max 1 rec a b'] },
  {
    tool: 'setsid',
    head: 'rec a b',
    commands: ['setsid rec a b', 'setsid -w rec a b', 'setsid --wait rec a b', 'setsid --w rec a b'],
  },
  { tool: 'setsid', head: 'rec a b', commands: ['setsid -f rec a b', 'setsid -c rec a b'], run: false },
  { tool: 'setsid', head: '', commands: ['setsid --help', 'setsid -V'] },
  {
    tool: 'ionice',
    head: 'rec a b',
    commands: [
      'ionice rec a b',
      'ionice -c 3 rec a b',
      'ionice -c3 rec a b',
      'ionice --class 3 rec a b',
      'ionice --classd 4 -c 2 rec a b',
      'ionice -t -c 3 rec a b',
    ],
  },
  {
    tool: 'ionice',
    head: '',
    commands: ['ionice -p 1', 'ionice --pid 1', 'ionice -P 1', 'ionice --cl=3 rec a b', 'ionice -V'],
  },
  {
    tool: 'chrt',
    head: 'rec a b',
    commands: [
      'chrt --other 0 rec a b',
      'chrt -o 0 rec a b',
      'chrt -b 0 rec a b',
      'chrt --idle 0 rec a b',
      'chrt -v -o 0 rec a b',
    ],
  },
  { tool: 'chrt', head: '', commands: ['chrt -p 1', 'chrt -m', 'chrt --max', 'chrt -o 0'] },
  {
    tool: 'taskset',
    head: 'rec a b',
    commands: ['taskset 1 rec a b', 'taskset -c 0 rec a b', 'taskset --cpu-list 0 rec a b'],
  },
  { tool: 'taskset', head: '', commands: ['taskset -p 1', 'taskset -pc 0 1', 'taskset --help'] },
  {
    tool: 'flock',
    head: 'rec a b',
    commands: [
      'flock lock rec a b',
      'flock -n lock rec a b',
      'flock -w 5 lock rec a b',
      'flock -w5 lock rec a b',
      'flock --timeout 5 lock rec a b',
      'flock --time=5 lock rec a b',
      'flock -s lock rec a b',
      'flock -E 3 lock rec a b',
      'flock -o lock rec a b',
    ],
  },
  {
    tool: 'flock',
    head: '',
    shellString: 'rec a b',
    commands: ["flock lock -c 'rec a b'", "flock -n lock --command 'rec a b'"],
  },
  { tool: 'flock', head: '', commands: ['flock --help', 'flock --n lock rec a b', 'flock lock'] },
  {
    tool: 'script',
    head: '',
    shellString: 'rec a b',
    commands: [
      "script -qc 'rec a b' /dev/null",
      "script -q /dev/null -c 'rec a b'",
      "script --command='rec a b' -q /dev/null",
      "script -qec'rec a b' /dev/null",
    ],
  },
  { tool: 'script', head: '', commands: ['script -q /dev/null', 'script --help'], run: false },
  // sudo: parse_args.c (not installed here)
  {
    tool: 'sudo',
    head: 'rec a b',
    run: false,
    commands: [
      'sudo rec a b',
      'sudo -u root rec a b',
      'sudo -uroot rec a b',
      'sudo --user=root rec a b',
      'sudo --user root rec a b',
      'sudo --us root rec a b',
      'sudo --us=root rec a b',
      'sudo -h host rec a b',
      'sudo -hhost rec a b',
      'sudo --host=host rec a b',
      'sudo A=1 -u root rec a b',
      'sudo -u root A=1 rec a b',
      "sudo 'a b=c' rec a b",
      'sudo -E rec a b',
      'sudo --preserve-env=PATH rec a b',
      'sudo -k rec a b',
      'sudo -s rec a b',
      'sudo -i rec a b',
      'sudo -nu root rec a b',
      'sudo -D /tmp rec a b',
      'sudo -g wheel rec a b',
      "sudo -p '' rec a b",
      'sudo -T 5 rec a b',
      'sudo -- rec a b',
    ],
  },
  {
    tool: 'sudo',
    head: 'A=1 rec a b',
    run: false,
    commands: ['sudo -- A=1 rec a b', 'sudo -u root -- A=1 rec a b'],
  },
  { tool: 'sudo', head: 'a b', run: false, commands: ['sudo -h rec a b'] }, // `-h WORD`: WORD is the host
  {
    tool: 'sudo',
    head: '',
    run: false,
    commands: [
      'sudo -h',
      'sudo --help',
      'sudo -l rec a b',
      'sudo -nl rec a b',
      'sudo -e file',
      'sudo -v',
      'sudo -K',
      'sudo -V',
      'sudo -nh',
      'sudo --pr x rec a b',
      'sudo --re rec a b',
      'sudo -k',
    ],
  },
  // doas: OpenBSD doas.c (+C:Lnsu:)
  {
    tool: 'doas',
    head: 'rec a b',
    run: false,
    commands: ['doas rec a b', 'doas -u root rec a b', 'doas -n rec a b', 'doas -nu root rec a b'],
  },
  { tool: 'doas', head: '', run: false, commands: ['doas -s', 'doas -L', 'doas -C /etc/doas.conf rec a b'] },
  // util-linux runuser / su (su-common.c: c:fg:G:lmpPs:u:hVw:): -u runs the words, -c a string
  {
    tool: 'runuser',
    head: 'rec a b',
    run: false, // needs root
    commands: ['runuser -u root rec a b', 'runuser -u root -- rec a b', 'runuser -l -u root rec a b'],
  },
  {
    tool: 'runuser',
    head: '',
    shellString: 'rec a b',
    run: false,
    commands: ["runuser -c 'rec a b' root", "runuser root -c 'rec a b'", "su - root -c 'rec a b'"],
  },
  {
    tool: 'runuser',
    head: '',
    run: false,
    commands: ['runuser root', 'runuser --help', 'su -', 'su root x'],
  },
  // coreutils chroot NEWROOT [COMMAND]
  {
    tool: 'chroot',
    head: 'rec a b',
    run: false,
    commands: ['chroot / rec a b', 'chroot --skip-chdir / rec a b', 'chroot --userspec=0:0 / rec a b'],
  },
  { tool: 'chroot', head: '', run: false, commands: ['chroot --help', 'chroot /'] },
  // util-linux unshare, fakeroot, prlimit, setpriv
  {
    tool: 'unshare',
    head: 'rec a b',
    run: false,
    commands: ['unshare -r rec a b', 'unshare --mount --fork rec a b', 'unshare -R / -w /tmp rec a b'],
  },
  { tool: 'unshare', head: '', commands: ['unshare --help', 'unshare -V'] },
  {
    tool: 'fakeroot',
    head: 'rec a b',
    run: false,
    commands: ['fakeroot rec a b', 'fakeroot -u -- rec a b', 'fakeroot -s state rec a b'],
  },
  { tool: 'fakeroot', head: '', commands: ['fakeroot --help', 'fakeroot -v'] },
  {
    tool: 'prlimit',
    head: 'rec a b',
    run: false,
    commands: ['prlimit rec a b', 'prlimit --nofile=1024 rec a b', 'prlimit -n1024 -c rec a b'],
  },
  { tool: 'prlimit', head: '', commands: ['prlimit -p 1', 'prlimit --pid 1 rec a b', 'prlimit --help'] },
  {
    tool: 'setpriv',
    head: 'rec a b',
    run: false,
    commands: ['setpriv rec a b', 'setpriv --reuid=0 --clear-groups rec a b', 'setpriv --nnp rec a b'],
  },
  { tool: 'setpriv', head: '', commands: ['setpriv -d', 'setpriv --dump rec a b', 'setpriv --list-caps'] },
];

function unwrapped(command: string) {
  const outcome = parse(command);
  const segment = outcome.ok ? outcome.value.segments[0] : undefined;
  if (!segment) throw new Error(`${command}: no segment`);
  const result = unwrapLaunchers(segment.argv);
  return {
    head: result.head.map((word) => word.value ?? word.text).join(' '),
    shellString: result.shellString?.value ?? null,
  };
}

const all = rows.flatMap((row) => row.commands.map((command) => ({ ...row, command })));

describe('each launcher reads its own options', () => {
  test.for(all)('$command', ({ command, head, shellString }) => {
    expect(unwrapped(command)).toEqual({ head, shellString: shellString ?? null });
  });
  test('no command appears twice', () =>
    expect(new Set(all.map((row) => row.command)).size).toBe(all.length));
  test('every tool has rows in both directions', () => {
    for (const tool of new Set(rows.map((row) => row.tool))) {
      const heads = rows
        .filter((row) => row.tool === tool)
        .map((row) => (row.head === '' && !row.shellString ? 'none' : 'runs'));
      expect(new Set(heads), tool).toEqual(new Set(['none', 'runs']));
    }
  });
});

// The same rows run for real: the stub records what ran; a row whose head is empty must run nothing.
const scratch = mkdtempSync(join(tmpdir(), 'kit-launchers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const stubDir = join(scratch, 'bin');
spawnSync('mkdir', ['-p', stubDir]);
writeFileSync(join(stubDir, 'rec'), '#!/bin/bash\necho "rec $*" >> "$RECORD"\n');
chmodSync(join(stubDir, 'rec'), 0o755);
const installed = (tool: string) =>
  tool === 'command' ||
  tool === 'exec' ||
  spawnSync('bash', ['-c', `command -v ${tool === 'time' ? '/usr/bin/time' : tool}`]).status === 0;
const runnable = all.filter((row) => row.run !== false && installed(row.tool));

describe.skipIf(runnable.length === 0)('what really runs is what the head says', () => {
  test.for(runnable)('$command', ({ command, head, shellString }, { task }) => {
    const record = join(scratch, `record-${task.id}`);
    spawnSync('bash', ['-c', command], {
      cwd: scratch,
      input: 'x\n',
      env: { ...process.env, PATH: `${stubDir}:${process.env.PATH}`, RECORD: record, SHELL: '/bin/bash' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    const ran = existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n')[0] : null;
    const want = shellString ?? (head === '' ? null : head);
    if (want === null) expect(ran).toBeNull();
    else expect(ran?.startsWith(want), `${command} ran ${ran}`).toBe(true);
  });
});
