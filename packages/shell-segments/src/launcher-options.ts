// Each launcher's own option table, as the tool itself reads it (getopt / getopt_long): taken from
// coreutils' and util-linux's --help and man pages, findutils' xargs.c, sudo's parse_args.c,
// OpenBSD's doas.c and bash's builtins. A table is data: the reader is launchers.ts.

/** Whether an option takes a value: no, one (attached or the next word), or only an attached one (`-i{}`, `--eof=x`). */
export type ArgKind = 'none' | 'required' | 'optional';

/** What an option means to the reader, beyond skipping it. */
export type OptionEffect =
  | 'stop' // the tool runs no command: a query, help, version, a pid mode, a check mode
  | 'split' // env -S 'str': a command line in one word
  | 'chdir' // env -C DIR, sudo -D DIR: the command runs in DIR
  | 'keep-directory' // chroot --skip-chdir: the command runs where the caller was, not at the new root
  | 'shell-string' // script -c 'str': the command line a shell runs
  | 'host'; // sudo -h: help alone, a host when a plain word follows

/** One option of a launcher. */
export interface OptionSpec {
  arg: ArgKind;
  effect?: OptionEffect;
}

/** How one launcher reads its own words before the command it runs. */
export interface LauncherSpec {
  short: Readonly<Record<string, OptionSpec>>; // by letter
  long: Readonly<Record<string, OptionSpec>>; // by full name; a unique prefix also names it (getopt_long)
  permute?: boolean; // options may follow operands (script): GNU getopt without '+'
  numeric?: boolean; // nice -10, nice --10, nice -+10: a legacy adjustment
  assigns?: 'env' | 'sudo'; // NAME=value operands: after the options (env), or among them until `--` (sudo)
  operands?: number; // positional operands before the command (timeout DURATION, chrt PRIORITY, flock FILE)
  commandString?: boolean; // flock FILE -c 'str': after the operand, `-c` / `--command` hands a string to a shell
  command?: 'none'; // script: no command words of its own (only -c's string)
  suCommand?: boolean; // runuser/su: command words only after `-u user` (else operands are a user and shell arguments)
  root?: boolean; // chroot: the first operand is the root the command (git included) is found and runs in
}

const none: OptionSpec = { arg: 'none' };
const required: OptionSpec = { arg: 'required' };
const optional: OptionSpec = { arg: 'optional' };
const stop: OptionSpec = { arg: 'none', effect: 'stop' };
const stopWithValue: OptionSpec = { arg: 'required', effect: 'stop' };

/** Short options from getopt's spelling: `ab:c::` is a flag, one with a value, one with an optional attached value. */
function shortOptions(
  spelling: string,
  effects: Record<string, OptionSpec> = {},
): Record<string, OptionSpec> {
  const table: Record<string, OptionSpec> = {};
  for (const match of spelling.matchAll(/([^:])(:{0,2})/g)) {
    const letter = match[1] as string;
    const colons = (match[2] as string).length;
    table[letter] = effects[letter] ?? (colons === 0 ? none : colons === 1 ? required : optional);
  }
  return table;
}

const gnuStandard = { help: stop, version: stop };

/** runuser and su: `-u user command…` runs the words; `-c str` hands a string to a shell; `-` is a login. */
function suSpec(): LauncherSpec {
  return {
    short: shortOptions('c:fg:G:lmpPs:u:hVw:', {
      c: { arg: 'required', effect: 'shell-string' },
      h: stop,
      V: stop,
    }),
    long: {
      command: { arg: 'required', effect: 'shell-string' },
      'session-command': { arg: 'required', effect: 'shell-string' },
      fast: none,
      group: required,
      'supp-group': required,
      login: none,
      'preserve-environment': none,
      pty: none,
      shell: required,
      user: required,
      'whitelist-environment': required,
      ...gnuStandard,
    },
    permute: true,
    suCommand: true,
  };
}

let specs: Readonly<Record<string, LauncherSpec>> | undefined;

/**
 * The option table of a launcher, by name (a path's basename names it too); undefined for a word
 * that is not one. The tables are built on the first call: a hook that never reads a head pays nothing.
 */
export function launcherSpecOf(name: string): LauncherSpec | undefined {
  specs ??= buildSpecs();
  return Object.hasOwn(specs, name) ? specs[name] : undefined;
}

