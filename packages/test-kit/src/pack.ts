import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectSuccess, runCommand } from './command.ts';
import { freshTempDir } from './temp-tree.ts';

/** The workspace root (…/packages/test-kit/src → …). */
export const repoRoot: string = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** One packed tarball ready to publish or install. */
export interface PackedPackage {
  name: string;
  version: string;
  tarball: string;
  kit: boolean; // false: a runtime dependency of the kit from outside (mvdan-sh), packed from node_modules
}

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}

interface PnpmPackEntry {
  name: string;
  version: string;
  filename: string; // absolute, in --pack-destination
}

async function readManifest(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The pnpm that installed this workspace: the one running this script, the pinned one in .tools/, or PATH's. */
function pnpmCommand(): { command: string; prefix: string[] } {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath) && existsSync(execPath)) {
    return execPath.endsWith('.cjs') || execPath.endsWith('.js')
      ? { command: process.execPath, prefix: [execPath] }
      : { command: execPath, prefix: [] };
  }
  const pinned = join(repoRoot, '.tools', 'node_modules', '.bin', 'pnpm');
  return existsSync(pinned) ? { command: pinned, prefix: [] } : { command: 'pnpm', prefix: [] };
}

/**
 * Packs kit packages (folders under packages/) with `pnpm pack`, which rewrites `workspace:^` into
 * the real version ranges as a publish does, and, with `npm pack`, every runtime dependency they
 * pull from outside the kit, from the copy pnpm installed: an offline install needs them beside.
 */
export async function packPackages(folders: readonly string[], outDir: string): Promise<PackedPackage[]> {
  const pnpm = pnpmCommand();
  const external = new Map<string, string>(); // name@version → installed folder
  for (const folder of folders) {
    await collectExternal(join(repoRoot, 'packages', folder), external);
  }
  // One recursive pack: a pnpm process per package costs a second each on a busy machine.
  const filters = folders.flatMap((folder) => ['--filter', `./packages/${folder}`]);
  const kit = runCommand(
    pnpm.command,
    [
      ...pnpm.prefix,
      '-r',
      ...filters,
      'pack',
      '--pack-destination',
      outDir,
      '--json',
      '--workspace-concurrency',
      '8',
    ],
    { cwd: repoRoot, timeoutMs: 120_000 },
  ).then((result) => {
    expectSuccess('pnpm -r pack of the kit', result);
    const parsed = JSON.parse(result.stdout) as PnpmPackEntry | PnpmPackEntry[];
    return (Array.isArray(parsed) ? parsed : [parsed]).map(
      (entry): PackedPackage => ({
        name: entry.name,
        version: entry.version,
        tarball: entry.filename,
        kit: true,
      }),
    );
  });
  const outside = [...external.values()].map(async (dir): Promise<PackedPackage> => {
    const manifest = await readManifest(dir);
    const result = expectSuccess(
      `npm pack ${dir}`,
      await runCommand('npm', ['pack', dir, '--pack-destination', outDir], {
        cwd: outDir,
        timeoutMs: 60_000,
      }),
    );
    return {
      name: manifest.name,
      version: manifest.version,
      tarball: lastTarballLine(result.stdout, outDir),
      kit: false,
    };
  });
  const [kitPackages, outsidePackages] = await Promise.all([kit, Promise.all(outside)]);
  if (kitPackages.length !== folders.length) {
    throw new Error(
      `pnpm packed ${kitPackages.map((p) => p.name).join(', ')}, expected the ${folders.length} packages ${folders.join(', ')}`,
    );
  }
  return [...kitPackages, ...outsidePackages];
}

/** Packed packages installed into an app folder, as a user's `npm install` leaves them. */
export interface PackedInstall {
  app: string; // the folder holding package.json and node_modules
  packages: PackedPackage[];
  installed: (name: string) => string; // the folder of an installed package: installed('@kit/x')
  remove: () => void; // removes the tarballs and the app
}

/**
 * Packs `folders` (and their outside dependencies) and installs the tarballs with npm, offline and
 * without scripts, into an empty app. Slow (tens of seconds): call it from a `beforeAll`, and
 * `remove()` in the `afterAll`.
 */
export async function installPacked(folders: readonly string[]): Promise<PackedInstall> {
  const root = freshTempDir('kit-pack');
  const tarballs = join(root, 'tarballs');
  const app = join(root, 'app');
  mkdirSync(tarballs);
  mkdirSync(app);
  const packages = await packPackages(folders, tarballs);
  await runCommand('npm', ['init', '-y'], { cwd: app }).then((result) => expectSuccess('npm init', result));
  const install = await runCommand(
    'npm',
    [
      'install',
      '--offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      ...packages.map((p) => p.tarball),
    ],
    { cwd: app, timeoutMs: 180_000 },
  );
  expectSuccess('npm install of the packed tarballs', install);
  return {
    app,
    packages,
    installed: (name) => join(app, 'node_modules', ...name.split('/')),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

async function collectExternal(packageDir: string, found: Map<string, string>): Promise<void> {
  const manifest = await readManifest(packageDir);
  const require = createRequire(join(packageDir, 'package.json'));
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    if (range.startsWith('workspace:')) continue;
    const dir = await realpath(dirname(resolvePackageJson(require, name, packageDir)));
    const depManifest = await readManifest(dir);
    const key = `${depManifest.name}@${depManifest.version}`;
    if (found.has(key)) continue;
    found.set(key, dir);
    await collectExternal(dir, found);
  }
}

// A package whose `exports` hides package.json cannot be resolved by its manifest path; look for the folder.
function resolvePackageJson(require: NodeJS.Require, name: string, from: string): string {
  try {
    return require.resolve(`${name}/package.json`);
  } catch {
    for (const base of require.resolve.paths(name) ?? []) {
      const candidate = join(base, name, 'package.json');
      if (existsSync(candidate)) return candidate;
    }
    throw new Error(`${name} (a dependency of ${from}) is not installed`);
  }
}

function lastTarballLine(stdout: string, outDir: string): string {
  const line = stdout
    .trim()
    .split('\n')
    .map((text) => text.trim())
    .filter((text) => text.endsWith('.tgz'))
    .pop();
  if (!line) throw new Error(`pack printed no tarball name:\n${stdout}`);
  return line.startsWith('/') ? line : join(outDir, line);
}
