import { chmod, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClaudeRun } from './claude.ts';
import type { CommandResult, Tree } from '@kit/test-kit';
import { installGuard, type KitSource, runGuardCli } from './kit.ts';
import type { GuardName } from './pack.ts';
import { scratchDir, scratchRepo } from './scratch.ts';

/** A scratch git repository with one guard installed by its own `install --project`, and the scratch HOME the CLI runs with. */
export interface GuardedProject {
  guard: GuardName;
  project: string;
  home: string;
  bundle: string; // <project>/.claude/hooks/<guard>.cjs
  handlerArg: string; // ${CLAUDE_PROJECT_DIR}/.claude/hooks/<guard>.cjs: the args as written, which the host's hook errors quote
  settingsFile: string; // <project>/.claude/settings.json
  installOutput: CommandResult;
  /** Runs the guard's CLI in the project (npx or the installed bin, as the kit came). */
  cli(args: string[], env?: Record<string, string>): Promise<CommandResult>;
}

/** Makes a scratch repository holding `tree` and installs `guard` there as a user would. */
export async function installInScratchProject(
  source: KitSource,
  guard: GuardName,
  options: { tree?: Tree; strict?: boolean; monitor?: boolean } = {},
): Promise<GuardedProject> {
  const home = await scratchDir(`${guard}-home`);
  const project = await scratchRepo(guard, options.tree ?? {});
  const place = { cwd: project, home };
  const flags = [...(options.strict ? ['--strict'] : []), ...(options.monitor ? ['--monitor'] : [])];
  const installOutput = await installGuard(source, guard, place, flags);
  return {
    guard,
    project,
    home,
    bundle: join(project, '.claude', 'hooks', `${guard}.cjs`),
    handlerArg: `\${CLAUDE_PROJECT_DIR}/.claude/hooks/${guard}.cjs`,
    settingsFile: join(project, '.claude', 'settings.json'),
    installOutput,
    cli: (args, env) => runGuardCli(source, guard, args, { ...place, env }),
  };
}

/** The PreToolUse handlers of a settings file, as written. */
export async function readHandlers(settingsFile: string): Promise<Record<string, unknown>[]> {
  const settings = JSON.parse(await readFile(settingsFile, 'utf8')) as {
    hooks?: { PreToolUse?: { hooks?: Record<string, unknown>[] }[] };
  };
  return (settings.hooks?.PreToolUse ?? []).flatMap((group) => group.hooks ?? []);
}

/** Rewrites every handler's timeout (seconds) in a settings file, keeping everything else. */
export async function setHandlerTimeout(settingsFile: string, seconds: number): Promise<void> {
  const settings = JSON.parse(await readFile(settingsFile, 'utf8')) as {
    hooks: { PreToolUse: { hooks: Record<string, unknown>[] }[] };
  };
  for (const group of settings.hooks.PreToolUse) for (const handler of group.hooks) handler.timeout = seconds;
  await writeFile(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
}

/** A folder holding one executable stub `name` (a shell script that exits 0), for PATH. */
export async function stubExecutable(name: string): Promise<string> {
  const dir = await scratchDir(`stub-${name}`);
  const file = join(dir, name);
  await writeFile(file, '#!/bin/sh\nexit 0\n');
  await chmod(file, 0o755);
  return dir;
}

/** The one tool result of a run with a single call. */
export function onlyToolResult(run: ClaudeRun): ClaudeRun['toolResults'][number] {
  if (run.toolResults.length !== 1) {
    throw new Error(`expected one tool_result, got ${run.toolResults.length}\n${describeRun(run)}`);
  }
  return run.toolResults[0] as ClaudeRun['toolResults'][number];
}

/** The ids of the calls the run's result lists under permission_denials. */
export function deniedIds(run: ClaudeRun): string[] {
  return run.permissionDenials.map((denial) => denial.tool_use_id);
}

/** Stream events the host printed about a hook that gave no verdict (a timeout, a crash). */
export function hookNoVerdictEvents(run: ClaudeRun): ClaudeRun['events'] {
  return run.events.filter((event) => event.type === 'system' && event.tag === 'hook_no_verdict');
}

/** Enough of a run to see what went wrong when an assertion fails. */
export function describeRun(run: ClaudeRun): string {
  return [
    `exit ${run.exitCode} in ${run.ms} ms`,
    `tool results: ${JSON.stringify(run.toolResults, null, 1)}`,
    `permission_denials: ${JSON.stringify(run.permissionDenials)}`,
    `stderr: ${run.stderr.slice(0, 2000)}`,
  ].join('\n');
}

/** Every transcript the CLI wrote under <home>/.claude/projects. */
export async function findTranscripts(home: string): Promise<string[]> {
  const root = join(home, '.claude', 'projects');
  const found: string[] = [];
  for (const folder of await readdir(root).catch(() => [] as string[])) {
    for (const file of await readdir(join(root, folder)).catch(() => [] as string[])) {
      if (file.endsWith('.jsonl')) found.push(join(root, folder, file));
    }
  }
  return found;
}
