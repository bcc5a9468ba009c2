import { readFileSync } from 'node:fs';

/** One real Bash call a coding agent made, verbatim, with where it was found. */
export interface AgentCommand {
  id: string; // c0001: stable, never reused
  command: string;
  source: string; // owner/repo:path@commit
  agent: string; // claude-code, codex, swe-agent, ...
  run_in_background?: boolean; // the call was made with run_in_background: true
}

/** The corpus file, committed beside this package. */
export const commandsFile: URL = new URL('../agent-commands.jsonl', import.meta.url);

/** Reads the corpus: one JSON object per line. Throws on a malformed line (the file is ours). */
export function readCommands(file: URL = commandsFile): AgentCommand[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const row = JSON.parse(line) as AgentCommand;
      if (typeof row.id !== 'string' || typeof row.command !== 'string' || typeof row.source !== 'string')
        throw new TypeError(`${file.pathname}:${index + 1}: a row needs string id, command and source`);
      return row;
    });
}
