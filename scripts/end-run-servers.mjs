// Ends the verdict servers one test run started, found by its folder, never by name: the run's own
// TMPDIR holds every server folder its hooks made ($TMPDIR/kit-hooks-<uid>/<key>.box/server holds
// the server's pid), and a server whose folder a test already removed still names that TMPDIR in
// its environment. Another user's, another project's or another run's servers are left alone.
// Usage: node scripts/end-run-servers.mjs <the run's TMPDIR>
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const marker = '--kit-serve-verdicts';

/** The pids written in the server pid files under `folder` (kit-hooks-<uid>/<key>.box/server). */
export function pidsFromFolder(folder) {
  const pids = [];
  const walk = (dir, depth) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < 8) walk(path, depth + 1);
      else if (entry.name === 'server' && dir.endsWith('.box') && /kit-hooks-\d+$/.test(resolve(dir, '..'))) {
        const pid = Number(readFileSync(path, 'utf8').trim());
        if (Number.isInteger(pid) && pid > 0) pids.push(pid);
      }
    }
  };
  walk(folder, 0);
  return pids;
}

/** A process's argv and environment from /proc (Linux), or undefined where it cannot be read. */
function processInfo(pid) {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    return { argv, env };
  } catch {
    return undefined;
  }
}

/** Is `path` the folder itself or inside it? */
const inside = (path, folder) => path === folder || path.startsWith(`${folder}/`);

/** The verdict servers (this user's, readable in /proc) whose TMPDIR is `folder` or inside it. */
export function pidsByTemp(folder) {
  if (!existsSync('/proc')) return [];
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = processInfo(Number(name));
    if (info === undefined || !info.argv.includes(marker)) continue;
    const temp = info.env.find((entry) => entry.startsWith('TMPDIR='))?.slice('TMPDIR='.length);
    if (temp !== undefined && inside(resolve(temp), folder)) pids.push(Number(name));
  }
  return pids;
}

/** Ends the run's servers; returns the pids it signalled. A pid whose process is no server is skipped. */
export function endRunServers(folder) {
  const root = resolve(folder);
  const pids = new Set([...pidsFromFolder(root), ...pidsByTemp(root)]);
  const ended = [];
  for (const pid of pids) {
    const info = processInfo(pid);
    // A pid file can outlive its server, and the pid be reused: end only a verdict server.
    if (info !== undefined && !info.argv.includes(marker)) continue;
    try {
      process.kill(pid, 'SIGTERM');
      ended.push(pid);
    } catch {
      // already gone
    }
  }
  return ended;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const folder = process.argv[2];
  if (folder === undefined) {
    process.stderr.write('usage: node scripts/end-run-servers.mjs <folder>\n');
    process.exitCode = 2;
  } else {
    const ended = endRunServers(folder);
    if (ended.length > 0)
      process.stdout.write(`kit: ended ${ended.length} verdict server(s) this run started\n`);
  }
}
