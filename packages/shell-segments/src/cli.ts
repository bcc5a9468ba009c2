#!/usr/bin/env node
import { main } from './command-line.ts';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
