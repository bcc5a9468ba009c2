// Installs a guard from this checkout into a project, with no @kit package on any registry: the
// route that works before the first publish. Usage:
//   node scripts/install-from-checkout.mjs <guard> <project> [--plugin] [more install arguments]
//   node scripts/install-from-checkout.mjs <guard>-monitor <project> --plugin   (the monitor plugin)
// Settings route (default): builds the packages if they are not built, packs the guard and the
// primitives it depends on with `pnpm pack` (which writes real versions where the workspace has
// `workspace:^`), and runs `npx -p <each tarball> <guard> install --project` in the project. The
// guard's third-party dependencies (mvdan-sh) come from npm's public registry as usual.
// Plugin route (--plugin): unpacks the packed plugins into a marketplace folder in the checkout
// (.tools/marketplace, the checkout's marketplace.json with each npm source made a local folder;
// the CLI runs a local plugin's hooks from there, so keep the checkout) and runs `claude plugin
// marketplace add <it> --scope project` and `claude plugin install <guard>@kit --scope project`.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const tools = join(root, '.tools');
// The plugins that are a variant of a guard's package (their marketplace entry inlines its hooks).
const guardFolders = readdirSync(join(root, 'packages')).filter(
  (name) => name.endsWith('-gate') || name.endsWith('-guard'),
);
const plugins = {
  'git-write-gate-strict': 'git-write-gate',
  ...Object.fromEntries(guardFolders.map((guard) => [`${guard}-monitor`, guard])),
};
const say = (text) => process.stdout.write(`${text}\n`);
const run = (command, args, cwd) => {
  say(`$ ${[command, ...args].join(' ')}`);
  execFileSync(command, args, { cwd, stdio: 'inherit' });
};

/** The guard's package folder and the workspace packages it depends on, deepest first. */
export function packagesOf(guard) {
  const seen = [];
  const visit = (name) => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      if (range.startsWith('workspace:')) visit(dependency.replace(/^@kit\//, ''));
    }
    if (!seen.includes(name)) seen.push(name);
  };
  visit(guard);
  return seen;
}

/** pnpm from .tools (bootstrap.sh), installing and building the packages first if they are not built. */
function prepare(names) {
  const pnpm = join(tools, 'node_modules', '.bin', 'pnpm');
  if (existsSync(pnpm) && names.every((name) => existsSync(join(root, 'packages', name, 'dist'))))
    return pnpm;
  say('kit: building the packages first (scripts/prepare.sh)');
  execFileSync('bash', [join(root, 'scripts', 'prepare.sh')], { cwd: root, stdio: 'inherit' });
  return pnpm;
}

/** Packs each package into `into`; returns the tarballs' paths. */
function pack(names, pnpm, into) {
  for (const name of names) {
    execFileSync(pnpm, ['pack', '--pack-destination', into], {
      cwd: join(root, 'packages', name),
      stdio: 'ignore',
    });
  }
  return readdirSync(into).map((file) => join(into, file));
}

/** A marketplace folder whose entries are the unpacked guards: the checkout's own, with local sources. */
function buildMarketplace(tarballs) {
  const dir = join(tools, 'marketplace');
  rmSync(dir, { recursive: true, force: true });
  const marketplace = JSON.parse(readFileSync(join(root, '.claude-plugin', 'marketplace.json'), 'utf8'));
  for (const entry of marketplace.plugins) {
    const guard = entry.source.package.replace(/^@kit\//, '');
    const tarball = tarballs.find((file) => file.includes(`kit-${guard}-`));
    if (tarball === undefined) continue;
    const folder = join(dir, 'plugins', guard);
    mkdirSync(folder, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', folder, '--strip-components=1']);
    entry.source = `./plugins/${guard}`;
  }
  marketplace.plugins = marketplace.plugins.filter((entry) => typeof entry.source === 'string');
  mkdirSync(join(dir, '.claude-plugin'), { recursive: true });
  writeFileSync(join(dir, '.claude-plugin', 'marketplace.json'), `${JSON.stringify(marketplace, null, 2)}\n`);
  return dir;
}

function main(argv) {
  const [plugin, projectArg, ...more] = argv;
  const known = [...guardFolders, ...Object.keys(plugins)];
  if (plugin === undefined || projectArg === undefined || !known.includes(plugin)) {
    process.stderr.write(
      `usage: node scripts/install-from-checkout.mjs <${known.join('|')}> <project> [--plugin] [install arguments]\n`,
    );
    return 2;
  }
  const project = resolve(projectArg);
  const guard = plugins[plugin] ?? plugin;
  const asPlugin = more.includes('--plugin');
  const rest = more.filter((arg) => arg !== '--plugin');
  // A guard plugin depends on kit-judge (@kit/gate-approval's plugin), which answers its hooks.
  const names = asPlugin ? [guard, 'gate-approval'] : packagesOf(guard);
  const scratch = mkdtempSync(join(tmpdir(), 'kit-checkout-'));
  try {
    return installFrom(pack(names, prepare(names), scratch), { plugin, guard, project, asPlugin, rest });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function installFrom(tarballs, { plugin, guard, project, asPlugin, rest }) {
  if (asPlugin) {
    const dir = buildMarketplace(tarballs);
    run('claude', ['plugin', 'marketplace', 'add', dir, '--scope', 'project'], project);
    run('claude', ['plugin', 'install', `${plugin}@kit`, '--scope', 'project'], project);
    return 0;
  }
  if (plugin !== guard)
    throw new Error(
      `${plugin} is a plugin: add --plugin, or install ${guard} ${plugin.endsWith('-monitor') ? '--monitor' : '--strict'}`,
    );
  const args = ['--yes', ...tarballs.flatMap((file) => ['-p', file]), guard, 'install', '--project', ...rest];
  run('npx', args, project);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
