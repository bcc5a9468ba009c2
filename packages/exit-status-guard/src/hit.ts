import type { Context, Segment } from '@kit/shell-segments';
import type { Item } from './frames.ts';
import type { Unit } from './unit.ts';

/** The rules, in the order they are tried; the first that fires wins. Kebab-case, as in the reasons and the friction report. */
export const ruleIds = [
  'override',
  'pipestatus',
  'piped-gate',
  'lost-background',
  'sequenced-mutator',
  'process-substitution',
] as const;
/** One of the guard's rules. */
export type RuleId = (typeof ruleIds)[number];
/** A rule that denies (every rule but the override, which silences). */
export type DenyRule = Exclude<RuleId, 'override'>;

/** What a denying rule found: enough for its reason and its rewrite. */
export type Hit =
  | { rule: 'pipestatus'; unit: Unit; reader: Segment; gate: Segment | null; gateHead: string }
  | { rule: 'piped-gate'; unit: Unit; gate: Segment; gateHead: string; stage: Item; pipelineId: number }
  | {
      rule: 'lost-background';
      unit: Unit;
      gate: Segment;
      gateHead: string;
      how: 'ampersand';
      statement: Item;
    }
  | {
      rule: 'lost-background';
      unit: Unit;
      gate: Segment;
      gateHead: string;
      how: 'call';
      last: Item;
      gateStatement: Item;
    }
  | {
      rule: 'sequenced-mutator';
      unit: Unit;
      gate: Segment;
      gateHead: string;
      statement: Item;
      mutator: Segment;
      mutatorHead: string;
      mutatorIsRestore: boolean;
      errexit: boolean;
    }
  | { rule: 'process-substitution'; unit: Unit; gate: Segment; gateHead: string; substitution: Context };
