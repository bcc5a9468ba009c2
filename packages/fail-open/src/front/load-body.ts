// The plain loader at the head of every kit hook bundle, and the last step of the verdict server's
// front: the bundle's body, compiled from its comment under the bundle's own name. Built by the
// bundler into the bundle (hook-bundle.ts), so it imports what it uses like any module.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { folderProblem, unwritableByOthers } from '../own-folder.ts';
import { tempFolderOf } from '../temp-dir.ts';

/** The bundle the front runs in: its own module (the body is compiled as it) and file. */
export interface BundleModule {
  self: { _compile: (source: string, filename: string) => void };
  file: string;
}

const bodyMarker = '/*kit-hook-section:body:';

// The compile cache's folder, used only when no other user could have written to it.
function ownCacheFolder(): string | undefined {
  try {
    const temp = tempFolderOf(process.env);
    if (!temp.startsWith('/') && process.platform !== 'win32') return undefined; // a relative TMPDIR
    const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
    const folder = `${temp}/kit-code-cache-${uid}`;
    // Never the temp folder itself: that one is the user's. existsSync first: it does not throw,
    // and almost every call finds the folder there.
    if (!existsSync(folder)) {
      try {
        mkdirSync(folder, { mode: 0o700 });
      } catch {
        // made meanwhile (judged below), or no temp folder: then there is no cache
      }
    }
    return folderProblem(folder, unwritableByOthers) === null ? folder : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Turns Node's compile cache on (Node 22 and later) in the user's own cache folder, then compiles
 * the bundle's body from its comment under the bundle's name, so that the cache keeps its compiled
 * form between calls. Node keys that cache by its version, V8's flags and a hash of the body's
 * text, and checks its own data: nothing but the body's own text ever runs. Where the folder is not
 * the user's own, or cannot be made, the body compiles as it would have inline. Nothing here may
 * throw but the body itself.
 */
export function loadBody({ self, file }: BundleModule): void {
  const { enableCompileCache } = nodeModule as { enableCompileCache?: (dir: string) => unknown };
  const folder = typeof enableCompileCache === 'function' ? ownCacheFolder() : undefined; // Node before 22.1: none
  if (folder !== undefined) {
    try {
      enableCompileCache?.(folder);
    } catch {
      // no compile cache: the body compiles as usual
    }
  }
  const text = readFileSync(file, 'latin1');
  const start = text.lastIndexOf(bodyMarker) + bodyMarker.length;
  const body = Buffer.from(text.slice(start, text.indexOf('*/', start)), 'base64').toString('utf8');
  // The body runs as this module: its require, __filename and module are the bundle's own.
  self._compile(body, file);
}
