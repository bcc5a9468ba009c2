import { isJsonObject } from '@kit/fail-open';
import type { GuardDefinition } from '../guard.ts';
import { monitorFlag } from '../monitor.ts';
import { strictFlag } from '../strict-arg.ts';
import type { SettingsDocument } from './settings-file.ts';

/** The one exec-form handler install writes. */
export interface CommandHandler {
  type: 'command';
  command: string; // 'node'
  args: string[]; // [<absolute bundle path>]
  timeout: number; // seconds
  onFailure?: 'block'; // --strict
}

/** Seconds the host gives the hook before killing it. */
export const handlerTimeoutSeconds = 5;

/**
 * The handler for a bundle at `bundlePath`. A strict install is both halves of strict mode:
 * `onFailure: 'block'` and `--strict` after the bundle (strict-arg.ts: TAGOUT_HOOKS_STRICT for the
 * guard); `--monitor` after the bundle for a monitored one (monitor.ts: judged, recorded, never
 * told to the host).
 */
export function buildHandler(
  bundlePath: string,
  { strict = false, monitor = false }: { strict?: boolean; monitor?: boolean } = {},
): CommandHandler {
  const args = [bundlePath, ...(monitor ? [monitorFlag] : []), ...(strict ? [strictFlag] : [])];
  const extra: Pick<CommandHandler, 'onFailure'> = strict ? { onFailure: 'block' } : {};
  return { type: 'command', command: 'node', args, timeout: handlerTimeoutSeconds, ...extra };
}

// A bundle is CommonJS (.cjs, the kit's guards) or an ES module (.mjs): install keeps its extension.
const bundleExtensions = ['.cjs', '.mjs', '.js'];

/**
 * True for a handler this guard wrote, in any form it has had: exec form with its bundle
 * `<guard>.cjs` (or `.mjs`, `.js`) as an argument, a shell-form command naming that file,
 * a command running `<guard> hook` (the bin), or an `mcp_tool` handler asking the judge for this guard.
 */
