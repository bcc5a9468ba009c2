// Where a bundle's verdict server lives, worked out the same way by the calls and by the server.
import { mkdirSync, openSync, closeSync, lstatSync, utimesSync } from 'node:fs';
import { serveArgument } from '../bundle-loader.ts';
import { closedToOthers, type FolderProblem, folderProblem } from '../own-folder.ts';
import { switchedOff } from '../switch-values.ts';
import { tempFolderOf } from '../temp-dir.ts';
import { startingMarkerOf } from './starting-marker.ts';
import childProcess from './child-process.cjs';

/** Where this bundle's server serves (its mailbox, the server's name), or why no server can be used from here. */
export type Place = { folder: string; mailbox: string; key: string } | { refused: string };

const startingFreshMs = 10_000; // a start marker younger than this: a server is on its way

// FNV-1a, 32 bits: a short stable name for the arguments and V8's flags, without node:crypto.
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * The server's place for a bundle (`contentHash`) called with `callArgs`: the per-user folder in
 * the temp folder, and the key every request names (bundle, node version, arguments and flags).
 */
export function placeOf(contentHash: string, callArgs: string[], env: NodeJS.ProcessEnv): Place {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return { refused: 'unsupported' };
  if (switchedOff(env.KIT_HOOKS_SERVER)) return { refused: 'off' };
  const temp = tempFolderOf(env);
  if (!temp.startsWith('/')) return { refused: 'relative-temp' };
  const folder = `${temp}/kit-hooks-${process.getuid()}`;
  const flags = JSON.stringify([callArgs, process.execArgv, env.NODE_OPTIONS ?? '']);
  const key = `${contentHash}-${process.version}-${shortHash(flags)}`;
  return { folder, mailbox: `${folder}/${key}.box`, key };
}

/** Why the per-user folder cannot hold a server: none yet, or not the user's alone. */
export function placeProblem(folder: string): FolderProblem | null {
  return folderProblem(folder, closedToOthers);
}

/**
 * Starts this bundle as the server, detached, unless another call is starting one (its start
 * marker is fresh). Makes the per-user folder only, never the temp folder it is in: that one is
 * the user's (or a test's, which a server starting late must not bring back). Never throws.
 */
export function startServer(file: string, folder: string, mailbox: string, callArgs: string[]): void {
  try {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch {
      // there already, or no temp folder to make it in: judged just below
    }
    if (placeProblem(folder) !== null) return;
    const starting = startingMarkerOf(mailbox);
    try {
      closeSync(openSync(starting, 'wx', 0o600));
    } catch {
      // Another call is starting one, unless its marker is old (that start failed): then this one does.
      if (Date.now() - lstatSync(starting).mtimeMs < startingFreshMs) return;
      const now = new Date();
      utimesSync(starting, now, now);
    }
    const argv = [...process.execArgv, file, serveArgument, ...callArgs];
    const child = childProcess().spawn(process.execPath, argv, {
      cwd: folder,
      detached: true,
      stdio: 'ignore',
      env: process.env,
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no server this time: the next call that finds none tries again
  }
}
