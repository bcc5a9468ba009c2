import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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
  // Retried: a process the test started (a verdict server warming up) may still be writing there.
  const remove = (): void => rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  try {
    onTestFinished(remove);
  } catch {
    // Not inside a test: the folder lives as long as the suite being collected.
    afterAll(remove);
  }
}
