import type { Registry } from './registry.ts';

/**
 * Everything evaluate needs from outside the payload. evaluate reads nothing else: no process.env,
 * no process.cwd(), no disk but through these probes, so a test or a library user passes a plain object.
 */
export interface GuardContext {
  env: Record<string, string | undefined>;
  cwd: string; // used when the payload carries no cwd
  /** A file's text; null when it does not exist; undefined when it exists but cannot be read. */
  readText: (path: string) => string | null | undefined;
  /** The session scratchpad folder when it exists on disk (`<tmp>/claude-<uid>/<slug>/<session_id>/scratchpad`), else null. */
  findScratchpad: (sessionId: string, projectDir: string) => string | null;
  /** A compiled registry to judge with as is (skips resolution): tests and library users. */
  registry?: Registry;
}
