'use strict';
// A CommonJS file on purpose: the literal require() below is what lets a bundler (a guard's
// self-contained hook bundle) inline mvdan-sh, while the call itself still runs only on demand.
module.exports = function requireMvdan() {
  return require('mvdan-sh');
};
