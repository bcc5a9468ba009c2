// Keeps each guard's Claude Code plugin on its npm package's version. A guard's package ships its
// plugin (.claude-plugin/plugin.json), and the kit's marketplace (.claude-plugin/marketplace.json at
// the root) installs it from npm at a pinned version: both copies of the version must be the
// package.json one, or a user gets a plugin that reports one version and runs another.
// `changeset version` bumps package.json only; the root `version-packages` script runs this after it.
//
//   node scripts/plugin-versions.mjs           write the package versions into the copies
//   node scripts/plugin-versions.mjs --check   change nothing; list every copy that drifted, exit 1
//   --root <dir>                               another checkout than this script's (for a test's copy)
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const marketplacePath = join('.claude-plugin', 'marketplace.json');
const pluginManifestPath = join('.claude-plugin', 'plugin.json');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** Every package under packages/ that ships a plugin: its folder, package.json and plugin.json. */
function pluginPackages(root) {
  const packagesDir = join(root, 'packages');
  return readdirSync(packagesDir)
    .map((folder) => join(packagesDir, folder))
    .filter((dir) => existsSync(join(dir, pluginManifestPath)))
    .map((dir) => ({
      dir,
      manifest: readJson(join(dir, 'package.json')),
      plugin: readJson(join(dir, pluginManifestPath)),
    }));
}

/**
 * What differs from the package versions, without writing anything: one entry per copy, with the
 * file (relative to `root`), where in it, the version found and the one expected, and the fix to
 * apply (a function that sets the expected value on the parsed document).
 */
function plan(root) {
  const packages = pluginPackages(root);
  const versionOf = new Map(packages.map((p) => [p.manifest.name, p.manifest.version]));
  const changes = [];
  const documents = new Map(); // file → parsed JSON, written once by sync
  for (const p of packages) {
    const file = join(p.dir, pluginManifestPath);
    documents.set(file, p.plugin);
    if (p.plugin.version !== p.manifest.version) {
      changes.push({
        file,
        where: 'version',
        found: p.plugin.version,
        expected: p.manifest.version,
        apply: () => {
          p.plugin.version = p.manifest.version;
        },
      });
    }
  }
  const marketplaceFile = join(root, marketplacePath);
  if (existsSync(marketplaceFile)) {
    const marketplace = readJson(marketplaceFile);
    documents.set(marketplaceFile, marketplace);
    for (const entry of marketplace.plugins ?? []) {
      const source = entry.source;
      if (typeof source !== 'object' || source === null || source.source !== 'npm') continue;
      const where = `plugins[${JSON.stringify(entry.name)}].source.version`;
      const expected = versionOf.get(source.package);
      if (expected === undefined) {
        changes.push({ file: marketplaceFile, where, found: source.package, expected: undefined });
      } else if (source.version !== expected) {
        changes.push({
          file: marketplaceFile,
          where,
          found: source.version,
          expected,
          apply: () => {
            source.version = expected;
          },
        });
      }
    }
  }
  return { changes, documents };
}

const reported =
  (root) =>
  ({ file, where, found, expected }) => ({ file: relative(root, file), where, found, expected });

/** Every copy of a guard's version that differs from its package.json, as `{ file, where, found, expected }`. */
function pluginVersionDrift(root) {
  return plan(root).changes.map(reported(root));
}

/**
 * Writes each package's version into its plugin.json and into the marketplace entries that install
 * it from npm. Returns what it changed. Throws, writing nothing, when a marketplace entry names an
 * npm package that is not a kit package with a plugin (no version to copy).
 */
function syncPluginVersions(root) {
  const { changes, documents } = plan(root);
  const orphan = changes.find((change) => change.expected === undefined);
  if (orphan) {
    throw new Error(
      `${relative(root, orphan.file)}: ${orphan.where} installs ${orphan.found}, which is no package under packages/ with a plugin`,
    );
  }
  for (const change of changes) change.apply();
  for (const file of new Set(changes.map((change) => change.file))) writeJson(file, documents.get(file));
  return changes.map(reported(root));
}

function describe(change) {
  return change.expected === undefined
    ? `${change.file}: ${change.where} installs ${change.found}, which is no package under packages/ with a plugin`
    : `${change.file}: ${change.where} is ${change.found}, its package is at ${change.expected}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rootAt = process.argv.indexOf('--root');
  const root = rootAt === -1 ? fileURLToPath(new URL('..', import.meta.url)) : process.argv[rootAt + 1];
  if (root === undefined) throw new Error('--root needs a folder');
  if (process.argv.includes('--check')) {
    const drift = pluginVersionDrift(root);
    for (const change of drift) process.stderr.write(`${describe(change)}\n`);
    if (drift.length > 0) {
      process.stderr.write('run `node scripts/plugin-versions.mjs` to copy the package versions\n');
      process.exitCode = 1;
    }
  } else {
    const changed = syncPluginVersions(root);
    for (const change of changed)
      process.stdout.write(`${change.file}: ${change.where} ${change.found} → ${change.expected}\n`);
    if (changed.length === 0)
      process.stdout.write('plugin versions: every copy already matches its package\n');
  }
}
