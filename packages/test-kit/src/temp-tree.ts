import { chmodSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/** A file with a mode of its own: `{ 'bin/dnx': executable('#!/bin/sh\n') }`. */
export interface TreeFile {
  text: string;
  mode: number;
}

/** Files to write, by path relative to the root: text, a TreeFile, or `''` under a key ending in `/` for an empty folder. */
export type Tree = Record<string, string | TreeFile>;

/** A file the owner may run (mode 755). */
export function executable(text: string): TreeFile {
  return { text, mode: 0o755 };
}

/** A fresh folder under the OS temp folder (its real path: macOS's /var is /private/var) that the caller removes. */
export function freshTempDir(label = 'kit'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `${label}-`)));
}

/**
 * A fresh temp folder removed when the test that made it finishes, or after its suite when it was
 * made while the tests were collected (a module's top or a `describe` body). Not from a `beforeAll`:
 * vitest runs no cleanup registered there (use freshTempDir and remove it in the `afterAll`).
 */
export function tempDir(label = 'kit'): string {
  const dir = freshTempDir(label);
  removeWhenDone(dir);
  return dir;
}

/** `tree` written into a fresh tempDir; returns the root. */
export function tempTree(tree: Tree = {}, label = 'kit-tree'): string {
  const root = tempDir(label);
  writeTree(root, tree);
  return root;
}

/** Writes `tree` under `root`, creating the folders on the way. */
export function writeTree(root: string, tree: Tree): void {
  for (const [path, entry] of Object.entries(tree)) {
    const full = join(root, path);
    if (path.endsWith('/')) {
      mkdirSync(full, { recursive: true });
      continue;
    }
    mkdirSync(dirname(full), { recursive: true });
    const file = typeof entry === 'string' ? { text: entry, mode: null } : entry;
    writeFileSync(full, file.text);
    if (file.mode !== null) chmodSync(full, file.mode);
  }
}

function removeWhenDone(dir: string): void {
  const remove = (): void => removeTree(dir);
  try {
    onTestFinished(remove);
  } catch {
    // Not inside a test: the folder lives as long as the suite being collected.
    afterAll(remove);
  }
}

/**
 * Removes a folder a process the test started may still be writing in, at any depth: a verdict
 * server that started late makes its name and mailbox in its temp folder. The folder is first
 * renamed away, so that such a process finds its paths gone (and ends) rather than filling the
 * folder while it is removed; then removed, tried again (for up to 10 s) while anything is still
 * being written there. A folder that is not there is no error.
 */
export function removeTree(dir: string): void {
  const doomed = `${dir}.removing`;
  let target = dir;
  try {
    renameSync(dir, doomed);
    target = doomed;
  } catch {
    // gone already, or not ours to rename: removed where it is
  }
  // rmSync's own retries list the folder once; each try here lists it afresh.
  const napper = new Int32Array(new SharedArrayBuffer(4));
  for (const giveUpAt = Date.now() + 10_000; ; ) {
    try {
      rmSync(target, { recursive: true, force: true });
      return;
    } catch (error) {
      if (Date.now() > giveUpAt) throw error;
      Atomics.wait(napper, 0, 0, 50);
    }
  }
}
