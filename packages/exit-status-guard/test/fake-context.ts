import type { Outcome, TextFileProblem } from '@kit/fail-open';
import { bashPayload, type HookInput } from '@kit/gate-approval';
import type { GuardContext } from '../src/index.ts';
import { compileRegistry, type RegistryFile } from '../src/index.ts';

/** A readText on an empty disk: every file is absent. */
export const noFiles = (path: string): Outcome<string, TextFileProblem> => ({
  ok: false,
  reason: 'absent',
  message: `${path} does not exist`,
});

/** A context with nothing on disk: the shipped registry, no project file, no scratchpad. */
export function fakeContext(overrides: Partial<GuardContext> = {}): GuardContext {
  return {
    env: {},
    cwd: '/nonexistent-project',
    readText: noFiles,
    findScratchpad: () => null,
    ...overrides,
  };
}

/** A context whose files are an inline tree (absolute paths); a file whose text is undefined is there but unreadable. */
export function contextWithFiles(
  files: Record<string, string | undefined>,
  overrides: Partial<GuardContext> = {},
): GuardContext {
  return fakeContext({
    readText: (path) => {
      if (!Object.hasOwn(files, path)) return noFiles(path);
      const text = files[path];
      return text === undefined
        ? { ok: false, reason: 'unreadable', message: `cannot read ${path}` }
        : { ok: true, value: text };
    },
    ...overrides,
  });
}

/** A context judging with exactly this registry. */
export function contextWithRegistry(file: RegistryFile): GuardContext {
  return fakeContext({
    registry: compileRegistry(file, null, { base: 'test', project: null, replaced: false }),
  });
}

/** A PreToolUse Bash payload, in the test session and folder unless told otherwise. */
export function bashCall(
  command: string,
  extra: { background?: boolean; cwd?: string; session_id?: string } = {},
): HookInput {
  return bashPayload(command, {
    cwd: extra.cwd ?? '/nonexistent-project',
    sessionId: extra.session_id ?? 'test-session',
    ...(extra.background ? { runInBackground: true } : {}),
  });
}
