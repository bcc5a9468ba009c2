import osTempDir from './os-temp-dir.cjs';

/**
 * The OS temp folder as `env` names it (TMPDIR; TEMP or TMP on Windows), else os.tmpdir(). A hook
 * reads it from its runtime's env, so a test can point it elsewhere; node:os is loaded only when the
 * env names none, on the first such call (a bundle importing it at its top pays ~1.5 ms per call).
 */
export function tempFolderOf(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): string {
  const named = platform === 'win32' ? env.TEMP || env.TMP : env.TMPDIR;
  return named || osTempDir();
}