function buildSpecs(): Readonly<Record<string, LauncherSpec>> {
  return {
    // coreutils env: +C:iS:u:v0; `-` alone is -i; NAME=value operands (any word holding `=`) follow.
    env: {
      short: shortOptions('C:iS:u:v0', {
        C: { arg: 'required', effect: 'chdir' },
        S: { arg: 'required', effect: 'split' },
      }),
      long: {
        'ignore-environment': none,
        null: none,
        unset: required,
        chdir: { arg: 'required', effect: 'chdir' },
        'split-string': { arg: 'required', effect: 'split' },
        debug: none,
        'block-signal': optional,
        'default-signal': optional,
        'ignore-signal': optional,
        'list-signal-handling': none,
        ...gnuStandard,
      },
      assigns: 'env',
    },
    // sudo's parse_args.c: +Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv, NAME=value among the options.
    sudo: {
      short: shortOptions('Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv', {
        D: { arg: 'required', effect: 'chdir' },
        e: stop, // sudoedit: edits files, runs no command
        h: { arg: 'optional', effect: 'host' },
        K: stop,
        l: stop, // list, or with a command: check whether it may run
        V: stop,
        v: stop,
      }),
      long: {
        background: none,
        'preserve-env': optional,
        edit: stop,
        'set-home': none,
        login: none,
        'remove-timestamp': stop,
        list: stop,
        'preserve-groups': none,
        shell: none,
        'other-user': required,
        validate: stop,
        askpass: none,
        'auth-type': required,
        bell: none,
        'close-from': required,
        'login-class': required,
        chdir: { arg: 'required', effect: 'chdir' },
        group: required,
        help: stop,
        host: required,
        'reset-timestamp': none,
        'no-update': none,
        'non-interactive': none,
        prompt: required,
        chroot: required,
        role: required,
        stdin: none,
        'command-timeout': required,
        type: required,
        user: required,
        version: stop,
      },
      assigns: 'sudo',
    },
    // OpenBSD doas / OpenDoas: +C:Lnsu:. -C checks a config, -L clears credentials, -s starts a shell.
    doas: { short: shortOptions('C:Lnsu:', { C: stopWithValue, L: stop, s: stop }), long: {} },
    // bash builtins
    command: { short: shortOptions('pvV', { v: stop, V: stop }), long: { help: stop } },
    builtin: { short: {}, long: { help: stop } },
    exec: { short: shortOptions('cla:'), long: { help: stop } },
    // coreutils
    nohup: { short: {}, long: gnuStandard },
    nice: { short: shortOptions('n:'), long: { adjustment: required, ...gnuStandard }, numeric: true },
    stdbuf: {
      short: shortOptions('i:o:e:'),
      long: { input: required, output: required, error: required, ...gnuStandard },
    },
    timeout: {
      short: shortOptions('k:s:v'),
      long: {
        'kill-after': required,
        signal: required,
        foreground: none,
        'preserve-status': none,
        verbose: none,
        ...gnuStandard,
      },
      operands: 1,
    },
    // GNU time (the program; the keyword is the parser's): +af:o:pqvV
    time: {
      short: shortOptions('af:o:pqvV', { V: stop }),
      long: {
        append: none,
        format: required,
        output: required,
        portability: none,
        quiet: none,
        verbose: none,
        ...gnuStandard,
      },
    },
    // findutils xargs: +0a:E:e::i::I:l::L:n:prs:txP:d:o
    xargs: {
      short: shortOptions('0a:E:e::i::I:l::L:n:prs:txP:d:o'),
      long: {
        null: none,
        'arg-file': required,
        delimiter: required,
        eof: optional,
        replace: optional,
        'max-lines': optional,
        'max-args': required,
        'open-tty': none,
        interactive: none,
        'no-run-if-empty': none,
        'max-chars': required,
        verbose: none,
        'show-limits': none,
        exit: none,
        'max-procs': required,
        'process-slot-var': required,
        ...gnuStandard,
      },
    },
    // util-linux
    setsid: {
      short: shortOptions('cfwVh', { V: stop, h: stop }),
      long: { ctty: none, fork: none, wait: none, ...gnuStandard },
    },
    ionice: {
      // -p/-P/-u act on running processes: the words after them are ids, not a command.
      short: shortOptions('c:n:p:P:u:tVh', {
        p: stopWithValue,
        P: stopWithValue,
        u: stopWithValue,
        V: stop,
        h: stop,
      }),
      long: {
        class: required,
        classdata: required,
        ignore: none,
        pid: stopWithValue,
        pgid: stopWithValue,
        uid: stopWithValue,
        ...gnuStandard,
      },
    },
    chrt: {
      short: shortOptions('abdD:fiphmoP:T:rRvV', { p: stop, m: stop, h: stop, V: stop }),
      long: {
        'all-tasks': none,
        batch: none,
        deadline: none,
        fifo: none,
        idle: none,
        other: none,
        rr: none,
        'reset-on-fork': none,
        'sched-runtime': required,
        'sched-period': required,
        'sched-deadline': required,
        pid: stop,
        max: stop,
        verbose: none,
        ...gnuStandard,
      },
      operands: 1, // the priority
    },
    taskset: {
      short: shortOptions('apchV', { p: stop, h: stop, V: stop }),
      long: { 'all-tasks': none, pid: stop, 'cpu-list': none, ...gnuStandard },
      operands: 1, // the mask or cpu list
    },
    flock: {
      short: shortOptions('sexnoFuw:E:hV', { h: stop, V: stop }),
      long: {
        shared: none,
        exclusive: none,
        unlock: none,
        nonblocking: none,
        timeout: required,
        wait: required,
        'conflict-exit-code': required,
        close: none,
        'no-fork': none,
        verbose: none,
        ...gnuStandard,
      },
      operands: 1, // the lock file, directory or descriptor
      commandString: true,
    },
    // util-linux runuser / su (su-common.c): c:fg:G:lmpPs:u:hVw:. `-u user cmd…` runs the words;
    // `-c str` hands a string to the user's shell; `runuser user` alone starts a shell.
    runuser: suSpec(),
    su: suSpec(),
    // coreutils chroot NEWROOT [COMMAND…]: a program of that root, git included.
    chroot: {
      short: {},
      long: {
        groups: required,
        userspec: required,
        'skip-chdir': { arg: 'none', effect: 'keep-directory' },
        ...gnuStandard,
      },
      operands: 1,
      root: true,
    },
    // util-linux unshare: +fhVmuinpCTUrR:w:S:G:lck: — -w/--wd is where the program runs.
    unshare: {
      short: shortOptions('fhVmuinpCTUrR:w:S:G:lck:', {
        w: { arg: 'required', effect: 'chdir' },
        h: stop,
        V: stop,
      }),
      long: {
        mount: optional,
        uts: optional,
        ipc: optional,
        net: optional,
        pid: optional,
        user: optional,
        cgroup: optional,
        time: optional,
        fork: none,
        'kill-child': optional,
        'mount-proc': optional,
        'mount-binfmt': optional,
        'map-root-user': none,
        'map-current-user': none,
        'map-user': required,
        'map-group': required,
        'map-users': required,
        'map-groups': required,
        'map-auto': none,
        propagation: required,
        setgroups: required,
        'keep-caps': none,
        setuid: required,
        setgid: required,
        root: required,
        wd: { arg: 'required', effect: 'chdir' },
        monotonic: required,
        boottime: required,
        'load-interp': required,
        ...gnuStandard,
      },
    },
    // fakeroot [-l lib] [--faked bin] [-i file] [-s file] [-u] [-b fd] [--] [command]
    fakeroot: {
      short: shortOptions('l:i:s:ub:hv', { h: stop, v: stop }),
      long: {
        lib: required,
        faked: required,
        'unknown-is-real': none,
        'fd-base': required,
        help: stop,
        version: stop,
      },
    },
    // util-linux prlimit: each resource option takes an optional attached limit; -p acts on a running process.
    prlimit: {
      short: shortOptions('c::d::e::f::i::l::m::n::q::r::s::t::u::v::x::y::p:o:hV', {
        p: stopWithValue,
        h: stop,
        V: stop,
      }),
      long: {
        ...Object.fromEntries(
          ['core', 'data', 'nice', 'fsize', 'sigpending', 'memlock', 'rss', 'nofile', 'msgqueue', 'rtprio']
            .concat(['stack', 'cpu', 'nproc', 'as', 'locks', 'rttime'])
            .map((name) => [name, optional]),
        ),
        pid: stopWithValue,
        output: required,
        noheadings: none,
        raw: none,
        verbose: none,
        ...gnuStandard,
      },
    },
    // util-linux setpriv [options] program [arguments]; -d / --list-caps run nothing.
    setpriv: {
      short: shortOptions('dhV', { d: stop, h: stop, V: stop }),
      long: {
        dump: stop,
        'list-caps': stop,
        nnp: none,
        'no-new-privs': none,
        ruid: required,
        euid: required,
        reuid: required,
        rgid: required,
        egid: required,
        regid: required,
        'clear-groups': none,
        'keep-groups': none,
        'init-groups': none,
        groups: required,
        'inh-caps': required,
        'ambient-caps': required,
        'bounding-set': required,
        securebits: required,
        pdeathsig: required,
        'selinux-label': required,
        'apparmor-profile': required,
        'landlock-access': required,
        'landlock-rule': required,
        'seccomp-filter': required,
        'reset-env': none,
        ...gnuStandard,
      },
    },
    script: {
      short: shortOptions('aB:c:eE:fI:O:o:qm:T:t::Vh', {
        c: { arg: 'required', effect: 'shell-string' },
        V: stop,
        h: stop,
      }),
      long: {
        append: none,
        'log-io': required,
        command: { arg: 'required', effect: 'shell-string' },
        return: none,
        echo: required,
        flush: none,
        force: none,
        'log-in': required,
        'log-out': required,
        'output-limit': required,
        quiet: none,
        'logging-format': required,
        'log-timing': required,
        timing: optional,
        ...gnuStandard,
      },
      permute: true,
      command: 'none',
    },
  };
}
