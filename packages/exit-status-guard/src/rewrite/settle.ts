import { noRewrite, type Rewrite } from '../rule.ts';

/** What the guard says about a suggested command: silent, a rewrite of its own, or nothing it can read. */
export type Rejudged = { kind: 'silent' } | { kind: 'deny'; rewrite: Rewrite } | { kind: 'unreadable' };

/** How many times a rewrite may be rewritten again (a piped check before a push: pipe, then `&&`). */
const maxRounds = 4;

/**
 * A rewrite the guard itself lets through. Each suggestion is judged again; while it is still
 * denied, the rule that denies it rewrites it in turn (the piped check that ended up before a
 * `; git push` is then joined with `&&`). A suggestion that cannot be read, or does not settle,
 * is no rewrite: the reason gives its rule's fallback sentence instead of a command that would be
 * denied again.
 */
export function settleRewrite(first: Rewrite, rejudge: (text: string) => Rejudged): Rewrite {
  let rewrite = first;
  for (let round = 0; round <= maxRounds && rewrite.ok; round += 1) {
    const verdict = rejudge(rewrite.value);
    if (verdict.kind === 'silent') return rewrite;
    if (verdict.kind === 'unreadable') return noRewrite('the suggestion does not parse');
    rewrite = verdict.rewrite;
  }
  return rewrite.ok ? noRewrite('the suggestion is still denied') : rewrite;
}
