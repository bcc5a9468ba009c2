import { writeSync } from 'node:fs';

/**
 * Writes the hook's output and resolves once it is out. A test passes its own stream. The real
 * process writes its file descriptor directly: `process.stdout` and `process.stderr` are built on
 * first use (net or tty streams, about 3 ms of a hook's start), and a silent call writes nothing,
 * so it never pays for them. A descriptor that cannot take the bytes right away (a non-blocking
 * pipe: EAGAIN) gets the rest through the process stream after all.
 */
export function writeOutput(
  stream: NodeJS.WritableStream | undefined,
  fd: 1 | 2,
  text: string,
): Promise<void> {
  if (text === '') return Promise.resolve();
  if (stream !== undefined) return writeFully(stream, text);
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(fd, bytes, written);
  } catch (error) {
    if ((error as NodeJS.ErrnoException | null)?.code !== 'EAGAIN') return Promise.resolve(); // EPIPE: the host went away
    return writeFully(fd === 1 ? process.stdout : process.stderr, bytes.subarray(written));
  }
  return Promise.resolve();
}

function writeFully(stream: NodeJS.WritableStream, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.removeListener('error', done);
      resolve();
    };
    // EPIPE (the host went away) is not ours to report: there is no one left to read it.
    stream.once('error', done);
    try {
      stream.write(data, () => done());
    } catch {
      done();
    }
  });
}
