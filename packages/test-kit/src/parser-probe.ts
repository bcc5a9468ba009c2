import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type HookRun, type HookRunOptions, hookEnv, runHookFile } from './hook-process.ts';
import { tempDir } from './temp-tree.ts';

const probe = fileURLToPath(new URL('../fixtures/parser-probe.cjs', import.meta.url));

/** What a hook process loaded on its way to an answer. */
export interface ParserLoad {
  parser: 'loaded' | 'not-loaded'; // mvdan-sh started in the process
  builtins: string[]; // which of zlib, vm, os, perf_hooks, crypto (the parse path's) were loaded
}

/**
 * Runs a hook file with a probe preloaded (`--require`) that records, at exit, whether mvdan-sh was
 * started and which of the parse path's builtins were loaded: the common path must load neither.
 * The call answers in process (KIT_HOOKS_SERVER=off), the path whose loads this probe can see.
 */
export function runWithParserProbe(
  file: string,
  stdin: unknown,
  options: Omit<HookRunOptions, 'nodeArgs'> = {},
): { run: HookRun; load: ParserLoad } {
  const out = join(tempDir('kit-parser-probe'), 'load.json');
  // In process: with a verdict server the call is answered there, and this process loads nothing.
  const env = { ...(options.env ?? hookEnv()), PARSER_PROBE_OUT: out, KIT_HOOKS_SERVER: 'off' };
  const run = runHookFile(file, stdin, { ...options, env, nodeArgs: ['--require', probe] });
  return { run, load: JSON.parse(readFileSync(out, 'utf8')) as ParserLoad };
}
