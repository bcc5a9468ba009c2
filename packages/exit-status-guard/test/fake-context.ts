import type { HookInput } from '@kit/fail-open';
import type { GuardContext } from '../src/index.ts';
import { compileRegistry, type RegistryFile } from '../src/index.ts';

/** A context with nothing on disk: the shipped registry, no project file, no scratchpad. */
export function fakeContext(overrides: Partial<GuardContext> = {}): GuardContext {
  return {
    env: {},
    cwd: '/nonexistent-project',
    readText: () => null,
    findScratchpad: () => null,
    ...overrides,
  };
}

/** A context whose files are an inline tree (absolute paths). */
export function contextWithFiles(
  files: Record<string, string | undefined>,
  overrides: Partial<GuardContext> = {},
): GuardContext {
  return fakeContext({
    readText: (path) => (Object.hasOwn(files, path) ? files[path] : null),
    ...overrides,
  });
}

/** A context judging with exactly this registry. */
export function contextWithRegistry(file: RegistryFile): GuardContext {
  return fakeContext({
    registry: compileRegistry(file, null, { base: 'test', project: null, replaced: false }),
  });
}

/** A PreToolUse Bash payload. */
export function bashCall(
  command: string,
  extra: { background?: boolean; cwd?: string; session_id?: string } = {},
): HookInput {
  return {
    session_id: extra.session_id ?? 'test-session',
    cwd: extra.cwd ?? '/nonexistent-project',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: extra.background ? { command, run_in_background: true } : { command },
    tool_use_id: 'toolu_test',
  };
}
