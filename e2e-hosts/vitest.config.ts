import type { ViteUserConfig } from 'vitest/config';
import { defineConfig } from 'vitest/config';

const config: ViteUserConfig = defineConfig({
  test: {
    include: ['test/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // A host's run is seconds when idle, tens of seconds on two busy cores; the scenarios of a file
    // share their installs in beforeAll.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // One file per host, all three at once: they mostly wait on the CLIs.
    maxWorkers: 3,
  },
});

export default config;
