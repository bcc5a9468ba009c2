'use strict';
// The host's own floor for an `mcp_tool` hook: an MCP server that lists no tools and answers every
// tools/call with no content (no opinion), judging nothing. Each call appends a line to the file
// BARE_MCP_CALLS names, so the bench can prove the hook reached it.
const { appendFileSync } = require('node:fs');
const { createInterface } = require('node:readline');

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const results = {
  initialize: (params) => ({
    protocolVersion: params.protocolVersion,
    capabilities: { tools: {} },
    serverInfo: { name: 'bare', version: '0' },
  }),
  'tools/list': () => ({ tools: [] }),
  'tools/call': () => {
    if (process.env.BARE_MCP_CALLS) appendFileSync(process.env.BARE_MCP_CALLS, 'call\n');
    return { content: [] };
  },
};
createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.id === undefined) return;
  const result = results[message.method];
  if (result) send({ id: message.id, result: result(message.params ?? {}) });
  else send({ id: message.id, error: { code: -32601, message: `no method ${message.method}` } });
});
