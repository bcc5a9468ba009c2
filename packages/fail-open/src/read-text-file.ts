import { readFileSync } from 'node:fs';
import type { Outcome } from './outcome.ts';

/** Why a text file could not be had: nothing is there, or something is and cannot be read. */
export type TextFileProblem = 'absent' | 'unreadable';

/**
 * A file's text (UTF-8), or why not: ENOENT and ENOTDIR are `absent`, any other error (a folder, no
 * permission) is `unreadable`. No subprocess; never throws.
 */
export function readTextFile(path: string): Outcome<string, TextFileProblem> {
  try {
    return { ok: true, value: readFileSync(path, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return { ok: false, reason: 'absent', message: `${path} does not exist` };
    return { ok: false, reason: 'unreadable', message: `cannot read ${path}${code ? ` (${code})` : ''}` };
  }
}
