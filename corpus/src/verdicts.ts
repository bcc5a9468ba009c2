import { readFileSync, writeFileSync } from 'node:fs';
import type { AgentCommand } from './commands.ts';
import type { Recorded, Situation } from './situations.ts';

/** Every situation's verdict on one command, keyed by the command's id; a situation with no opinion is left out. */
export interface VerdictRow {
  id: string;
  verdicts: Record<string, Recorded>;
}

/** The recorded verdicts, committed beside the corpus. */
export const verdictsFile: URL = new URL('../verdicts.jsonl', import.meta.url);

/** Judges every command in every situation. */
export function judgeAll(commands: AgentCommand[], situations: Situation[]): VerdictRow[] {
  return commands.map((command) => ({
    id: command.id,
    verdicts: Object.fromEntries(
      situations
        .map((situation) => [situation.name, situation.judge(command)] as const)
        .filter(([, recorded]) => recorded.verdict !== 'none'),
    ),
  }));
}

/** The rows as the file holds them: one JSON line each, in corpus order. */
export function formatVerdicts(rows: VerdictRow[]): string {
  return `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
}

/** Reads the committed verdicts; an absent file is no rows. */
export function readVerdicts(file: URL = verdictsFile): VerdictRow[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as VerdictRow);
}

/** Writes the verdicts file. */
export function writeVerdicts(rows: VerdictRow[], file: URL = verdictsFile): void {
  writeFileSync(file, formatVerdicts(rows));
}
