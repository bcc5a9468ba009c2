import { spawn } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { findHostProgram, hostHomeEnv } from './host-cli.ts';

/** One hook as `codex app-server`'s hooks/list shows it. */
export interface ListedHook {
  key: string; // <hooks.json>:pre_tool_use:<group>:<handler>
  command: string;
  currentHash: string;
  trustStatus: string; // untrusted | modified | trusted | managed
}

/** The hooks codex sees for `cwd` under the scratch HOME, through `codex app-server` (JSON-RPC on stdio). */
export function listCodexHooks(home: string, cwd: string): Promise<ListedHook[]> {
  const { command } = findHostProgram('codex');
  const child = spawn(command, ['app-server'], {
    cwd,
    env: { PATH: '/usr/bin:/bin', HOME: home, ...hostHomeEnv('codex', home) },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('codex app-server: no hooks/list answer in 30 s'));
    }, 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, end)) as {
          id?: number;
          result?: { data?: { hooks?: ListedHook[] }[] };
        };
        buffer = buffer.slice(end + 1);
        if (message.id === 1) {
          send({ method: 'initialized' });
          send({ id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
        } else if (message.id === 2) {
          clearTimeout(timer);
          child.kill('SIGKILL');
          resolve((message.result?.data ?? []).flatMap((entry) => entry.hooks ?? []));
        }
      }
    });
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'kit-e2e', version: '1' } } });
  });
}

/**
 * Trusts every hook codex lists as untrusted, the way its /hooks review does: a
 * `[hooks.state."<key>"] trusted_hash = "<currentHash>"` table appended to `$CODEX_HOME/config.toml`.
 */
export async function trustCodexHooks(home: string, cwd: string): Promise<ListedHook[]> {
  const hooks = await listCodexHooks(home, cwd);
  const untrusted = hooks.filter((hook) => hook.trustStatus === 'untrusted');
  const tables = untrusted.map(
    (hook) =>
      `\n[hooks.state.${JSON.stringify(hook.key)}]\ntrusted_hash = ${JSON.stringify(hook.currentHash)}\n`,
  );
  await appendFile(join(home, '.codex', 'config.toml'), tables.join(''));
  return untrusted;
}

/** The folder holding the pinned codex binary, for a PATH on which doctor finds it. */
export function codexBinDir(): string {
  return dirname(findHostProgram('codex').command);
}
