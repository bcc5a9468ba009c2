// The shared `report` folds the friction report in: the transcripts under ~/.claude/projects, the
// same counts `friction-report` gives, beside the audit trail; none there, a section of zeros.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '@kit/gate-approval';
import { recordingIO, tempDir } from '@kit/test-kit';
import { expect, test } from 'vitest';
import { guardDefinition } from '../src/guard.ts';

const fixtures = fileURLToPath(new URL('./fixtures/transcripts', import.meta.url));

async function report(home: string, ...argv: string[]) {
  const env = { XDG_STATE_HOME: tempDir('state') };
  const io = recordingIO({ cwd: home, home, env });
  const code = await runCli(guardDefinition, ['report', ...argv], io);
  expect(io.err()).toBe('');
  expect(code).toBe(0);
  return io.out();
}

test.for([
  [
    'transcripts with denials',
    true,
    { transcripts: 2, denied: 7, afterDenial: { overridden: 1, rewritten: 1 } },
  ],
  ['no transcripts yet', false, { transcripts: 0, denied: 0, afterDenial: { overridden: 0 } }],
] as const)('%s', async ([, withTranscripts, counts]) => {
  const home = tempDir('home');
  if (withTranscripts) cpSync(fixtures, join(home, '.claude', 'projects'), { recursive: true });
  const json = JSON.parse(await report(home, '--json'));
  expect(json.sections).toHaveLength(1);
  expect(json.sections[0].data).toMatchObject(counts);
  const text = await report(home);
  expect(text).toContain('exit-status-guard friction (from Claude Code transcripts):');
  expect(text).toContain(`${counts.denied} denied by exit-status-guard`);
});
