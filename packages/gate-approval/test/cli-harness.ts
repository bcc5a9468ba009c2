import { recordingIO, tempTree } from '@kit/test-kit';
import type { GuardDefinition } from '../src/index.ts';
import { runCli } from '../src/index.ts';
// @ts-expect-error: a plain .mjs fixture without declarations
import { exampleGuard, writeBundle } from './fixtures/example-guard/guard.mjs';

/** The example guard with a freshly written bundle. */
export function makeGuard(): GuardDefinition {
  return exampleGuard(writeBundle(tempTree())) as GuardDefinition;
}

/** What one CLI run printed and returned. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in process against a project folder and a home folder; collects what it prints. */
export async function cli(
  guard: GuardDefinition,
  argv: string[],
  where: { cwd: string; home: string; env?: Record<string, string> },
): Promise<CliResult> {
  const io = recordingIO({ cwd: where.cwd, home: where.home, env: { PATH: process.env.PATH, ...where.env } });
  const code = await runCli(guard, argv, io);
  return { code, stdout: io.out(), stderr: io.err() };
}
