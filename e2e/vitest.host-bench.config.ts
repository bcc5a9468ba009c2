import type { ViteUserConfig } from 'vitest/config';
import { defineConfig } from 'vitest/config';

// The host bench (host-bench/), not a test suite: `pnpm --filter @kit/e2e host-bench`, or through
// bench/'s `pnpm bench:host`. One file, its sessions one after another (a bench must not share cores
// with itself); the same global setup packs the kit as the e2e suite does.
const config: ViteUserConfig = defineConfig({
  test: {
    include: ['host-bench/*.bench-run.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});

export default config;
