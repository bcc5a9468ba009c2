/**
 * The gate's cheap reject, a plain text test that never loads the parser: true when the text
 * contains `git`, or `gh` followed later by `merge`, or a backslash (which can spell `g\it`).
 * Quote characters are ignored for the test (`g""it` is git-looking). Applied to the command, or
 * (strict mode, unreadable payload) to the raw stdin text, JSON
 * escapes included, which is why nearly every raw payload counts as git-looking.
 */
export function isGitLooking(text: string): boolean {
  if (text.includes('\\')) return true;
  // Quotes are dropped first: `g""it` and `'g'h pr merge` run git and gh too.
  const unquoted = text.includes('"') || text.includes("'") ? text.replace(/["']/g, '') : text;
  if (unquoted.includes('git')) return true;
  const gh = unquoted.indexOf('gh');
  return gh !== -1 && unquoted.includes('merge', gh + 2);
}

/**
 * A second plain text test, over-inclusive by design: false only when no segment of the command
 * can run in another directory than the payload cwd, so the evidence probe can decide before the
 * parse. Anything that could spell a move counts: `cd`, `pushd`, a `-C`/`-D`-style option
 * (`git -C`, `env -C`, `sudo -D`, clusters), `chdir`, and any expansion (`$`, a backtick) or
 * backslash, since those can spell a command the text does not show.
 */
export function mayMoveDirectory(text: string): boolean {
  if (/[$`\\]/.test(text)) return true;
  const unquoted = text.includes('"') || text.includes("'") ? text.replace(/["']/g, '') : text;
  return /cd|pushd|chdir|-[A-Za-z]*[CD]/.test(unquoted);
}
