import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, tempTree } from '@kit/test-kit';
import { describe, expect, test } from 'vitest';
import { cli, makeGuard } from './cli-harness.ts';

// Issue 22: one doctor flow with a part per host (installation-check.ts). The branches of the flow
// that the per-host suites (example-guard, install-hosts, plugins) leave unasserted, for Claude
// Code's part and a shell-form host's, each a FAIL line naming the fix, beside the healthy control.
const guard = makeGuard();
type Host = 'claude' | 'gemini' | 'codex';
const configOf: Record<Host, string> = {
  claude: '.claude/settings.json',
  gemini: '.gemini/settings.json',
  codex: '.codex/hooks.json',
};
const hostFlags = (host: Host) => (host === 'claude' ? [] : ['--host', host]);

/** The first handler group of the file install wrote, whatever the host's event key. */
function groups(document: { hooks: Record<string, unknown[]> }): unknown[] {
  return Object.values(document.hooks)[0] as unknown[];
}

interface Row {
  host: Host;
  edit?: (text: string) => string;
  strict?: boolean;
  env?: Record<string, string>;
  code: number;
  present: RegExp[];
  absent?: RegExp[];
}

/** The host's file cut short: one FAIL line, and no control run through it. */
const notJson = (host: Host): Row => ({
  host,
  edit: () => '{ "hooks": ',
  code: 1,
  present: [/^FAIL .*settings\.json is not valid JSON/m],
  absent: [/positive control/],
});

const rows: Record<string, Row> = {
  'claude: as installed, the control denies': {
    host: 'claude',
    code: 0,
    present: [/^ok {3}positive control denied through `node /m],
  },
  'gemini: as installed, the control denies': {
    host: 'gemini',
    code: 0,
    present: [/^ok {3}positive control denied through `node /m],
  },
  'claude: a file that is not JSON': notJson('claude'),
  'gemini: a file that is not JSON': notJson('gemini'),
  'gemini: the handler twice': {
    host: 'gemini',
    edit: (text) => {
      const document = JSON.parse(text);
      const list = groups(document);
      list.push(list[0]);
      return JSON.stringify(document);
    },
    code: 1,
    present: [
      /^FAIL 2 example-guard handlers in .*: run `example-guard install --host gemini --project` to keep one$/m,
    ],
  },
  'gemini: node not on PATH': {
    host: 'gemini',
    env: { PATH: '/nonexistent' },
    code: 1,
    present: [
      /^FAIL `node` is not on PATH: the host cannot start the hook \(until then every call gets no opinion\)$/m,
    ],
    absent: [/positive control/],
  },
  // Codex's own trust line follows a sound entry only: of another entry it would judge the wrong hash.
  'codex: not what install writes, so no trust line': {
    host: 'codex',
    edit: (text) => text.replace('"timeout": 5', '"timeout": 9'),
    code: 1,
    present: [/^FAIL the example-guard entry in .* is not the one install writes/m],
    absent: [/trust/, /positive control/],
  },
  'claude strict: a malformed entry also says every call is blocked': {
    host: 'claude',
    strict: true,
    edit: (text) => text.replace('"timeout": 5', '"timeout": 0'),
    code: 1,
    present: [
      /^FAIL the example-guard entry in .* is not the exec form install writes/m,
      /^FAIL this handler has "onFailure": "block" \(--strict\)/m,
    ],
  },
};

// Each row runs doctor, the positive control included where it is reached: seconds on a loaded machine.
describe('doctor: every branch of the one flow', { timeout: 120_000 }, () => {
  test.for(Object.entries(rows))('%s', async ([, row]) => {
    const root = tempTree();
    const home = tempDir();
    const scope = ['--project', ...(row.strict ? ['--strict'] : [])];
    const installed = await cli(guard, ['install', ...hostFlags(row.host), ...scope], { cwd: root, home });
    expect(installed.code).toBe(0);
    const config = join(root, configOf[row.host]);
    if (row.edit) writeFileSync(config, row.edit(readFileSync(config, 'utf8')));
    const result = await cli(guard, ['doctor', ...hostFlags(row.host), '--project'], {
      cwd: root,
      home,
      ...(row.env ? { env: row.env } : {}),
    });
    for (const line of row.present) expect(result.stdout).toMatch(line);
    for (const line of row.absent ?? []) expect(result.stdout).not.toMatch(line);
    expect(result.code).toBe(row.code);
  });
});
