import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { cliEnvironment, findClaudeBinary } from './claude.ts';
import {
  type CommandResult,
  expectSuccess,
  type PackedPackage,
  repoRoot,
  runCommand,
  writeTree,
} from '@kit/test-kit';
import { type KitSource, requireKit } from './kit.ts';
import { GUARDS, type GuardName } from './pack.ts';
import { scratchDir } from './scratch.ts';

/** The marketplace's name, as the checkout's .claude-plugin/marketplace.json declares it. */
export const MARKETPLACE = 'kit';

/** The kit's plugins: one per guard, git-write-gate's strict variant and each guard's monitor variant. */
export type PluginName = GuardName | 'git-write-gate-strict' | `${GuardName}-monitor`;

/** The package that ships the kit-judge plugin (the MCP judge every guard plugin depends on). */
export const JUDGE_PACKAGE = 'gate-approval';
/** The packages that ship a plugin, by folder under packages/. */
export type PluginPackage = GuardName | typeof JUDGE_PACKAGE;
const PLUGIN_PACKAGES: readonly PluginPackage[] = [...GUARDS, JUDGE_PACKAGE];

/** The guard package a plugin comes from. */
export function guardOfPlugin(plugin: PluginName): GuardName {
  return GUARDS.find((guard) => plugin === guard || plugin.startsWith(`${guard}-`)) as GuardName;
}

/**
 * What `claude plugin marketplace add` is given.
 * - npm: the checkout itself; its entries install `@kit/<guard>` from npm, and npm in the scratch
 *   HOME is pointed at the loopback registry (`registry=` in `~/.npmrc`), as a user of a private
 *   registry has it.
 * - relative: when the kit came as tarballs (no registry), a marketplace the suite builds in a temp
 *   folder: the checkout's marketplace.json with each npm source replaced by `./plugins/<guard>`, the
 *   guard's packed tarball unpacked there. Same entries, same package contents, no npm.
 */
export interface KitMarketplace {
  dir: string;
  route: 'npm' | 'relative';
  registryUrl?: string;
}

interface MarketplaceFile {
  name: string;
  plugins: { name: string; source: string | { source: string; package?: string } }[];
}

/** The checkout's .claude-plugin/marketplace.json, parsed. */
export async function readKitMarketplace(): Promise<MarketplaceFile> {
  return JSON.parse(
    await readFile(join(repoRoot, '.claude-plugin', 'marketplace.json'), 'utf8'),
  ) as MarketplaceFile;
}

/**
 * The marketplace the plugin scenarios add, for the way the kit came. A relative-source one is
 * built afresh for each caller: the CLI runs such a plugin from the marketplace folder itself, so
 * a scenario that breaks its copy must not share it.
 */
export async function kitMarketplace(source: KitSource): Promise<KitMarketplace> {
  const kit = requireKit(source);
  if (kit.kind === 'registry') return { dir: repoRoot, route: 'npm', registryUrl: kit.url };
  return { dir: await buildRelativeMarketplace(kit.packages), route: 'relative' };
}

/**
 * A directory marketplace of the kit whatever the way it came (the relative route above): one a
 * scenario may edit, as a marketplace's owner publishes a new version of one plugin.
 */
export async function directoryMarketplace(source: KitSource): Promise<KitMarketplace> {
  return { dir: await buildRelativeMarketplace(requireKit(source).packages), route: 'relative' };
}

async function buildRelativeMarketplace(packages: PackedPackage[]): Promise<string> {
  const dir = await scratchDir('marketplace');
  const folderOf = new Map<string, string>();
  for (const folder of PLUGIN_PACKAGES) {
    await unpackGuard(packages, folder, join(dir, 'plugins', folder));
    folderOf.set(`@kit/${folder}`, `./plugins/${folder}`);
  }
  const marketplace = await readKitMarketplace();
  for (const entry of marketplace.plugins) {
    const from = typeof entry.source === 'object' ? entry.source.package : undefined;
    const folder = from === undefined ? undefined : folderOf.get(from);
    if (folder === undefined)
      throw new Error(`e2e: marketplace entry ${entry.name} has no npm source of the kit`);
    entry.source = folder;
  }
  writeTree(dir, { '.claude-plugin/marketplace.json': `${JSON.stringify(marketplace, null, 2)}\n` });
  return dir;
}

