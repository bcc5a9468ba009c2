import type { ViteUserConfig } from 'vitest/config';
import { defineConfig } from 'vitest/config';

const config: ViteUserConfig = defineConfig({
  test: {
    include: ['test/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Each scenario starts real processes (npx, the CLI, git); the slowest stays well under this.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The scenarios mostly wait on child processes: more files at once than cores pays off, and the
    // two long per-guard tables run a guard's rows concurrently. Not more: a hook starved of CPU past
    // its own budget fails open, and a deny scenario would flake.
    maxWorkers: 3,
  },
});

export default config;
