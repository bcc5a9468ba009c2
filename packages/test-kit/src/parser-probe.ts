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
 * The call is answered in process (`KIT_HOOKS_SERVER=off`): that is the process being measured.
 */
export function runWithParserProbe(
  file: string,
  stdin: unknown,
  options: Omit<HookRunOptions, 'nodeArgs'> = {},
): { run: HookRun; load: ParserLoad } {
  const out = join(tempDir('kit-parser-probe'), 'load.json');
  // What this process loads is measured: a verdict server, answering instead, would hide it.
  const env = { ...(options.env ?? hookEnv()), KIT_HOOKS_SERVER: 'off', PARSER_PROBE_OUT: out };
  const run = runHookFile(file, stdin, { ...options, env, nodeArgs: ['--require', probe] });
  return { run, load: JSON.parse(readFileSync(out, 'utf8')) as ParserLoad };
}
