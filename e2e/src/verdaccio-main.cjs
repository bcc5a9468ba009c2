#!/usr/bin/env node
// Runs verdaccio on 127.0.0.1 with a port the OS picks, and prints {"port":N} on stdout once it listens.
// A child process of the suite (not in the test process) so its logger and timers die with it.
'use strict';
const { runServer } = require('verdaccio');

const configFile = process.argv[2];
if (!configFile) {
  process.stderr.write('usage: verdaccio-main.cjs <config.yaml>\n');
  process.exitCode = 2;
} else {
  runServer(configFile).then(
    (server) => {
      server.listen(0, '127.0.0.1', () => {
        process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
      });
      // Ends with its parent: the suite closes stdin when it is done (or dies).
      process.stdin.on('end', () => process.exit(0));
      process.stdin.resume();
    },
    (error) => {
      process.stderr.write(`verdaccio did not start: ${error?.stack ?? error}\n`);
      process.exitCode = 1;
    },
  );
}