export function isOwnHandler(guardName: string, handler: unknown): boolean {
  if (!isJsonObject(handler)) return false;
  if (handler.type === 'mcp_tool') return isJsonObject(handler.input) && handler.input.guard === guardName;
  const files = bundleExtensions.map((extension) => `${guardName}${extension}`);
  const isBundle = (path: string): boolean => files.includes(baseName(path));
  if (Array.isArray(handler.args) && handler.args.some((arg) => typeof arg === 'string' && isBundle(arg))) {
    return true;
  }
  if (typeof handler.command !== 'string') return false;
  const words = handler.command.split(/[\s"']+/).filter((word) => word !== '');
  return words.some(
    (word, index) => isBundle(word) || (baseName(word) === guardName && words[index + 1] === 'hook'),
  );
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** Where one of the guard's handlers sits. */
export interface HandlerPlace {
  group: Record<string, unknown> & { hooks: unknown[] };
  groupIndex: number;
  handlerIndex: number;
}

/**
 * Every handler of this guard under hooks.PreToolUse (or another event's list of matcher groups,
 * as Gemini CLI's BeforeTool), in document order. Malformed groups are skipped, never touched.
 */
export function findOwnHandlers(
  document: SettingsDocument,
  guardName: string,
  event = 'PreToolUse',
): HandlerPlace[] {
  const places: HandlerPlace[] = [];
  preToolUseOf(document, event)?.forEach((group, groupIndex) => {
    if (!isJsonObject(group) || !Array.isArray(group.hooks)) return;
    const hooks = group.hooks as unknown[];
    hooks.forEach((handler, handlerIndex) => {
      if (isOwnHandler(guardName, handler)) {
        places.push({ group: group as HandlerPlace['group'], groupIndex, handlerIndex });
      }
    });
  });
  return places;
}

function preToolUseOf(document: SettingsDocument, event: string): unknown[] | null {
  const hooks = document.hooks;
  return isJsonObject(hooks) && Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : null;
}

/** What install does to the document. */
export type InstallChange = 'added' | 'upgraded' | 'unchanged';

/**
 * The document with exactly one handler of this guard: an older one upgraded in place when its
 * group has the guard's matcher, otherwise a new group of its own appended to hooks.PreToolUse.
 * Every other key, hook and matcher keeps its place. The input is not modified.
 */
export function planInstall(
  original: SettingsDocument,
  guard: Pick<GuardDefinition, 'name' | 'matcher'>,
  handler: CommandHandler | Record<string, unknown>,
  event = 'PreToolUse',
): { document: SettingsDocument; change: InstallChange } {
  const document = structuredClone(original);
  const places = findOwnHandlers(document, guard.name, event);
  const first = places[0];
  let change: InstallChange = 'added';
  if (first && first.group.matcher === guard.matcher) {
    first.group.hooks[first.handlerIndex] = handler;
    removePlaces(document, places.slice(1), event);
    change = 'upgraded';
  } else {
    removePlaces(document, places, event);
    if (!isJsonObject(document.hooks)) document.hooks = {};
    const hooks = document.hooks as Record<string, unknown>;
    if (!Array.isArray(hooks[event])) hooks[event] = [];
    (hooks[event] as unknown[]).push({ matcher: guard.matcher, hooks: [handler] });
    if (places.length > 0) change = 'upgraded';
  }
  if (JSON.stringify(document) === JSON.stringify(original)) change = 'unchanged';
  return { document, change };
}

/**
 * The document without this guard's handlers. A group, hooks.PreToolUse or hooks that the removal
 * leaves empty goes too (install created them). `alternatives` are the same removal with those
 * emptied containers kept, so a caller holding the pre-install text can recognise it exactly.
 */
export function planUninstall(
  original: SettingsDocument,
  guardName: string,
  event = 'PreToolUse',
): { document: SettingsDocument; removed: number; alternatives: SettingsDocument[] } {
  const places = findOwnHandlers(original, guardName, event);
  if (places.length === 0) return { document: structuredClone(original), removed: 0, alternatives: [] };
  const keepEverything = withoutOwnHandlers(original, guardName, event);
  const keepContainers = withoutOwnGroups(original, guardName, event);
  const keepHooks = structuredClone(keepContainers);
  const hooks = keepHooks.hooks as Record<string, unknown>;
  if ((hooks[event] as unknown[]).length === 0) delete hooks[event];
  const document = structuredClone(keepHooks);
  if (Object.keys(hooks).length === 0) delete document.hooks;
  return { document, removed: places.length, alternatives: [keepHooks, keepContainers, keepEverything] };
}

// A copy without this guard's handlers; the groups they leave empty stay.
function withoutOwnHandlers(original: SettingsDocument, guardName: string, event: string): SettingsDocument {
  const document = structuredClone(original);
  const places = findOwnHandlers(document, guardName, event);
  for (const place of [...places].reverse()) place.group.hooks.splice(place.handlerIndex, 1);
  return document;
}

// A copy without this guard's handlers and the groups they leave empty.
function withoutOwnGroups(original: SettingsDocument, guardName: string, event: string): SettingsDocument {
  const document = structuredClone(original);
  removePlaces(document, findOwnHandlers(document, guardName, event), event);
  return document;
}

// Removes handlers (last first, so indexes hold) and the groups the removal empties.
function removePlaces(document: SettingsDocument, places: HandlerPlace[], event: string): void {
  const preToolUse = preToolUseOf(document, event);
  if (!preToolUse) return;
  const emptied = new Set<number>();
  for (const place of [...places].reverse()) {
    place.group.hooks.splice(place.handlerIndex, 1);
    if (place.group.hooks.length === 0) emptied.add(place.groupIndex);
  }
  for (const groupIndex of [...emptied].sort((a, b) => b - a)) preToolUse.splice(groupIndex, 1);
}
