import type { Pattern } from './pattern.ts';
import type { Registry } from './registry.ts';

/** Later words that make a segment a capability probe: never a gate, never a state change. `-v` is not one. */
export const probeFlags: ReadonlySet<string> = new Set([
  '--version',
  '--help',
  '-V',
  '-h',
  'version',
  '--usage',
]);
/** Words that make a read when they stand in the subcommand path (third word up to the first option). */
export const readVerbs: ReadonlySet<string> = new Set(['list', 'ls', 'show', 'view', 'history']);

/** Why a head is neither a gate nor a mutator whatever the lists say. */
export type Screen = 'probe' | 'read' | 'exempt';

/** What the registry makes of one head. */
export interface HeadRole {
  head: string; // make check: the words after launchers and assignments, joined by single spaces
  gate: boolean; // its exit status is the verdict
  mutator: boolean; // an outward-facing state change
  restore: boolean; // a mutator that undoes what a gate built
  screen: Screen | null;
}

/** The structural screen a head's words fall under, if any (the same for every tool: no per-tool rows). */
export function screenOf(words: readonly string[]): 'probe' | 'read' | null {
  if (words.slice(1).some((word) => probeFlags.has(word))) return 'probe';
  for (const word of words.slice(2)) {
    if (word.startsWith('-')) break;
    if (readVerbs.has(word)) return 'read';
  }
  return null;
}

const nothing = { gate: false, mutator: false, restore: false };

function matchesAny(patterns: readonly Pattern[], head: string): boolean {
  let lower: string | undefined;
  const lowerHead = () => {
    lower ??= head.toLowerCase();
    return lower;
  };
  for (const pattern of patterns) if (pattern.test(head, lowerHead)) return true;
  return false;
}

/** Classifies a head given as its words; exempt wins over gates and mutators. */
export function roleOfHead(words: readonly string[], registry: Registry): HeadRole {
  const head = words.join(' ');
  if (head === '') return { head, ...nothing, screen: null };
  const screen = screenOf(words);
  if (screen) return { head, ...nothing, screen };
  if (matchesAny(registry.exempt, head)) return { head, ...nothing, screen: 'exempt' };
  const mutator = matchesAny(registry.mutators, head);
  return {
    head,
    gate: matchesAny(registry.gates, head),
    mutator,
    restore: mutator && matchesAny(registry.restores, head),
    screen: null,
  };
}
