import { expect, test } from 'vitest';
import { readCommands } from '../src/commands.ts';
import { situations } from '../src/situations.ts';
import { judgeAll, readVerdicts, type VerdictRow, writeVerdicts } from '../src/verdicts.ts';

const commands = readCommands();
const rows = judgeAll(commands, situations);

// KIT_CORPUS_RECORD=1 (`pnpm --filter @kit/corpus record`) writes what the guards say now; the
// diff of verdicts.jsonl is then the change to review, row by row.
const recording = process.env.KIT_CORPUS_RECORD === '1';
if (recording) writeVerdicts(rows);

test('the corpus has ids and commands, each once', () => {
  expect(new Set(commands.map((c) => c.id)).size).toBe(commands.length);
  expect(new Set(commands.map((c) => c.command)).size).toBe(commands.length);
});

test.skipIf(recording)('every verdict is the recorded one', () => {
  const recorded = new Map(readVerdicts().map((row) => [row.id, row]));
  const changed: {
    id: string;
    command: string;
    now: VerdictRow['verdicts'];
    was?: VerdictRow['verdicts'];
  }[] = [];
  for (const [index, row] of rows.entries()) {
    const was = recorded.get(row.id);
    if (JSON.stringify(was?.verdicts) !== JSON.stringify(row.verdicts))
      changed.push({
        id: row.id,
        command: commands[index]?.command ?? '',
        now: row.verdicts,
        was: was?.verdicts,
      });
  }
  expect(changed.slice(0, 20)).toEqual([]);
  expect(changed.length).toBe(0);
  expect(recorded.size).toBe(rows.length);
});
