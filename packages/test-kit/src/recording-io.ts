/** The I/O a guard's CLI runs with (gate-approval's CliIO), plus what it printed. */
export interface RecordingIO {
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin?: () => Promise<string>;
  out: () => string; // everything written to stdout so far
  err: () => string; // everything written to stderr so far
}

/** What the CLI is given; every field has a default that points nowhere real. */
export type RecordingIOOptions = Partial<Pick<RecordingIO, 'cwd' | 'env' | 'home' | 'stdin'>>;

/**
 * A CliIO that records what a command prints. Defaults: cwd `/nonexistent-project`, home
 * `/nonexistent-home`, an empty env, no stdin.
 */
export function recordingIO(options: RecordingIOOptions = {}): RecordingIO {
  let out = '';
  let err = '';
  return {
    cwd: '/nonexistent-project',
    env: {},
    home: '/nonexistent-home',
    ...options,
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    out: () => out,
    err: () => err,
  };
}
