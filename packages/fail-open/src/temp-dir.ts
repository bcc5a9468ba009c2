import osTempDir from './os-temp-dir.cjs';

/**
 * The OS temp folder as `env` names it: os.tmpdir()'s own rule (TMPDIR, then TMP, then TEMP, else
 * /tmp, one trailing slash dropped; TEMP or TMP on Windows), read from the env given, so a test or a
 * served call can point it elsewhere. The kit's one temp-folder rule: the bundle's front, the
 * guards and shell-segments' code cache all take it here. node:os is loaded only on Windows when
 * the env names none (a bundle importing it at its top pays ~1.5 ms per call). A relative answer
 * is the caller's to refuse (`isAbsolute`): it changes where caches go, never whether a guard judges.
 */
export function tempFolderOf(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return env.TEMP || env.TMP || osTempDir();
  const named = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return named.length > 1 && named.endsWith('/') ? named.slice(0, -1) : named;
}
