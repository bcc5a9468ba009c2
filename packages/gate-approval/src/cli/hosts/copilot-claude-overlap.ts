import { join } from 'node:path';
import type { Check } from '../check.ts';
import { findOwnHandlers } from '../handler.ts';
import type { HostCheckContext } from '../host-wiring.ts';
import { readSettings } from '../settings-file.ts';

/**
 * doctor's warning for Copilot CLI, which also runs the hooks of a trusted project's
 * `.claude/settings.json` (in Claude Code's dialect): when this guard is installed there for Claude
 * Code too, Copilot starts it twice on each matching call. Both answer the same, so it is a warning.
 */
export async function checkClaudeOverlap(context: HostCheckContext): Promise<Check[]> {
  const claudeSettings = join(context.io.cwd, '.claude', 'settings.json');
  const read = await readSettings(claudeSettings);
  if (!read.ok || !read.value.exists) return [];
  if (findOwnHandlers(read.value.document, context.guard.name).length === 0) return [];
  return [
    {
      ok: true,
      warn: true,
      text: `${claudeSettings} also has ${context.guard.name} for Claude Code, and Copilot CLI runs that file's hooks in a trusted folder: the guard runs twice on each ${context.guard.matcher} call there (the Claude Code entry alone covers Copilot's shell calls, not its file reads)`,
    },
  ];
}