/** Unpacks a guard's packed tarball (its `package/` folder) into `into`: the plugin exactly as npm ships it. */
export async function unpackGuard(
  packages: PackedPackage[],
  guard: PluginPackage,
  into: string,
): Promise<string> {
  const packed = packages.find((p) => p.name === `@kit/${guard}`);
  if (!packed) throw new Error(`e2e: @kit/${guard} was not packed`);
  await mkdir(into, { recursive: true });
  expectSuccess(
    `tar -x ${packed.tarball}`,
    await runCommand('tar', ['-xzf', packed.tarball, '-C', into, '--strip-components=1'], { cwd: into }),
  );
  return into;
}

/** A guard's plugin and the kit-judge plugin it depends on (@kit/gate-approval), each unpacked from
 * its tarball into one temp folder, side by side, for `claude -p --plugin-dir <judge> --plugin-dir <guard>`. */
export async function unpackedPlugin(
  source: KitSource,
  guard: GuardName,
): Promise<{ guardDir: string; judgeDir: string }> {
  const kit = requireKit(source);
  const dir = await scratchDir(`${guard}-plugin-dir`);
  return {
    guardDir: await unpackGuard(kit.packages, guard, join(dir, guard)),
    judgeDir: await unpackGuard(kit.packages, JUDGE_PACKAGE, join(dir, JUDGE_PACKAGE)),
  };
}

/** A scratch HOME in which the real CLI added the kit's marketplace and installed one plugin (user scope). */
export interface InstalledPlugin {
  plugin: PluginName;
  home: string;
  marketplace: KitMarketplace;
  installPath: string; // <home>/.claude/plugins/cache/kit/<plugin>/<version>, as installed_plugins.json has it
  /** The folder the host runs the plugin from (${CLAUDE_PLUGIN_ROOT}): the installed copy for an npm
   * source; for a relative source in a directory marketplace, the marketplace's own folder (2.1.332
   * copies it into the cache too, but runs the hooks from the source folder). */
  pluginRoot: string;
  version: string;
  outputs: { add: CommandResult; install: CommandResult };
}

/** Runs `claude <args>` (the plugin commands) with HOME at `home` and the suite's CLI environment. */
export function runClaudeCommand(args: string[], home: string): Promise<CommandResult> {
  // The plugin commands never reach the Messages API: a closed loopback port stands in for it.
  return runCommand(findClaudeBinary(), args, {
    cwd: home,
    env: cliEnvironment('http://127.0.0.1:9', home),
    timeoutMs: 60_000,
  });
}

/** Runs a command line as a user types it (`claude plugin uninstall … && claude plugin install …`),
 * through a shell with the pinned CLI on PATH as `claude`, HOME at `home`. */
export function runClaudeShell(commandLine: string, home: string): Promise<CommandResult> {
  const env = cliEnvironment('http://127.0.0.1:9', home);
  return runCommand('sh', ['-c', commandLine], {
    cwd: home,
    env: { ...env, PATH: `${dirname(findClaudeBinary())}:${env.PATH}` },
    timeoutMs: 120_000,
  });
}

/**
 * `claude plugin marketplace add <marketplace>` then `claude plugin install <plugin>@kit`, in a
 * fresh scratch HOME, as a user installs a plugin. With the npm route the CLI runs npm, which
 * finds the loopback registry in `<home>/.npmrc`.
 */
export async function installPlugin(source: KitSource, plugin: PluginName): Promise<InstalledPlugin> {
  const marketplace = await kitMarketplace(source);
  const home = await scratchDir(`${plugin}-plugin-home`);
  if (marketplace.registryUrl !== undefined) {
    writeTree(home, { '.npmrc': `registry=${marketplace.registryUrl}/\n` });
  }
  const add = expectSuccess(
    `claude plugin marketplace add ${marketplace.dir}`,
    await runClaudeCommand(['plugin', 'marketplace', 'add', marketplace.dir], home),
  );
  const install = expectSuccess(
    `claude plugin install ${plugin}@${MARKETPLACE}`,
    await runClaudeCommand(['plugin', 'install', `${plugin}@${MARKETPLACE}`], home),
  );
  const installed = JSON.parse(
    await readFile(join(home, '.claude', 'plugins', 'installed_plugins.json'), 'utf8'),
  ) as { plugins: Record<string, { installPath: string; version: string }[]> };
  const [record] = installed.plugins[`${plugin}@${MARKETPLACE}`] ?? [];
  if (!record) throw new Error(`e2e: installed_plugins.json has no ${plugin}@${MARKETPLACE}`);
  const pluginRoot =
    marketplace.route === 'npm'
      ? record.installPath
      : join(marketplace.dir, 'plugins', guardOfPlugin(plugin));
  return {
    plugin,
    home,
    marketplace,
    installPath: record.installPath,
    pluginRoot,
    version: record.version,
    outputs: { add, install },
  };
}
