'use strict';
// A CommonJS file on purpose, and a separate one: the library requires mvdan-sh from node_modules
// on demand, and a guard's hook bundle swaps this whole file for mvdan-sh's packed source
// (embedMvdanAsData in tsup.base.ts; load-parser.ts tells the two apart).
module.exports = function requireMvdan() {
  return require('mvdan-sh');
};
