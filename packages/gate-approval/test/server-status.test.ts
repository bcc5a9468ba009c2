import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@kit/test-kit';
import { afterEach, describe, expect, test } from 'vitest';
import type { CliIO } from '../src/guard.ts';
import { verdictServerCheck } from '../src/cli/server-status.ts';

// doctor's verdict-server line, from what a bundle's front prints for `--kit-server-status`. The
// stand-in bundle prints STATUS_LINE and records its arguments, so the row also shows the flag
// is appended after the installed arguments.
const io: CliIO = { cwd: '/', env: {}, home: '/', stdout: () => undefined, stderr: () => undefined };
const servers: NodeJS.Timeout[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) clearInterval(server);
});

function standInBundle(): { file: string; argsFile: string } {
  const dir = tempDir('kit-server-status');
  const file = join(dir, 'hook.cjs');
  const argsFile = join(dir, 'args.json');
  writeFileSync(
    file,
    `require('fs').writeFileSync(${JSON.stringify(argsFile)}, JSON.stringify(process.argv.slice(2)));\n` +
      'process.stdout.write(process.env.STATUS_LINE ?? "");\n',
  );
  return { file, argsFile };
}

async function check(statusLine: string) {
  const { file } = standInBundle();
  return verdictServerCheck({
    command: process.execPath,
    args: [file, '--host', 'codex'],
    env: { ...process.env, STATUS_LINE: statusLine },
    cwd: '/',
    io,
  });
}

// A stand-in server: a mailbox whose claim names this (live) process, answering each request.
async function listening(reply: (request: string) => string): Promise<string> {
  const mailbox = join(tempDir('kit-server-mailbox'), 's.box');
  mkdirSync(join(mailbox, 'work'), { recursive: true, mode: 0o700 });
  writeFileSync(join(mailbox, 'server'), String(process.pid));
  const look = (): void => {
    for (const name of readdirSync(mailbox).filter((entry) => entry.endsWith('.req'))) {
      const id = name.slice(0, -'.req'.length);
      const taken = join(mailbox, 'work', `${id}.taken`);
      renameSync(join(mailbox, name), taken);
      writeFileSync(join(mailbox, 'work', `${id}.reply`), reply(readFileSync(taken, 'utf8')));
    }
  };
  servers.push(setInterval(look, 5));
  return mailbox;
}

const status = (fields: Record<string, unknown>): string => `${JSON.stringify(fields)}\n`;

describe('the verdict-server line', () => {
  test('positive control: a server that answers the ping with its key is "answering"', async () => {
    const socket = await listening((request) => JSON.stringify({ key: JSON.parse(request).key, pong: true }));
    const line = await check(status({ server: 'listening', socket, key: 'k1' }));
    expect(line).toEqual({ ok: true, text: `verdict server: answering at ${socket}` });
  });

  test('the status flag comes after the installed arguments', async () => {
    const { file, argsFile } = standInBundle();
    await verdictServerCheck({
      command: process.execPath,
      args: [file, '--host', 'codex'],
      env: process.env,
      cwd: '/',
      io,
    });
    expect(JSON.parse(readFileSync(argsFile, 'utf8'))).toEqual(['--host', 'codex', '--kit-server-status']);
  });

  test.each([
    ['a reply with another key', () => JSON.stringify({ key: 'other' })],
    ['a reply that is not JSON', () => 'garbage'],
  ])('a listening socket with %s warns', async (_label, reply) => {
    const socket = await listening(reply);
    const line = await check(status({ server: 'listening', socket, key: 'k1' }));
    expect(line).toMatchObject({ ok: true, warn: true });
    expect(line.text).toContain('does not answer');
  });

  test.each([
    [
      'none',
      { server: 'none', socket: '/t/s.sock' },
      'verdict server: not running; the next call starts one at /t/s.sock',
      false,
    ],
    [
      'off',
      { server: 'off', socket: null },
      'verdict server: off (KIT_HOOKS_SERVER=off): every call answers in process',
      false,
    ],
    [
      'unsupported',
      { server: 'unsupported', socket: null },
      'verdict server: not used on this platform: every call answers in process',
      false,
    ],
    [
      'an unsafe folder',
      { server: 'unsafe-folder', socket: '/t/s.sock' },
      'verdict server: not used: the folder of /t/s.sock is not yours alone (owner and mode 0700 are checked): every call answers in process',
      true,
    ],
    [
      'another reason',
      { server: 'long-path', socket: null },
      'verdict server: not used (long-path): every call answers in process',
      false,
    ],
  ])('%s', async (_label, fields, text, warn) => {
    const line = await check(status(fields));
    expect(line).toEqual(warn ? { ok: true, warn: true, text } : { ok: true, text });
  });

  test.each([['nothing'], ['not JSON'], ['a JSON array']])(
    'a bundle that prints %s has no server',
    async (label) => {
      const printed = label === 'nothing' ? '' : label === 'not JSON' ? 'deny' : '[1]';
      const line = await check(printed);
      expect(line).toEqual({
        ok: true,
        text: 'verdict server: this bundle has none (every call answers in process)',
      });
    },
  );
});
