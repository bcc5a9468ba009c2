import { type ChildProcess, spawn } from 'node:child_process';
import { cpus } from 'node:os';

/**
 * The spec's "loaded 2-core machine", reproduced: one CPU-bound `node -e 'for(;;){}'` per core, at
 * the bench's own priority, started before a condition's sessions and ended (by pid) after them.
 */
export const loadDescription = "one CPU-bound `node -e 'for(;;){}'` per core, same priority as the bench";

export interface BackgroundLoad {
  pids: number[];
  stop: () => void;
}

const started = new Set<ChildProcess>();

/** Starts the load and lets it take the cores before anything is timed. */
export async function startLoad(): Promise<BackgroundLoad> {
  const children = cpus().map(() =>
    spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore', detached: false }),
  );
  for (const child of children) started.add(child);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    pids: children.map((child) => child.pid ?? -1),
    stop: () => {
      for (const child of children) stopOne(child);
    },
  };
}

/** Ends every load this process started and has not ended: the bench's last word, even after a throw. */
export function stopAllLoad(): void {
  for (const child of started) stopOne(child);
}

function stopOne(child: ChildProcess): void {
  started.delete(child);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
