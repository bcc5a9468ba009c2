import { homedir } from 'node:os';
import type { CliIO } from '../guard.ts';

/**
 * The real process as a CliIO. Output into a pipe whose reader has gone (`doctor | head -1`) is
 * dropped quietly: node reports EPIPE as an 'error' event that would otherwise end the command
 * with a stack trace on stderr. Any other stream error still surfaces.
 */
export function processIO(): CliIO {
  return {
    cwd: process.cwd(),
    env: process.env,
    home: homedir(),
    stdout: quietWhenClosed(process.stdout),
    stderr: quietWhenClosed(process.stderr),
  };
}

function quietWhenClosed(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}
