import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '@kit/test-kit';

/** A verdaccio the suite started on loopback. */
export interface LocalRegistry {
  url: string; // http://127.0.0.1:<port>
  stop(): Promise<void>;
}

const LAUNCHER = fileURLToPath(new URL('./verdaccio-main.cjs', import.meta.url));

/**
 * Starts verdaccio on 127.0.0.1 with storage in `dir`, no uplinks (a package it was not given is a
 * 404, so nothing is fetched from the internet) and anonymous publish.
 */
export async function startRegistry(dir: string, startTimeoutMs = 30_000): Promise<LocalRegistry> {
  const configFile = join(dir, 'config.yaml');
  await writeFile(configFile, registryConfig(dir));
  // Resolved here so a missing verdaccio fails with a resolution error, not a child's stack trace.
  createRequire(import.meta.url).resolve('verdaccio');
  const child = spawn(process.execPath, [LAUNCHER, configFile], {
    cwd: dir,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const port = await waitForPort(child, startTimeoutMs);
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => stopChild(child),
  };
}

function registryConfig(dir: string): string {
  // YAML written by hand: every value is a plain scalar or a quoted path.
  const quoted = (path: string) => JSON.stringify(path);
  return [
    `storage: ${quoted(join(dir, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${quoted(join(dir, 'htpasswd'))}`,
    '    max_users: -1',
    'uplinks: {}',
    'packages:',
    "  '@*/*':",
    '    access: $all',
    '    publish: $all',
    '    unpublish: $all',
    "  '**':",
    '    access: $all',
    '    publish: $all',
    '    unpublish: $all',
    'web:',
    '  enable: false',
    'publish:',
    '  allow_offline: true',
    'log: { type: stdout, format: json, level: error }',
    '',
  ].join('\n');
}

function waitForPort(child: ChildProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`verdaccio did not start: ${why}\nstdout: ${stdout}\nstderr: ${stderr}`));
    };
    const timer = setTimeout(() => fail(`no port after ${timeoutMs} ms`), timeoutMs);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      for (const line of stdout.split('\n')) {
        if (!line.startsWith('{"port"')) continue;
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
        return;
      }
    });
    child.on('exit', (code, signal) => fail(`exited with ${code ?? signal}`));
    child.on('error', (error) => fail(String(error)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.stdin?.end();
  });
}

/** An npm user config that points at `registryUrl` and holds a token for it: npm refuses to publish
 * without one, and verdaccio with `publish: $all` accepts any. */
export async function writeNpmrc(file: string, registryUrl: string): Promise<void> {
  const hostPath = registryUrl.replace(/^https?:/, '');
  await writeFile(
    file,
    [
      `registry=${registryUrl}/`,
      `${hostPath}/:_authToken=e2e-anonymous`,
      'audit=false',
      'fund=false',
      'update-notifier=false',
      '',
    ].join('\n'),
  );
}

/** Publishes each tarball to the registry. */
export async function publishTarballs(
  registryUrl: string,
  npmrc: string,
  cacheDir: string,
  tarballs: string[],
): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  await Promise.all(
    tarballs.map(async (tarball) => {
      const result = await runCommand(
        'npm',
        ['publish', tarball, '--registry', registryUrl, '--tag', 'latest'],
        {
          cwd: cacheDir,
          env: { ...process.env, npm_config_userconfig: npmrc, npm_config_cache: cacheDir },
          timeoutMs: 60_000,
        },
      );
      if (result.exitCode !== 0) {
        throw new Error(
          `npm publish ${tarball} failed (${result.exitCode}):\n${result.stdout}\n${result.stderr}`,
        );
      }
    }),
  );
}
