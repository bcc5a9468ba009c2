// mvdan-sh reports operators as numbers (Go's token enum, compiled to JS). These tables were read
// off the parser itself; test/operators.test.ts parses each spelling and checks the number.

/** BinaryCmd.Op: the and-or and pipe operators. */
export const binaryCmdOps: Readonly<Record<number, '&&' | '||' | '|' | '|&'>> = {
  10: '&&',
  11: '||',
  12: '|',
  13: '|&',
};

/** Redirect.Op. */
export const redirectOps: Readonly<Record<number, string>> = {
  54: '>',
  55: '>>',
  56: '<',
  57: '<>',
  58: '<&',
  59: '>&',
  60: '>|',
  61: '<<',
  62: '<<-',
  63: '<<<',
  64: '&>',
  65: '&>>',
};

/** ProcSubst.Op: <( ) reads from the command, >( ) writes to it. */
export const procSubstOps: Readonly<Record<number, '<' | '>'>> = { 66: '<', 67: '>' };

/** The length in source characters of each [[ ]] operator (-a spells -e, -h spells -L). */
export const testOpLengths: Readonly<Record<number, number>> = {
  10: 2, // &&
  11: 2, // ||
  34: 1, // !
  40: 2, // ==
  41: 2, // !=
  54: 1, // >
  56: 1, // <
  74: 1, // =
  112: 2, // =~
  ...Object.fromEntries(Array.from({ length: 24 }, (_, i) => [88 + i, 2])), // -e .. -R
  ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [113 + i, 3])), // -nt .. -gt
};
