import { readFile, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { onPath, type Outcome } from '@kit/fail-open';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { placeBundle, readExisting } from './bundle-file.ts';
import {
  declareJudgeServer,
  judgeFiles,
  judgeArgs,
  judgeModulesOf,
  judgeServerName,
  type JudgeServerScope,
  readJudgeServer,
} from './judge-server-entry.ts';
import type { Scope, ScopeLocations } from './scope.ts';
import { describeError } from './settings-file.ts';
import { withSettingsLock } from './settings-lock.ts';
import type { HostWiring } from './host-wiring.ts';
import { chooseTransport, mcpWiring } from './transport.ts';

/** Where the MCP path keeps a scope's files: the guard's judge module and the shared server program. */
export function judgeLocations(
  guard: Pick<GuardDefinition, 'name'>,
  where: ScopeLocations,
): { module: string; program: string } {
  const hooks = dirname(where.bundlePath);
  return { module: join(hooks, `${guard.name}.judge.cjs`), program: join(hooks, `${judgeServerName}.cjs`) };
}

/** The scope's locations with the judge module in the bundle's place: what install copies and names. */
export function judgeWhere(guard: Pick<GuardDefinition, 'name'>, where: ScopeLocations): ScopeLocations {
  const { module } = judgeLocations(guard, where);
  return { ...where, bundlePath: module, handlerArg: module };
}

/**
 * Puts the guard's judge module in the shared server's list (or takes it out), under a lock of the
 * kit's own beside the server program, so two installs of different guards at once keep both.
 * Writes the server program when adding; removes it with the last module. The declaration itself
 * is Claude Code's (`claude mcp`). Null when done, else one line saying what failed.
 */
export async function enlistJudge(
  guard: GuardDefinition,
  where: ScopeLocations,
  server: JudgeServerScope,
  present: boolean,
  io: CliIO,
): Promise<string | null> {
  const { module, program } = judgeLocations(guard, where);
  const locked = await withSettingsLock(program, async (): Promise<string | null> => {
    const declared = await readJudgeServer(server, io);
    if (declared !== null && declared.args[0] !== program)
      return `a server named ${judgeServerName} that install did not write is declared (${declared.command} ${declared.args.join(' ')}); left as it is`;
    if (!present && !judgeModulesOf(declared).includes(module)) return null;
    if (present) {
      try {
        const bytes = await readFile(judgeFiles(guard).server);
        await placeBundle(bytes, program, await readExisting(program));
      } catch (error) {
        return `cannot write ${program}: ${describeError(error)}`;
      }
    }
    const args = judgeArgs(declared, program, module, present);
    const same =
      declared !== null && declared.command === 'node' && args?.join('\n') === declared.args.join('\n');
    if (same) return null;
    const failed = await declareJudgeServer(server, declared, args, io);
    if (failed === null && args === null) await unlink(program).catch(() => undefined);
    return failed;
  });
  return locked.ok ? locked.value : locked.message;
}

/** What install copies, names and writes for the chosen transport: the MCP path swaps the bundle for the judge module. */
export interface InstallRoute {
  wiring: HostWiring;
  where: ScopeLocations; // where the handler's file goes (the judge module on the MCP path)
  scopeWhere: ScopeLocations; // the scope's own locations
  bundle: string; // the file install copies there
  line: string; // which transport, and why ('' for a host with only one)
  server?: JudgeServerScope; // the MCP path's server declaration
}

/** The transport for this install (transport.ts) and what it copies and writes. */
export async function routeInstall(
  guard: GuardDefinition,
  host: HostWiring,
  scope: Scope,
  asked: Parameters<typeof chooseTransport>[4],
  io: CliIO,
): Promise<Outcome<InstallRoute, 'usage'>> {
  const scopeWhere = await host.locate(guard, scope, io);
  const choice = await chooseTransport(guard, host, scope, scopeWhere.projectDir, asked, io);
  if (!choice.ok) return choice;
  const { line, server } = choice.value;
  if (server === undefined)
    return { ok: true, value: { wiring: host, where: scopeWhere, scopeWhere, bundle: guard.bundle, line } };
  const where = judgeWhere(guard, scopeWhere);
  const bundle = judgeFiles(guard).module;
  return { ok: true, value: { wiring: mcpWiring(host), where, scopeWhere, bundle, line, server } };
}

/**
 * uninstall's part on the MCP path: the guard's judge module off the shared server's list (through
 * `claude mcp`; the server goes with its last module) and its file removed. Only what install
 * wrote: nothing when the server does not name the module and the file is absent. The lines to say.
 */
export async function withdrawJudge(
  guard: GuardDefinition,
  where: ScopeLocations,
  io: CliIO,
): Promise<string[]> {
  if (where.scope === 'project') return [];
  const { module } = judgeLocations(guard, where);
  const claude = onPath('claude', io.env);
  const server: JudgeServerScope = {
    scope: where.scope,
    projectDir: where.projectDir,
    claude: claude ?? 'claude',
  };
  const lines: string[] = [];
  if (judgeModulesOf(await readJudgeServer(server, io)).includes(module)) {
    const failed = claude ? await enlistJudge(guard, where, server, false, io) : 'claude is not on PATH';
    lines.push(
      failed === null
        ? `  server   ${judgeServerName} no longer names ${module} (\`claude mcp\`, ${where.scope} scope)`
        : `  server   ${judgeServerName} still names ${module}: ${failed}; \`claude mcp remove -s ${where.scope} ${judgeServerName}\` removes it`,
    );
  }
  const removed = await unlink(module).then(
    () => true,
    () => false,
  );
  if (removed) lines.push(`  judge    ${module} (removed)`);
  return lines;
}
