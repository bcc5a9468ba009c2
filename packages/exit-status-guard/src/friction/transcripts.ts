import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One Bash call the model made, as a transcript records it. */
export interface BashCall {
  id: string; // the tool-use id: toolu_…
  command: string;
  cwd: string;
  time: number | null; // ms since the epoch
  file: string; // the transcript (one session)
  order: number; // position in its transcript
}

/** A hook's denial of a tool call, keyed to the call by its tool-use id. */
export interface HookDenial {
  toolUseId: string;
  reason: string; // the hook's reason, without the host's "PreToolUse:Bash hook error: " prefix
}

/** What one transcript holds for the report. */
export interface TranscriptFacts {
  calls: BashCall[];
  denials: HookDenial[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
      .join('\n');
  return '';
}

const hostPrefix = /^(?:Error: )?PreToolUse:[A-Za-z]+ hook error: /;

function denialFromAttachment(attachment: Record<string, unknown>): HookDenial | null {
  if (typeof attachment.hookName !== 'string' || !attachment.hookName.startsWith('PreToolUse')) return null;
  if (typeof attachment.toolUseID !== 'string' || typeof attachment.stdout !== 'string') return null;
  try {
    const output: unknown = JSON.parse(attachment.stdout);
    const specific =
      isObject(output) && isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : null;
    if (specific?.permissionDecision !== 'deny' || typeof specific.permissionDecisionReason !== 'string')
      return null;
    return { toolUseId: attachment.toolUseID, reason: specific.permissionDecisionReason };
  } catch {
    return null;
  }
}

/**
 * Reads one transcript's JSON lines: Bash tool uses from `assistant` records, and hook denials in
 * both forms the CLI has written — the `user` record holding the `tool_result` error (2.1.x) and the
 * older `attachment` record carrying the hook's stdout. Lines that are not JSON are skipped.
 */
export function readTranscriptText(text: string, file: string): TranscriptFacts {
  const facts: TranscriptFacts = { calls: [], denials: [] };
  let order = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(record)) continue;
    const message = isObject(record.message) ? record.message : null;
    const content = Array.isArray(message?.content) ? message.content : [];
    const cwd = typeof record.cwd === 'string' ? record.cwd : '';
    const parsedTime = typeof record.timestamp === 'string' ? Date.parse(record.timestamp) : Number.NaN;
    const time = Number.isNaN(parsedTime) ? null : parsedTime;
    if (record.type === 'assistant') {
      for (const part of content) {
        if (
          !isObject(part) ||
          part.type !== 'tool_use' ||
          part.name !== 'Bash' ||
          typeof part.id !== 'string'
        )
          continue;
        const input = isObject(part.input) ? part.input : {};
        if (typeof input.command !== 'string') continue;
        facts.calls.push({ id: part.id, command: input.command, cwd, time, file, order: order++ });
      }
    }
    if (record.type === 'user') {
      for (const part of content) {
        if (
          !isObject(part) ||
          part.type !== 'tool_result' ||
          typeof part.tool_use_id !== 'string' ||
          part.is_error !== true
        )
          continue;
        const body = textOf(part.content);
        if (!hostPrefix.test(body)) continue;
        facts.denials.push({ toolUseId: part.tool_use_id, reason: body.replace(hostPrefix, '') });
      }
    }
    if (isObject(record.attachment)) {
      const denial = denialFromAttachment(record.attachment);
      if (denial) facts.denials.push(denial);
    }
  }
  return facts;
}

/** Every `*.jsonl` file under a folder, at any depth (Claude Code keeps one folder per project). */
export async function findTranscripts(root: string, limit = 20000): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 8 || found.length >= limit) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path, depth + 1);
      else if (entry.isFile() && entry.name.endsWith('.jsonl')) found.push(path);
    }
  };
  await walk(root, 0);
  return found.sort();
}

/** Reads every transcript under a folder; an unreadable file is skipped. */
export async function readTranscripts(files: string[]): Promise<TranscriptFacts[]> {
  const all: TranscriptFacts[] = [];
  for (const file of files) {
    try {
      all.push(readTranscriptText(await readFile(file, 'utf8'), file));
    } catch {
      // unreadable: skipped, like a line that is not JSON
    }
  }
  return all;
}
