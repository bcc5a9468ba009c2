import { afterAll, describe, expect, inject, test } from 'vitest';
import { runCommand } from '@kit/test-kit';
import { npmEnvironment } from '../src/kit.ts';
import { KIT_PACKAGES } from '../src/pack.ts';
import { removeScratch, scratchDir } from '../src/scratch.ts';

const source = inject('kitSource');
afterAll(removeScratch);

// The scenarios install from whatever the global setup provided; this file says which it was and
// proves the registry is the user's path: every kit package at its workspace version, nothing else.
describe('where the scenarios get the kit', () => {
  test('the global setup packed all six kit packages', () => {
    expect(source.kind, source.kind === 'unavailable' ? source.reason : '').not.toBe('unavailable');
    if (source.kind === 'unavailable') return;
    const kitNames = source.packages.filter((p) => p.kit).map((p) => p.name);
    expect(kitNames.sort()).toEqual(KIT_PACKAGES.map((folder) => `@kit/${folder}`).sort());
  });

  test.skipIf(source.kind !== 'registry')(
    'the local registry serves each kit package at its version, and has no uplink',
    async () => {
      if (source.kind !== 'registry') return;
      const home = await scratchDir('registry-home');
      const env = npmEnvironment(home, { npm_config_userconfig: source.npmrc });
      const views = await Promise.all(
        source.packages.map((pkg) =>
          runCommand('npm', ['view', `${pkg.name}@${pkg.version}`, 'version', '--registry', source.url], {
            cwd: home,
            env,
          }),
        ),
      );
      expect(views.map((view) => view.stdout.trim())).toEqual(source.packages.map((pkg) => pkg.version));
      // A real package the kit does not ship: a 404 here means nothing is proxied to the internet.
      const outside = await runCommand('npm', ['view', 'left-pad', 'version', '--registry', source.url], {
        cwd: home,
        env,
      });
      expect(outside.exitCode).not.toBe(0);
      expect(outside.stderr).toContain('E404');
    },
  );
});
