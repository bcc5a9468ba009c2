// The characters that can start structure: | & ; ( ) ` and the line breaks. $( <( >( all hold "(".
// `coproc cmd` runs cmd asynchronously without any of them. A plain scan, no quote tracking: a
// quoted "|" counts too (over-inclusive, never under-inclusive).
const structural = /[|&;()`\n\r]|coproc/;

/**
 * A cheap lexical pre-check that needs no parser: false means the text holds none of
 * | & ; ( ) ` a line break or `coproc`, so it is at most one simple command (no pipeline, list, subshell or
 * substitution). true means "parse it to know". A non-string is true (let parse say what it is).
 */
export function hasStructure(command: string): boolean {
  if (typeof command !== 'string') return true;
  return structural.test(command);
}
