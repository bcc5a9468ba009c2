import { Readable, Writable } from 'node:stream';
import { runHook } from '@kit/fail-open';
import type { CliIO, GuardDefinition } from '../guard.ts';
import { protocolFromArgs } from '../hosts/host-argument.ts';
import { guardHook } from '../audited-hook.ts';

/**
 * `hook [--host NAME] [--monitor] [--strict]`: the host's hook call through the bin, the same runHook, evaluate and host
 * choice as the bundle (arguments it cannot read are no opinion, never an error the host would act
 * on). With the real process (`io` not given), runHook owns stdin, stdout and the exit code.
 */
export async function hookCommand(
  guard: GuardDefinition,
  argv: string[],
  io: CliIO | undefined,
): Promise<number> {
  const { evaluate, onFailOpen } = guardHook(guard.name, argv, guard.evaluate, guard.onFailOpen);
  const options = {
    guard: guard.name,
    protocol: protocolFromArgs(argv),
    ...(onFailOpen ? { onFailOpen } : {}),
  };
  if (io === undefined) return (await runHook(evaluate, options)).exitCode;
  const output = await runHook(evaluate, {
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
