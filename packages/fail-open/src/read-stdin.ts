/** Why stdin could not be read to its end. */
export type StdinProblem = 'stdin-too-large' | 'stdin-timeout' | 'stdin-error';

/**
 * The stdin text, or why it could not be had with the part that was read (a strict guard still
 * judges that raw text: an unreadable payload that looks like a git write is refused).
 */
export type StdinOutcome =
  | { ok: true; value: string }
  | { ok: false; reason: StdinProblem; message: string; partial: string };

/**
 * Reads a stream to its end, giving up past `maxBytes` or at `deadline` (a Date.now() value).
 * Giving up destroys the stream: a writer that never closes must not keep the process alive.
 */
export function readBoundedText(
  stream: NodeJS.ReadableStream,
  maxBytes: number,
  deadline: number,
): Promise<StdinOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;

    const settle = (outcome: StdinOutcome): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      stream.removeListener('close', onClose);
      // A late error after we stopped listening must not become an uncaught exception.
      stream.on('error', ignore);
      resolve(outcome);
      return true;
    };
    const text = (): string => decode(Buffer.concat(chunks));
    const failure = (reason: StdinProblem, message: string): StdinOutcome => ({
      ok: false,
      reason,
      message,
      partial: text(),
    });
    // Giving up on a stream that is still open: let it go, so it cannot keep the process alive.
    const giveUp = (outcome: StdinOutcome): void => {
      if (settle(outcome)) abandon(stream);
    };
    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > maxBytes) {
        chunks.push(buffer.subarray(0, buffer.length - (size - maxBytes)));
        giveUp(failure('stdin-too-large', `more than ${maxBytes} bytes`));
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = (): void => void settle({ ok: true, value: text() });
    const onError = (): void => giveUp(failure('stdin-error', 'the stream failed'));
    const onClose = (): void => void settle(failure('stdin-error', 'the stream closed before its end'));

    // Unref'd: while the stream is open it keeps the process alive by itself.
    const timer = setTimeout(
      () => giveUp(failure('stdin-timeout', 'stdin did not end by the deadline')),
      Math.max(0, deadline - Date.now()),
    );
    timer.unref();

    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.once('close', onClose);
    stream.resume();
  });
}

function decode(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function abandon(stream: NodeJS.ReadableStream): void {
  stream.pause();
  const destroyable = stream as NodeJS.ReadableStream & { destroy?: () => void };
  try {
    destroyable.destroy?.();
  } catch {
    // Already gone: nothing left to release.
  }
}

function ignore(): void {}
