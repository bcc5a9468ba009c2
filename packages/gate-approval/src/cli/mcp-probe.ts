import { isJsonObject, type JsonObject } from '@kit/fail-open';

/** How the host starts the session's judge server, as doctor found it declared. */
export interface ServerStart {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  timeoutMs: number; // the whole exchange: start, opening, the listing and the call
}

/** What the server answered, as a session's client would ask it. */
export interface ServerAnswers {
  tools: unknown[] | null; // tools/list's tools (null: no answer)
  text: string | null; // the call's text content, '' for an empty content (no opinion)
  isError: boolean;
  problem: string | null; // why the exchange stopped short, or null
}

/**
 * Starts the server, opens the session as Claude Code does (initialize, then the initialized
 * notification), lists its tools and makes one `tools/call`; then closes its stdin, as the host
 * does at the session's end, and kills it (by its own pid) if it has not gone by the deadline.
 */
export async function askJudgeServer(start: ServerStart, call: JsonObject): Promise<ServerAnswers> {
  const { spawn } = await import('node:child_process');
  const { createInterface } = await import('node:readline');
  const answers: ServerAnswers = { tools: null, text: null, isError: false, problem: null };
  const child = spawn(start.command, start.args, {
    cwd: start.cwd,
    env: start.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.on('error', () => undefined);
  const send = (message: JsonObject) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  let done = false;
  return new Promise((resolve) => {
    const finish = (problem: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (answers.problem === null) answers.problem = problem;
      child.stdin.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), 2000);
      child.once('close', () => clearTimeout(killer));
      resolve(answers);
    };
    const timer = setTimeout(() => finish(`no answer within ${start.timeoutMs / 1000} s`), start.timeoutMs);
    child.on('error', (error) => finish(`cannot start \`${start.command}\`: ${error.message}`));
    child.on('close', (code) => finish(`the server exited (${code ?? 'killed'})${firstError(stderr)}`));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const reply = parseLine(line);
      if (reply?.id === 1) {
        send({ method: 'notifications/initialized' });
        send({ id: 2, method: 'tools/list', params: {} });
      } else if (reply?.id === 2) {
        const result = reply.result;
        answers.tools = isJsonObject(result) && Array.isArray(result.tools) ? result.tools : null;
        send({ id: 3, method: 'tools/call', params: call });
      } else if (reply?.id === 3) {
        readCall(reply, answers);
        finish(null);
      }
    });
    send({
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'kit-doctor', version: '0' },
      },
    });
  });
}

// The line of a dead server's stderr that says why: its error (`Error: Cannot find module …`), else its first.
function firstError(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const line = lines.find((text) => /^\w*Error\b/.test(text)) ?? lines[0];
  return line === undefined ? '' : `: ${line}`;
}

function parseLine(line: string): JsonObject | null {
  try {
    const parsed: unknown = JSON.parse(line);
    return isJsonObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function readCall(reply: JsonObject, answers: ServerAnswers): void {
  const result = reply.result;
  if (!isJsonObject(result)) {
    answers.problem = `the call was answered with an error: ${JSON.stringify(reply.error ?? null).slice(0, 160)}`;
    return;
  }
  answers.isError = result.isError === true;
  const content = Array.isArray(result.content) ? result.content : [];
  answers.text = content
    .filter(isJsonObject)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/**
 * A handler's `input` with its `${field}` templates filled from a hook payload, as Claude Code fills
 * them: `${tool_input}` as JSON text, `${tool_input.command}` by its path, a missing field as "".
 */
export function fillTemplate(template: unknown, payload: JsonObject): unknown {
  if (typeof template === 'string')
    return template.replace(/\$\{([A-Za-z_][\w.]*)\}/g, (_match, path: string) => {
      const value = path
        .split('.')
        .reduce<unknown>((at, key) => (isJsonObject(at) ? at[key] : undefined), payload);
      if (value === undefined || value === null) return '';
      return typeof value === 'string' ? value : JSON.stringify(value);
    });
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, payload));
  if (isJsonObject(template))
    return Object.fromEntries(
      Object.entries(template).map(([key, item]) => [key, fillTemplate(item, payload)]),
    );
  return template;
}
