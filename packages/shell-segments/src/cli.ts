#!/usr/bin/env node
import { main } from './kit-segments.ts';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
