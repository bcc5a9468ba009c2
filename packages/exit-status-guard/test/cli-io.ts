import type { CliIO } from '@kit/gate-approval';

/** A CliIO that records what the command printed. */
export function recordingIO(
  overrides: Partial<CliIO> = {},
): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    cwd: '/nonexistent-project',
    env: {},
    home: '/nonexistent-home',
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    ...overrides,
    out: () => out,
    err: () => err,
  };
}
