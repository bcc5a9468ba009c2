import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type CommandResult, expectSuccess, runCommand } from '@kit/test-kit';
import { machinePath } from './environment.ts';
import type { PackedPackage } from '@kit/test-kit';
import type { GuardName } from './pack.ts';
import { scratchDir } from './scratch.ts';

/**
 * Where the scenarios get the kit from. Both are what a user does; never a workspace link.
 * - registry: the packages were published to a verdaccio on loopback; the guard runs through `npx`.
 * - tarballs: the fallback when the registry cannot run: all packed tarballs installed together into
 *   the project with npm, and the guard runs from its node_modules/.bin.
 */
export type KitSource =
  | { kind: 'registry'; url: string; npmrc: string; packages: PackedPackage[] }
  | { kind: 'tarballs'; packages: PackedPackage[]; registryError: string }
  | { kind: 'unavailable'; reason: string };

/** Where a guard's CLI runs, and as whom. */
export interface GuardCliPlace {
  cwd: string; // the scratch project
  home: string; // the scratch HOME the guard's CLI sees (user scope, ~/.claude)
  env?: Record<string, string>;
}

/** The machine's environment without npm's and pnpm's injected `npm_*` settings (a pnpm script run
 * sets some that would point npm elsewhere), with HOME moved to the scratch folder. */
export function npmEnvironment(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || /^pnpm_/i.test(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    PATH: machinePath(),
    HOME: home,
    npm_config_cache: join(home, '.npm'),
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

let sharedCache: Promise<string> | undefined;

/**
 * One npm cache for the scenarios of a test file (modules are evaluated per file): the first `npx`
 * downloads from the registry, the next ones find the tarballs cached, as on a user's machine that
 * ran npx before. Each still resolves the version from the registry.
 */
function npmCacheOfThisFile(): Promise<string> {
  sharedCache ??= scratchDir('npm-cache');
  return sharedCache;
}

/** Fails loudly when the global setup could not provide the kit (not built, pack failed…). */
export function requireKit(source: KitSource): Exclude<KitSource, { kind: 'unavailable' }> {
  if (source.kind === 'unavailable') throw new Error(`e2e: the kit is not available: ${source.reason}`);
  return source;
}

/**
 * Runs `<guard> <args>` as a user would: `npx --registry <url> @kit/<guard> <args>` against the local
 * registry, or the bin from the project's node_modules when the kit came as tarballs.
 */
export async function runGuardCli(
  source: KitSource,
  guard: GuardName,
  args: string[],
  place: GuardCliPlace,
): Promise<CommandResult> {
  const kit = requireKit(source);
  await mkdir(place.home, { recursive: true });
  if (kit.kind === 'registry') {
    return runCommand('npx', ['--yes', '--registry', kit.url, `@kit/${guard}`, ...args], {
      cwd: place.cwd,
      env: npmEnvironment(place.home, {
        npm_config_userconfig: kit.npmrc,
        npm_config_cache: await npmCacheOfThisFile(),
        ...place.env,
      }),
      timeoutMs: 60_000,
    });
  }
  const bin = join(place.cwd, 'node_modules', '.bin', guard);
  if (!existsSync(bin)) await installTarballs(kit.packages, place);
  return runCommand(bin, args, {
    cwd: place.cwd,
    env: npmEnvironment(place.home, place.env),
    timeoutMs: 60_000,
  });
}

/**
 * The guard's CLI as runGuardCli last ran it in this place, for a command line a session runs:
 * npx's copy in this file's npm cache, or the project's node_modules/.bin (tarballs).
 */
export async function guardCliBin(
  source: KitSource,
  guard: GuardName,
  place: GuardCliPlace,
): Promise<string> {
  const kit = requireKit(source);
  if (kit.kind !== 'registry') return join(place.cwd, 'node_modules', '.bin', guard);
  const npx = join(await npmCacheOfThisFile(), '_npx');
  for (const entry of await readdir(npx).catch(() => [])) {
    const bin = join(npx, entry, 'node_modules', '.bin', guard);
    if (existsSync(bin)) return bin;
  }
  throw new Error(`e2e: no ${guard} in npx's cache ${npx}: run it through runGuardCli first`);
}

async function installTarballs(packages: PackedPackage[], place: GuardCliPlace): Promise<void> {
  expectSuccess(
    'npm install of the packed kit',
    await runCommand(
      'npm',
      [
        'install',
        '--offline',
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        ...packages.map((p) => p.tarball),
      ],
      { cwd: place.cwd, env: npmEnvironment(place.home), timeoutMs: 120_000 },
    ),
  );
}

/** `<guard> install --project [...flags]`, which must succeed. */
export async function installGuard(
  source: KitSource,
  guard: GuardName,
  place: GuardCliPlace,
  flags: string[] = [],
): Promise<CommandResult> {
  return expectSuccess(
    `${guard} install --project ${flags.join(' ')}`,
    await runGuardCli(source, guard, ['install', '--project', ...flags], place),
  );
}
