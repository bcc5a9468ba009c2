import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup as setupKit, teardown as teardownKit } from '@kit/e2e/test/global-setup.ts';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    copilotCache: string;
  }
}

let copilotCache: string | undefined;

/**
 * The kit packed and published to a loopback registry once (the Claude Code suite's own setup), and
 * one cache folder Copilot CLI unpacks its 235 MB package into on its first start, shared by every run.
 */
export async function setup(project: TestProject): Promise<void> {
  copilotCache = await mkdtemp(join(tmpdir(), 'kit-e2e-copilot-cache-'));
  project.provide('copilotCache', copilotCache);
  await setupKit(project);
}

export async function teardown(): Promise<void> {
  await teardownKit();
  if (copilotCache && !process.env.KIT_E2E_KEEP) await rm(copilotCache, { recursive: true, force: true });
}
