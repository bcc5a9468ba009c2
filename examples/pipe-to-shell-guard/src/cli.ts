#!/usr/bin/env node
import { runCli } from '@kit/gate-approval';
import { guardDefinition } from './guard.ts';

void runCli(guardDefinition, process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
