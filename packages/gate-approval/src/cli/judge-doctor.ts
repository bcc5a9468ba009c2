import { stat } from 'node:fs/promises';
import { hostAdapters } from '../hosts/host-adapter.ts';
import type { Check } from './check.ts';
import type { DoctorContext, EntryReading } from './doctor-part.ts';
import type { InstalledEntry } from './host-wiring.ts';
import { judgeLocations } from './judge-route.ts';
import { judgeModulesOf, judgeServerName, readJudgeServer } from './judge-server-entry.ts';
import { askJudgeServer, fillTemplate } from './mcp-probe.ts';
import { controlCwd, offSwitches, withPositiveControl } from './positive-control.ts';
import { findProjectDir } from './project-dir.ts';
import { judgeHandler } from './transport.ts';

// What a session's client allows a server to connect in (MCP_TIMEOUT's default), plus the call.
const connectMs = 30_000;

/**
 * Claude Code's doctor for an `mcp_tool` entry (the MCP path of install): the handler is the one
 * install writes; the server it names is declared in ~/.claude.json for this scope and names this
 * guard's judge module, which is there; then the server, started exactly as declared, lists no
 * tools (the model never sees it) and denies the positive control given the handler's own input
 * template, filled as the host fills it.
 */
export async function readJudgeEntry(context: DoctorContext, entry: InstalledEntry): Promise<EntryReading> {
  const { guard, where, hint, scope, io } = context;
  const handler = entry.handler;
  const strict = handler.onFailure === 'block';
  if (
    entry.matcher !== guard.matcher ||
    JSON.stringify(handler) !== JSON.stringify(judgeHandler(guard.name, strict))
  )
    return fail(
      `the ${guard.name} entry in ${where.settingsPath} is not the mcp_tool handler install writes (matcher ${guard.matcher}, server ${judgeServerName}, the guard's input template): ${hint} to upgrade it`,
    );
  const checks: Check[] = [
    {
      ok: true,
      text: `settings entry in ${where.settingsPath}: matcher ${guard.matcher}, mcp_tool ${judgeServerName} ${String(handler.tool)}, timeout ${String(handler.timeout)} s${strict ? ', onFailure block (strict)' : ''}`,
    },
  ];
  const declared =
    scope === 'project'
      ? null
      : await readJudgeServer({ scope, projectDir: where.projectDir, claude: '' }, io);
  if (declared === null)
    return fail(
      `the handler names the MCP server ${judgeServerName}, which Claude Code has not declared for the ${scope} scope (\`claude mcp get ${judgeServerName}\`): until it is, every call runs unjudged; ${hint}`,
      checks,
    );
  checks.push({
    ok: true,
    text: `server ${judgeServerName}: ${declared.command} ${declared.args.join(' ')}`,
  });
  const { module } = judgeLocations(guard, where);
  if (!judgeModulesOf(declared).includes(module))
    return fail(`the server ${judgeServerName} does not name ${module}: ${hint}`, checks);
  if (
    !(await stat(module).then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    return fail(`the judge module ${module} is missing: ${hint}`, checks);
  checks.push(...(await judgeControl(context, { ...declared, env: {} }, handler, judgeServerName)));
  return { checks, run: null };
}

function fail(text: string, before: Check[] = []): EntryReading {
  return { checks: [...before, { ok: false, text }], run: null };
}

/** A judge server as the host starts it: its command, and what the host adds to the session's environment. */
export interface JudgeServerStart {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * The server started as the session would start it (`serverName` as the handler names it), asked
 * through the handler's own input: its tool listing, and the positive control's answer.
 */
export async function judgeControl(
  context: DoctorContext,
  server: JudgeServerStart,
  handler: Record<string, unknown>,
  serverName: string,
): Promise<Check[]> {
  const { guard, where, io } = context;
  const projectDir = where.projectDir ?? (await findProjectDir(io.cwd));
  let hidden: Check | null = null;
  const control = await withPositiveControl(guard, async (control) => {
    const payload = hostAdapters.claude.payloadOf({ ...control.payload, cwd: await controlCwd(control, io) });
    if (payload === null)
      return { ok: false, text: `the positive control has no Claude Code payload (${guard.matcher})` };
    const answers = await askJudgeServer(
      {
        command: server.command,
        args: server.args,
        env: { ...io.env, ...server.env, CLAUDE_PROJECT_DIR: projectDir, ...control.env },
        cwd: projectDir,
        timeoutMs: connectMs + Number(handler.timeout) * 1000,
      },
      {
        name: String(handler.tool),
        arguments: fillTemplate(handler.input, payload) as Record<string, unknown>,
      },
    );
    if (answers.tools !== null)
      hidden =
        answers.tools.length === 0
          ? { ok: true, text: `the server lists no tools: the model never sees ${serverName}` }
          : { ok: false, text: `the server lists ${answers.tools.length} tools: the model sees them` };
    if (answers.text !== null && !answers.isError && hostAdapters.claude.isDenyOutput(answers.text))
      return {
        ok: true,
        text: `positive control denied through the judge server ${serverName}, as the handler asks it`,
      };
    const detail =
      answers.problem ??
      `${answers.isError ? 'isError, ' : ''}text ${JSON.stringify((answers.text ?? '').trim().slice(0, 160))}`;
    return {
      ok: false,
      text: `the positive control did not deny through the judge server ${serverName} (${detail})${offSwitches(guard, io)}`,
    };
  });
  return hidden === null ? [control] : [hidden, control];
}
