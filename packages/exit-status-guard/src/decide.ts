import { logPathIn } from './log-path.ts';
import type { Call, DenyingRule, Finding, LogPathProbe, Rewrite, RuleReason } from './rule.ts';
import { type DenyRule, type RuleId, rules } from './rules/index.ts';

/** What a denying rule found, ready for the reason: the gate, the rule's sentences, its rewrite on demand. */
export interface Denial {
  rule: DenyRule;
  gateHead: string;
  reason: RuleReason;
  rewrite: (log: LogPathProbe) => Rewrite; // a rewrite that throws is no rewrite
}

/** What the rules make of a call: the first that fires, in the order of rules/index.ts. */
export type Decision =
  | { kind: 'none' } // no rule fired
  | { kind: 'silenced'; rule: RuleId; overridden: DenyRule } // the override, and the rule it kept from denying
  | { kind: 'deny'; denial: Denial };

// Any denying rule reads as DenyingRule<DenyRule, Finding> (its methods take its own finding): only
// the finding its own find returned is ever handed back to its reason and rewrite.
function denialOf(rule: DenyingRule<DenyRule, Finding>, call: Call): Denial | null {
  const found = rule.find(call);
  if (found === null) return null;
  return {
    rule: rule.id,
    gateHead: found.gateHead,
    reason: rule.reason(found),
    rewrite: (log) => {
      try {
        return rule.rewrite(found, logPathIn(found.shell.line, log));
      } catch (error) {
        return { ok: false, reason: 'no-rewrite', message: `threw: ${String(error)}` };
      }
    },
  };
}

/**
 * The first rule that fires on a parsed call: the override silences, any other denies. An override
 * is "silenced" only when a rule would have denied (the audit trail records it as an override used,
 * with that rule); on a call no rule denies it changed nothing, and the call is plain "none".
 */
export function decide(call: Call): Decision {
  let silencedBy: RuleId | null = null;
  for (const rule of rules) {
    if (rule.effect === 'silence') {
      if (silencedBy === null && rule.find(call)) silencedBy = rule.id;
      continue;
    }
    const denial = denialOf(rule, call);
    if (denial === null) continue;
    return silencedBy === null
      ? { kind: 'deny', denial }
      : { kind: 'silenced', rule: silencedBy, overridden: denial.rule };
  }
  return { kind: 'none' };
}
