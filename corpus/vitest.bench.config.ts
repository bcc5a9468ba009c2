import type { ViteUserConfig } from 'vitest/config';
import { defineConfig } from 'vitest/config';

// The bench's memory class (bench/), not a test suite: `pnpm --filter @kit/corpus judge-memory`.
const config: ViteUserConfig = defineConfig({
  test: { include: ['bench/*.bench-run.ts'], testTimeout: 600_000, pool: 'forks', maxWorkers: 1 },
});

export default config;
