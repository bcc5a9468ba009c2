import type { IncomingMessage } from 'node:http';

/**
 * Calls `handle` once a stand-in server's request is read: its body as JSON, null when empty, the
 * raw text when it is not JSON (kept, so the log shows what the CLI sent).
 */
export function onRequestBody(req: IncomingMessage, handle: (body: unknown) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = raw;
    try {
      body = raw === '' ? null : JSON.parse(raw);
    } catch {
      // kept as text
    }
    handle(body);
  });
}
