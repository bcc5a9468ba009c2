import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Outcome } from '@kit/fail-open';
import { errorCode } from './settings-file.ts';

/** The bundle at its stable place before and after a copy, so a failed install can put it back. */
export interface BundlePlacement {
  change: 'created' | 'updated' | 'unchanged';
  previous: Buffer | null; // the bytes that were there before
}

/** The bytes of the guard's built bundle, or a one-line message when they cannot be had. */
export async function readBundleSource(source: string): Promise<Outcome<Buffer, 'missing'>> {
  try {
    return { ok: true, value: await readFile(source) };
  } catch (error) {
    return {
      ok: false,
      reason: 'missing',
      message: `the guard's hook bundle is missing at ${source} (${errorCode(error) ?? 'unreadable'}); reinstall the package`,
    };
  }
}

/** What is at `path` now, or null. */
export async function readExisting(path: string): Promise<Buffer | null> {
  return readFile(path).catch(() => null);
}

/** Copies the bundle bytes to `destination` (temp file + rename) unless it already holds them. */
export async function placeBundle(
  bytes: Buffer,
  destination: string,
  previous: Buffer | null,
): Promise<BundlePlacement> {
  if (previous?.equals(bytes)) return { change: 'unchanged', previous };
  await mkdir(dirname(destination), { recursive: true });
  const temp = `${destination}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    await writeFile(temp, bytes, { flag: 'wx', mode: 0o644 });
    await rename(temp, destination);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return { change: previous === null ? 'created' : 'updated', previous };
}

/** Puts back what `placeBundle` replaced, best effort: used when the settings write fails after it. */
export async function undoPlaceBundle(destination: string, placement: BundlePlacement): Promise<void> {
  if (placement.change === 'created') await unlink(destination).catch(() => undefined);
  if (placement.change === 'updated' && placement.previous) {
    await writeFile(destination, placement.previous).catch(() => undefined);
  }
}
