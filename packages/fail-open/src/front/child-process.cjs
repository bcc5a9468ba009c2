'use strict';
// A CommonJS file on purpose, like ../os-temp-dir.cjs: node:child_process is required only by the
// call that starts a verdict server, never when a bundle's front starts.
module.exports = function childProcess() {
  return require('node:child_process');
};
