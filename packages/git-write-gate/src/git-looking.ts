/**
 * The gate's cheap reject, a plain text test that never loads the parser: true when the text can
 * spell `git`, or `gh` followed later by `merge` or `sync` (`gh repo sync`), once the shell has removed what it removes:
 * quotes (`g""it`, `'g'h`), backslashes (`g\it`, `\git`), line continuations (`gi\<newline>t`)
 * and the `$` of an empty `$''` or `$""` (`g$''it`). An ANSI-C string can spell any letter
 * (`$'\x67it'`, `$'\147it'`), so a text holding a backslash, a `$` and a `'` anywhere counts too:
 * they need not stand together, since quotes can build `$'` for a nested shell. A backslash alone
 * no longer counts. Sound by a property test: where this is false, the full evaluation finds no
 * git or gh at any depth.
 */
export function isGitLooking(text: string): boolean {
  const joined = text.includes('\\\n') ? text.replace(/\\\n/g, '') : text;
  if (joined.includes('\\') && joined.includes('$') && joined.includes("'")) return true;
  const plain = /["'\\]/.test(joined) ? joined.replace(/\$(?=["'])/g, '').replace(/["'\\]/g, '') : joined;
  if (plain.includes('git')) return true;
  const gh = plain.indexOf('gh');
  return gh !== -1 && (plain.includes('merge', gh + 2) || plain.includes('sync', gh + 2));
}

/**
 * The cheap reject for a raw stdin text the hook could not read as a payload (strict mode, step
 * 3): any backslash counts as well, since a JSON escape (`\u0067it`) can spell any letter. So in
 * practice nearly every unreadable payload is git-looking, as the fail-open record says.
 */
export function isRawTextGitLooking(raw: string): boolean {
  return raw.includes('\\') || isGitLooking(raw);
}

/**
 * A second plain text test, over-inclusive by design: false only when no segment of the command
 * can run in another directory than the payload cwd, so the evidence probe can decide before the
 * parse. Anything that could spell a move counts: `cd`, `pushd`, a `-C`/`-D`-style option
 * (`git -C`, `env -C`, `sudo -D`, clusters), `chdir` and each prefix of `--chdir` that env or sudo
 * takes for it (`env --c=sub`, `sudo --chd sub`), find's `-execdir`/`-okdir`, `chroot` (to its
 * root) and `unshare` (`-w`/`--wd`), git's
 * `--git-dir`/`--work-tree` (and their variables), and any expansion (`$`, a backtick) or
 * backslash, since those can spell a command the text does not show.
 */
export function mayMoveDirectory(text: string): boolean {
  if (/[$`\\]/.test(text)) return true;
  const unquoted = text.includes('"') || text.includes("'") ? text.replace(/["']/g, '') : text;
  return /cd|pushd|chdir|chroot|unshare|--c(?:h(?:d(?:ir?)?)?)?(?=[=\s]|$)|-[A-Za-z]*[CD]|execdir|okdir|git-dir|work-tree|GIT_DIR|GIT_WORK_TREE/.test(
    unquoted,
  );
}
