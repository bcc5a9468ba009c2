'use strict';
// A CommonJS file on purpose: node:os is required on the first call, not when a hook bundle starts.
// Imported at a bundle's top it costs ~1.5 ms on every call, and a hook asks for the OS temp folder
// only after the TMPDIR it was given, and only on some paths.
module.exports = function osTempDir() {
  return require('node:os').tmpdir();
};
