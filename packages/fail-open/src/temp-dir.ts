import loadOsTempDir from './os-temp-dir.cjs';

/** os.tmpdir(), with node:os loaded on the first call: a hook bundle must not pay for it at start. */
export function osTempDir(): string {
  return loadOsTempDir();
}
