declare const nodeBuiltins: {
  zlib(): typeof import('node:zlib');
  vm(): typeof import('node:vm');
  os(): typeof import('node:os');
  module(): typeof import('node:module');
};
export = nodeBuiltins;
