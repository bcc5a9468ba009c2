import { onPath } from '@kit/fail-open';
import type { Check } from '../check.ts';
import type { HostCheckContext } from '../host-wiring.ts';

/** One hook as `codex app-server` lists it. */
interface ListedHook {
  key?: string; // <hooks.json path>:pre_tool_use:<group>:<handler>
  command?: string;
  trustStatus?: string; // untrusted | modified | trusted | managed
}

const answerTimeoutMs = 15_000;

/**
 * doctor's trust line for Codex CLI, which skips an untrusted hook without a word: asks `codex
 * app-server` (JSON-RPC on stdio: initialize, then hooks/list for the cwd) how it sees the installed
 * handler. A warning, not a problem, when codex is not on PATH or does not answer: trust cannot be read
 * from the files without Codex's own hash.
 */
export async function checkCodexTrust(context: HostCheckContext): Promise<Check[]> {
  const codex = onPath('codex', context.io.env);
  if (codex === null)
    return [
      {
        ok: true,
        warn: true,
        text: 'codex is not on PATH, so doctor cannot ask whether Codex trusts the hook: until you trust it (/hooks in codex), Codex skips it without a word',
      },
    ];
  const listed = await listHooks(codex, context);
  if (!listed.ok)
    return [
      { ok: true, warn: true, text: `could not ask codex whether it trusts the hook (${listed.message})` },
    ];
  const prefix = `${context.where.settingsPath}:pre_tool_use:`;
  const hook = listed.hooks.find((h) => h.key?.startsWith(prefix) && h.command === context.entry.command);
  if (hook === undefined)
    return [
      {
        ok: false,
        text: `codex does not list the hook in ${context.where.settingsPath} for ${context.io.cwd}: it will not run it`,
      },
    ];
  if (hook.trustStatus === 'trusted' || hook.trustStatus === 'managed')
    return [{ ok: true, text: `Codex trusts the hook (${hook.trustStatus}, ${hook.key})` }];
  return [
    {
      ok: false,
      text: `Codex has the hook as ${hook.trustStatus ?? 'unknown'}, so it skips it without a word: trust it with /hooks in an interactive codex session (or start codex exec with --dangerously-bypass-hook-trust)`,
    },
  ];
}

type Listing = { ok: true; hooks: ListedHook[] } | { ok: false; message: string };

async function listHooks(codex: string, context: HostCheckContext): Promise<Listing> {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    const child = spawn(codex, ['app-server'], {
      cwd: context.io.cwd,
      env: context.io.env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let buffer = '';
    const finish = (listing: Listing) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      resolve(listing);
    };
    const timer = setTimeout(
      () => finish({ ok: false, message: `no answer in ${answerTimeoutMs / 1000} s` }),
      answerTimeoutMs,
    );
    const send = (message: object) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    child.on('error', (error) => finish({ ok: false, message: error.message }));
    child.stdin.on('error', () => undefined);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        let message: {
          id?: number;
          result?: { data?: { hooks?: ListedHook[] }[] };
          error?: { message?: string };
        };
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.id === 1) {
          send({ method: 'initialized' });
          send({ id: 2, method: 'hooks/list', params: { cwds: [context.io.cwd] } });
        } else if (message.id === 2) {
          if (message.error) finish({ ok: false, message: message.error.message ?? 'hooks/list failed' });
          else finish({ ok: true, hooks: (message.result?.data ?? []).flatMap((d) => d.hooks ?? []) });
        }
      }
    });
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'kit-doctor', version: '1' } } });
  });
}
