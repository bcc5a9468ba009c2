import { Readable, Writable } from 'node:stream';
import { runHook } from '@kit/fail-open';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { claudeCode } from '../hosts/claude-code.ts';

/**
 * `hook`: the host's hook call through the bin, the same runHook and evaluate as the bundle. With
 * the real process (`io` not given), runHook owns stdin, stdout and the exit code.
 */
export async function hookCommand(guard: GuardDefinition, io: CliIO | undefined): Promise<number> {
  const options = {
    guard: guard.name,
    protocol: claudeCode,
    ...(guard.onFailOpen ? { onFailOpen: guard.onFailOpen } : {}),
  };
  if (io === undefined) return (await runHook(guard.evaluate, options)).exitCode;
  const output = await runHook(guard.evaluate, {
    ...options,
    env: io.env,
    ...(io.stdin ? { stdin: Readable.from([await io.stdin().catch(() => '')]) } : {}),
    stdout: textSink(io.stdout),
    stderr: textSink(io.stderr),
  });
  return output.exitCode;
}

function textSink(write: (text: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      write(chunk.toString());
      callback();
    },
  });
}
