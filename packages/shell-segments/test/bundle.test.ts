import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { expect, onTestFinished, test } from 'vitest';
import { hookBundle } from '../../../tsup.base.ts';

// A guard's hook bundle inlines every dependency and is copied away from node_modules, so the
// built package must let a bundler follow its require of mvdan-sh (see src/require-mvdan.cjs).
// Built with tsup.base.ts's hookBundle, exactly as a guard builds its hook.
test('a self-contained bundle of dist/index.js inlines mvdan-sh and parses from a bare folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-segments-bundle-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const entry = join(dir, 'entry.mjs');
  const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));
  writeFileSync(
    entry,
    `import { parse, headText } from ${JSON.stringify(built)};\n` +
      `const outcome = parse("sudo -u x git push | tail");\n` +
      `console.log(JSON.stringify(outcome.value.segments.map(headText)));\n`,
  );
  // The same options a guard's tsup.config.ts uses for its hook bundle.
  await build({ ...hookBundle({ hook: entry }), outDir: dir, config: false, silent: true });
  const outfile = join(dir, 'hook.cjs');
  const result = spawnSync(process.execPath, [outfile], { cwd: dir, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(JSON.parse(result.stdout)).toEqual(['git push', 'tail']);
}, 30_000);
