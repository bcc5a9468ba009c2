import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { KitSource } from '../src/kit.ts';
import { packKit } from '../src/pack.ts';
import { type LocalRegistry, publishTarballs, startRegistry, writeNpmrc } from '../src/registry.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    kitSource: KitSource;
  }
}

let registry: LocalRegistry | undefined;
let dir: string | undefined;

/**
 * Packs the kit once, starts verdaccio on loopback and publishes every package to it. When the
 * registry cannot run, the scenarios get the packed tarballs instead (and the reason is printed).
 * KIT_E2E_SOURCE=tarballs forces the fallback, to prove it.
 */
export async function setup(project: TestProject): Promise<void> {
  const startedAt = Date.now();
  dir = await mkdtemp(join(tmpdir(), 'kit-e2e-registry-'));
  let source: KitSource;
  const tarballDir = join(dir, 'tarballs');
  const storage = join(dir, 'verdaccio');
  await mkdir(tarballDir, { recursive: true });
  await mkdir(storage, { recursive: true });
  const forceTarballs = process.env.KIT_E2E_SOURCE === 'tarballs';
  // Packing and the registry's start-up are independent: overlap them.
  const [packed, started] = await Promise.allSettled([
    packKit(tarballDir),
    forceTarballs ? Promise.reject(new Error('KIT_E2E_SOURCE=tarballs')) : startRegistry(storage),
  ]);
  if (started.status === 'fulfilled') registry = started.value;
  if (packed.status === 'rejected') {
    source = { kind: 'unavailable', reason: messageOf(packed.reason) };
  } else {
    const packages = packed.value;
    try {
      if (!registry) throw started.status === 'rejected' ? started.reason : new Error('no registry');
      const npmrc = join(dir, 'npmrc');
      await writeNpmrc(npmrc, registry.url);
      await publishTarballs(
        registry.url,
        npmrc,
        join(dir, 'publish-cache'),
        packages.map((p) => p.tarball),
      );
      source = { kind: 'registry', url: registry.url, npmrc, packages };
      process.stderr.write(
        `[e2e] ${packages.length} packages packed and published to ${registry.url} in ${Date.now() - startedAt} ms\n`,
      );
    } catch (error) {
      await registry?.stop();
      registry = undefined;
      const registryError = messageOf(error);
      process.stderr.write(
        `[e2e] local registry unavailable, installing packed tarballs instead: ${registryError}\n`,
      );
      source = { kind: 'tarballs', packages, registryError };
    }
  }
  project.provide('kitSource', source);
}

export async function teardown(): Promise<void> {
  await registry?.stop();
  if (dir && !process.env.KIT_E2E_KEEP) await rm(dir, { recursive: true, force: true });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
