import type { FailCause } from './runtime-types.ts';

/**
 * The stdin text, or why it could not be had with the part that was read (a strict guard still
 * judges that raw text: an unreadable payload that looks like a git write is refused).
 */
export type StdinOutcome = { ok: true; text: string } | { ok: false; cause: FailCause; text: string };

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

    const finish = (outcome: StdinOutcome, release: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      stream.removeListener('close', onClose);
      // A late error after we stopped listening must not become an uncaught exception.
      stream.on('error', ignore);
      if (release) abandon(stream);
      resolve(outcome);
    };
    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > maxBytes) {
        chunks.push(buffer.subarray(0, buffer.length - (size - maxBytes)));
        finish({ ok: false, cause: 'stdin-too-large', text: partial() }, true);
        return;
      }
      chunks.push(buffer);
    };
    const partial = (): string => decode(Buffer.concat(chunks));
    const onEnd = (): void => finish({ ok: true, text: decode(Buffer.concat(chunks)) }, false);
    const onError = (): void => finish({ ok: false, cause: 'stdin-error', text: partial() }, true);
    const onClose = (): void => finish({ ok: false, cause: 'stdin-error', text: partial() }, false);

    // Unref'd: while the stream is open it keeps the process alive by itself.
    const timer = setTimeout(
      () => finish({ ok: false, cause: 'stdin-timeout', text: partial() }, true),
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
