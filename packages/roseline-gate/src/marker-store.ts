import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  futimesSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { Outcome, TextFileProblem } from '@kit/fail-open';
import type { MarkerRead, MarkerStore } from './escape.ts';

// Markers are a few dozen bytes: anything bigger is not one of ours, and is not read.
const maxMarkerBytes = 4096;

/**
 * The escape's marker store on the real file system. With no clock, the file system stamps each
 * write as it happens; with one, every write is stamped with it (a test's clock).
 */
export function fileMarkerStore(clock: (() => number) | null): MarkerStore {
  // Not a time read from the clock first: it would be as old as the hook was held up before the
  // write, seconds under load, and a marker touched just now would look quiet.
  const stamp = (fd: number): void => {
    if (clock === null) return;
    const seconds = clock() / 1000;
    futimesSync(fd, seconds, seconds);
  };

  function createMarker(file: string, text: string): 'created' | 'exists' | 'failed' {
    try {
      // Owner-only: the temp folder is shared, and a marker says which files a session reads.
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    } catch {
      return 'failed';
    }
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      return codeOf(error) === 'EEXIST' ? 'exists' : 'failed';
    }
    try {
      writeSync(fd, text);
      stamp(fd);
      return 'created';
    } catch {
      removeQuietly(file);
      return 'failed';
    } finally {
      closeSync(fd);
    }
  }

  function touchMarker(file: string): void {
    let fd: number;
    try {
      fd = openSync(file, 'r+');
    } catch {
      return; // claimed meanwhile, or never written: the next Read sees that for itself
    }
    try {
      // Its own first byte written back: the content stays, and the write is stamped now.
      const first = Buffer.alloc(1);
      if (readSync(fd, first, 0, 1, 0) === 1) writeSync(fd, first, 0, 1, 0);
      stamp(fd);
    } catch {
      // Unwritable: the marker keeps its older stamp, and the next Read judges by that.
    } finally {
      closeSync(fd);
    }
  }

  return {
    readMarker,
    createMarker,
    replaceMarker: (file, text) => {
      const staged = uniqueSibling(file, 'new');
      if (createMarker(staged, text) !== 'created') return false;
      try {
        renameSync(staged, file);
      } catch {
        removeQuietly(staged);
        return false;
      }
      // Stamped again once in place: a hook held up between the write and the rename would
      // otherwise show a marker older than it is.
      touchMarker(file);
      return true;
    },
    claimMarker,
    touchMarker,
  };
}

function readMarker(file: string): Outcome<MarkerRead, TextFileProblem> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    const code = codeOf(error);
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? { ok: false, reason: 'absent', message: `${file} does not exist` }
      : { ok: false, reason: 'unreadable', message: `cannot open ${file} (${code})` };
  }
  try {
    // One descriptor for the time and the text: both are of the same file, whatever is renamed meanwhile.
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > maxMarkerBytes)
      return { ok: false, reason: 'unreadable', message: `${file} is not a marker` };
    return { ok: true, value: { text: readFileSync(fd, 'utf8'), touchedAt: Math.round(stats.mtimeMs) } };
  } catch (error) {
    return { ok: false, reason: 'unreadable', message: `cannot read ${file} (${codeOf(error)})` };
  } finally {
    closeSync(fd);
  }
}

function claimMarker(file: string): Outcome<MarkerRead, 'gone' | 'failed'> {
  const claimed = uniqueSibling(file, 'taken');
  try {
    renameSync(file, claimed);
  } catch (error) {
    const code = codeOf(error);
    return code === 'ENOENT'
      ? { ok: false, reason: 'gone', message: `${file} was claimed by another call` }
      : { ok: false, reason: 'failed', message: `cannot claim ${file} (${code})` };
  }
  const read = readMarker(claimed);
  removeQuietly(claimed);
  return read.ok ? read : { ok: false, reason: 'failed', message: read.message };
}

function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // A leftover in the session's own folder is harmless: no marker has its name.
  }
}

// A name in the marker's own folder (a rename never crosses file systems) that no other call uses.
function uniqueSibling(file: string, purpose: string): string {
  return `${file}.${process.pid}-${randomBytes(6).toString('hex')}.${purpose}`;
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? 'unknown error';
}
