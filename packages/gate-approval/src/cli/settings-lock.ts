import { link, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Outcome } from '@kit/fail-open';
import { describeError, errorCode } from './settings-file.ts';

/** How long to wait for another install, and when a lock left behind counts as stale. */
export interface LockTiming {
  waitMs: number; // give up after this long
  staleMs: number; // a lock this old is stale whoever holds it (a holder on another host, a hung one)
}

const defaultTiming: LockTiming = { waitMs: 15_000, staleMs: 30_000 };

/** What a lock file holds: who took it, so another process can tell a crashed holder from a live one. */
interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

/** The lock kept beside a settings file while a command reads, merges and writes it. */
export function lockPathOf(settingsTarget: string): string {
  return `${settingsTarget}.lock`;
}

/**
 * Runs `critical` while holding `<settings file>.lock`, an O_EXCL file beside it: two installs of
 * different guards at once otherwise both read the old file and the later rename drops the other's
 * handler. Waits for a live holder; takes over a stale lock (its holder's pid is gone on this host,
 * or it is older than `staleMs`) by renaming it aside, so of two processes breaking it one wins. A
 * lock that cannot be taken is a `locked` or `unwritable` outcome with a one-line message.
 */
export async function withSettingsLock<T>(
  settingsTarget: string,
  critical: () => Promise<T>,
  timing: LockTiming = defaultTiming,
): Promise<Outcome<T, 'locked' | 'unwritable'>> {
  const lock = lockPathOf(settingsTarget);
  const owner: LockOwner = {
    pid: process.pid,
    host: await hostName(),
    token: `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`,
  };
  const deadline = Date.now() + timing.waitMs;
  for (let attempt = 0; ; attempt += 1) {
    const taken = await tryTake(lock, owner);
    if (taken === 'taken') break;
    if (taken instanceof Error)
      return { ok: false, reason: 'unwritable', message: `cannot write ${lock}: ${describeError(taken)}` };
    if (await breakIfStale(lock, owner, timing)) continue;
    if (Date.now() > deadline) {
      const holder = await readOwner(lock);
      return {
        ok: false,
        reason: 'locked',
        message: `${lock} is held${holder ? ` by pid ${holder.pid} on ${holder.host}` : ''}: another install or uninstall is running; if none is, remove that file`,
      };
    }
    // Jitter keeps two waiters from retrying in step.
    await sleep(Math.min(200, 10 + attempt * 5) * (0.5 + Math.random()));
  }
  try {
    return { ok: true, value: await critical() };
  } finally {
    await release(lock, owner);
  }
}

// The folder is made on every try: an uninstall that just emptied it may remove it meanwhile.
async function tryTake(lock: string, owner: LockOwner): Promise<'taken' | 'held' | Error> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    await mkdir(dirname(lock), { recursive: true });
    handle = await open(lock, 'wx');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 'held';
    return errorCode(error) === 'EEXIST' ? 'held' : (error as Error);
  }
  try {
    await handle.writeFile(JSON.stringify(owner));
  } finally {
    await handle.close();
  }
  return 'taken';
}

async function breakIfStale(lock: string, owner: LockOwner, timing: LockTiming): Promise<boolean> {
  const seen = await readOwner(lock);
  const age = await stat(lock).then(
    (s) => Date.now() - s.mtimeMs,
    () => null,
  );
  if (age === null) return true; // released meanwhile: try again at once
  const stale =
    age > timing.staleMs ||
    (seen !== null && seen.host === owner.host && !isAlive(seen.pid)) ||
    // A holder that crashed between creating the file and writing its name into it.
    (seen === null && age > 2_000);
  if (!stale) return false;
  const aside = `${lock}.${owner.token}.stale`;
  try {
    await rename(lock, aside);
  } catch {
    return true; // another process broke it first
  }
  // Between the look and the rename a live holder may have taken a fresh lock: put that one back.
  const moved = await readOwner(aside);
  if (seen !== null && moved !== null && moved.token !== seen.token)
    await link(aside, lock).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
  return true;
}

async function release(lock: string, owner: LockOwner): Promise<void> {
  const current = await readOwner(lock);
  if (current?.token === owner.token) await unlink(lock).catch(() => undefined);
}

async function readOwner(lock: string): Promise<LockOwner | null> {
  try {
    const parsed = JSON.parse(await readFile(lock, 'utf8')) as Partial<LockOwner>;
    return typeof parsed.pid === 'number' &&
      typeof parsed.host === 'string' &&
      typeof parsed.token === 'string'
      ? { pid: parsed.pid, host: parsed.host, token: parsed.token }
      : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM'; // alive, owned by another user
  }
}

// Loaded on demand: the hook bundle inlines this package and must not pay for node:os.
async function hostName(): Promise<string> {
  const { hostname } = await import('node:os');
  return hostname();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
