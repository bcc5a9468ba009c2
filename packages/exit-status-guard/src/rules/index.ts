import { lostBackground } from './lost-background.ts';
import { override } from './override.ts';
import { pipedGate } from './piped-gate.ts';
import { pipestatus } from './pipestatus.ts';
import { processSubstitution } from './process-substitution.ts';
import { sequencedMutator } from './sequenced-mutator.ts';

/** Any one of the guard's rules. */
export type Rule =
  | typeof override
  | typeof pipestatus
  | typeof pipedGate
  | typeof lostBackground
  | typeof sequencedMutator
  | typeof processSubstitution;

/** The rules in the order they are tried: the first that fires wins; the override comes first and silences. */
export const rules: readonly Rule[] = [
  override,
  pipestatus,
  pipedGate,
  lostBackground,
  sequencedMutator,
  processSubstitution,
];

/** One of the guard's rules, by id (kebab-case, as in its module's name, its reason and the friction report). */
export type RuleId = Rule['id'];
/** A rule that denies (every rule but the override, which silences). */
export type DenyRule = Extract<Rule, { effect: 'deny' }>['id'];

/** The rule ids, in the order they are tried. */
export const ruleIds: readonly RuleId[] = rules.map((rule) => rule.id);

/**
 * One stable phrase per denying rule. The friction report counts denials by rule with these: change
 * one and older transcripts stop counting under it. Documented in the README.
 */
export const rulePhrases: Readonly<Record<DenyRule, string>> = Object.fromEntries(
  rules.flatMap((rule) => (rule.effect === 'deny' ? [[rule.id, rule.phrase]] : [])),
) as Record<DenyRule, string>;
