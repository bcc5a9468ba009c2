import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CliIO, GuardDefinition } from '../src/index.ts';
import { runCli } from '../src/index.ts';
// @ts-expect-error: a plain .mjs fixture without declarations
import { exampleGuard, writeBundle } from './fixtures/example-guard/guard.mjs';

/** An inline tree in a temp folder. */
export function tempTree(tree: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'gate-approval-'));
  for (const [path, content] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** The example guard with a freshly written bundle. */
export function makeGuard(): GuardDefinition {
  const folder = tempTree();
  return exampleGuard(writeBundle(folder)) as GuardDefinition;
}

/** Runs the CLI in process against a project folder and a home folder; collects what it prints. */
/** What one CLI run printed and returned. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(
  guard: GuardDefinition,
  argv: string[],
  where: { cwd: string; home: string; env?: Record<string, string> },
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    cwd: where.cwd,
    home: where.home,
    env: { PATH: process.env.PATH, ...where.env },
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  };
  const code = await runCli(guard, argv, io);
  return { code, stdout, stderr };
}
