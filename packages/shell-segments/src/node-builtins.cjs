'use strict';
// A CommonJS file on purpose, shipped as its own file beside the bundles (like require-mvdan.cjs):
// the Node builtins only the parse path needs are required here on first use. An ES module import
// is hoisted to the top of every bundle that inlines this package, and a hook bundle would then
// load them on every call, also on the calls that never parse: about 2 ms of a hook's start.
module.exports = {
  zlib: () => require('node:zlib'),
  vm: () => require('node:vm'),
  os: () => require('node:os'),
  module: () => require('node:module'),
};
