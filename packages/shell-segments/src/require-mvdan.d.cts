declare function requireMvdan(): unknown;
export = requireMvdan;
