import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Tiny hook programs of the suite's own, to prove the harness and the host's behaviour apart from the kit. */
export const fixtureHooks = {
  // The control: a valid PreToolUse deny.
  deny: `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'e2e-fixture: denied by the fixture hook' } }));\n`,
  // Exit 2 with the reason on stderr: a block.
  refuse: `process.stderr.write('e2e-fixture: refused with exit 2\\n'); process.exitCode = 2;\n`,
  // Outlives any timeout the suite sets; prints a deny it never gets to write.
  sleeper: `setTimeout(() => { process.stdout.write('{}'); }, 30000);\n`,
  // A crash: Node exits 1 on an uncaught exception.
  crash: `throw new Error('e2e-fixture: crashed');\n`,
} as const;

export type FixtureHook = keyof typeof fixtureHooks;

/** Writes a fixture hook into `dir` and returns its path. */
export async function writeFixtureHook(dir: string, kind: FixtureHook): Promise<string> {
  const file = join(dir, `e2e-${kind}.mjs`);
  await writeFile(file, fixtureHooks[kind]);
  return file;
}

/** A settings `hooks` block with one exec-form handler on `matcher`. */
export function hookSettings(
  matcher: string,
  file: string,
  extra: { timeout?: number; onFailure?: 'block' } = {},
): Record<string, unknown> {
  return {
    hooks: {
      PreToolUse: [
        { matcher, hooks: [{ type: 'command', command: 'node', args: [file], timeout: 5, ...extra }] },
      ],
    },
  };
}
