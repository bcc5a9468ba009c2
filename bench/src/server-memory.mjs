// The verdict server's memory: its resident set once it has answered its first call, and after
// `calls` more, sent straight through its mailbox as the front sends them (no node per call, so
// 10,000 calls take seconds). Linux only (/proc); elsewhere the figure is skipped.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const napper = new Int32Array(new SharedArrayBuffer(4));
const nap = (ms) => Atomics.wait(napper, 0, 0, ms);

function rssMb(pid) {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kb) / 102.4) / 10;
}

/** Leaves one request in the mailbox and waits for its reply (true when the server judged it). */
function ask(mailbox, key, id, payload, cwd) {
  const request = {
    v: 3, // the mailbox's version (packages/fail-open/src/mailbox-protocol.ts): another is never judged
    key,
    args: [],
    cwd,
    umask: 0o22,
    env: {},
    expires: Date.now() + 60_000,
    calledAt: Date.now(),
    stdin: payload,
  };
  writeFileSync(join(mailbox, 'work', `${id}.tmp`), JSON.stringify(request), { mode: 0o600 });
  renameSync(join(mailbox, 'work', `${id}.tmp`), join(mailbox, `${id}.req`));
  const reply = join(mailbox, 'work', `${id}.reply`);
  for (const until = Date.now() + 10_000; Date.now() < until; nap(0.2)) {
    try {
      const text = readFileSync(reply, 'utf8');
      rmSync(reply);
      return !text.includes('"doubt"'); // judged: a doubt (a request it would not judge) is no call
    } catch {
      // not yet
    }
  }
  return false;
}

/** RSS of `hook`'s verdict server after its first call and after `calls` more; `{ skipped }` when it cannot run. */
export function measureServerMemory(hook, calls) {
  if (process.platform !== 'linux' || typeof process.getuid !== 'function') return { skipped: 'not Linux' };
  const temp = mkdtempSync(join(tmpdir(), 'kit-bench-memory-'));
  const env = {
    ...process.env,
    TMPDIR: temp,
    KIT_HOOKS_SERVER: undefined,
    KIT_HOOKS_SERVER_IDLE_SECONDS: '600',
  };
  let server;
  try {
    mkdirSync(join(temp, `kit-hooks-${process.getuid()}`), { mode: 0o700 });
    const status = JSON.parse(
      spawnSync(process.execPath, [hook, '--kit-server-status'], { env, encoding: 'utf8' }).stdout,
    );
    if (status.socket === null) return { skipped: `no server: ${status.server}` };
    const mailbox = status.socket; // the server's name: its mailbox
    server = spawn(process.execPath, [hook, '--kit-serve-verdicts'], { env, cwd: temp, stdio: 'ignore' });
    const payload = JSON.stringify({
      session_id: 'bench-memory',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'make test | tail -5' },
      cwd: temp,
    });
    let first = false;
    for (const until = Date.now() + 30_000; !first && Date.now() < until; nap(50)) {
      try {
        first = ask(mailbox, status.key, 'first', payload, temp);
      } catch {
        // the mailbox is not there yet
      }
    }
    if (!first) return { skipped: 'the server did not answer' };
    const afterStartMb = rssMb(server.pid);
    let answered = 0;
    for (let i = 0; i < calls; i++) if (ask(mailbox, status.key, `call-${i}`, payload, temp)) answered += 1;
    return { guard: hook, afterStartMb, calls, answered, afterCallsMb: rssMb(server.pid) };
  } finally {
    server?.kill('SIGKILL');
    rmSync(temp, { recursive: true, force: true });
  }
}
