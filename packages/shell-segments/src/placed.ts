import type { TextForm } from './types.ts';

/**
 * Where a text stands in a line's source, and how a changed one would be put back: what the readers
 * of nested command lines (runners.ts, tool-escapes.ts, git-commands.ts) hand back.
 */
export type Placed = { form: TextForm; start: number; end: number } & (
  | { text: string }
  | { text: null; message: string }
);
