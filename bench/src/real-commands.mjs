// A fixed sample of the real agent commands in corpus/agent-commands.jsonl (one JSON object per line,
// the command in its `command` field): what a session sends the Bash guards, call by call.
import { readFileSync } from 'node:fs';

/**
 * Up to `size` commands, evenly spaced through the file (every k-th, from the first line), so the
 * same file always gives the same sample and the sample keeps the corpus's mix. Lines that are not
 * JSON objects with a non-empty string `command` are skipped and counted. A missing or empty file
 * gives `{ skipped }` with the reason: the bench then reports no corpus mean.
 */
export function sampleRealCommands(file, size) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return {
      file,
      skipped: error.code === 'ENOENT' ? `${file} does not exist` : `cannot read ${file}: ${error.message}`,
    };
  }
  const commands = [];
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const row = JSON.parse(line);
      if (typeof row?.command === 'string' && row.command.trim() !== '') commands.push(row.command);
      else unreadable++;
    } catch {
      unreadable++;
    }
  }
  if (commands.length === 0) return { file, skipped: `${file} holds no row with a command`, unreadable };
  const take = Math.min(size, commands.length);
  const step = commands.length / take;
  const sample = Array.from({ length: take }, (_, i) => commands[Math.floor(i * step)]);
  return { file, total: commands.length, unreadable, step: Math.round(step * 100) / 100, sample };
}
