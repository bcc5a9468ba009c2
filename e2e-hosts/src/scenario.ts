import { readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { type KitSource, runGuardCli } from '@kit/e2e/src/kit.ts';
import type { GuardName } from '@kit/e2e/src/pack.ts';
import { scratchDir, scratchRepo } from '@kit/e2e/src/scratch.ts';
import { type CommandResult, expectSuccess, type Tree } from '@kit/test-kit';
import { type Host, hostHomeEnv, prepareHostHome } from './host-cli.ts';

/** Where each host's scenarios install: Codex's user hooks.json (its project layer also needs the project trusted), the others' project files. */
export const scopeOf: Record<Host, 'user' | 'project'> = {
  codex: 'user',
  gemini: 'project',
  copilot: 'project',
};

/** A scratch repository with one guard installed for one host by the guard's own `install --host`. */
export interface HostProject {
  host: Host;
  guard: GuardName;
  project: string;
  home: string;
  bundle: string; // where install put the bundle
  installOutput: CommandResult;
  /** Runs the guard's CLI there as the user would (npx from the registry), with the host's home variables. */
  cli(args: string[], env?: Record<string, string>): Promise<CommandResult>;
}

function bundlePathOf(host: Host, guard: GuardName, project: string, home: string): string {
  switch (host) {
    case 'codex':
      return join(home, '.codex', 'hooks', `${guard}.cjs`);
    case 'gemini':
      return join(project, '.gemini', 'hooks', `${guard}.cjs`);
    case 'copilot':
      return join(project, '.github', 'hooks', `${guard}.cjs`);
  }
}

/** Makes a scratch repository holding `tree`, prepares the host's scratch HOME, and runs `<guard> install --host <host>` there. */
export async function installForHost(
  source: KitSource,
  guard: GuardName,
  host: Host,
  tree: Tree = {},
): Promise<HostProject> {
  const home = await scratchDir(`${host}-${guard}-home`);
  const project = await scratchRepo(`${host}-${guard}`, tree);
  await prepareHostHome(host, home);
  const place = { cwd: project, home, env: hostHomeEnv(host, home) };
  const args = ['install', '--host', host, `--${scopeOf[host]}`];
  const installOutput = expectSuccess(
    `${guard} ${args.join(' ')}`,
    await runGuardCli(source, guard, args, place),
  );
  return {
    host,
    guard,
    project,
    home,
    bundle: bundlePathOf(host, guard, project, home),
    installOutput,
    cli: (cliArgs, env) => runGuardCli(source, guard, cliArgs, { ...place, env: { ...place.env, ...env } }),
  };
}

/**
 * A PATH folder with every program of /usr/bin and /bin but node: the installed command then finds
 * no interpreter (bash answers 127), as on a machine where node is not on the host's PATH.
 */
export async function pathWithoutNode(): Promise<string> {
  const dir = await scratchDir('no-node-bin');
  for (const folder of ['/usr/local/bin', '/usr/bin', '/bin'])
    for (const name of safeList(folder)) {
      if (name === 'node' || name === 'nodejs') continue;
      try {
        symlinkSync(join(folder, name), join(dir, name));
      } catch {
        // the same name from an earlier folder wins, as on PATH
      }
    }
  return dir;
}

function safeList(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
