import { headForms } from './head-forms.ts';
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

/**
 * The structural screen a head's words fall under, if any (the same for every tool: no per-tool
 * rows). A probe flag that takes a value is no probe: `cargo install x --version "^2"` installs.
 */
export function screenOf(words: readonly string[]): 'probe' | 'read' | null {
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as string;
    if (!probeFlags.has(word)) continue;
    const next = words[i + 1];
    if (word.startsWith('-') && next !== undefined && !next.startsWith('-')) continue;
    return 'probe';
  }
  for (const word of words.slice(2)) {
    if (word.startsWith('-')) break;
    if (readVerbs.has(word)) return 'read';
  }
  return null;
}

const nothing = { gate: false, mutator: false, restore: false };

function matchesAny(patterns: readonly Pattern[], heads: readonly string[]): boolean {
  for (const head of heads) {
    let lower: string | undefined;
    const lowerHead = () => {
      lower ??= head.toLowerCase();
      return lower;
    };
    for (const pattern of patterns) if (pattern.test(head, lowerHead)) return true;
  }
  return false;
}

/**
 * Classifies a head given as its words. Each list is matched against every form of the head (as
 * written, by its tool's name, behind a package runner: see headForms), and the screens read the
 * command as it runs (the last form); exempt wins over gates and mutators.
 */
export function roleOfHead(words: readonly string[], registry: Registry): HeadRole {
  const head = words.join(' ');
  if (head === '') return { head, ...nothing, screen: null };
  const forms = headForms(words);
  const screen = screenOf(forms[forms.length - 1] as string[]);
  if (screen) return { head, ...nothing, screen };
  const heads = forms.map((form) => form.join(' '));
  if (matchesAny(registry.exempt, heads)) return { head, ...nothing, screen: 'exempt' };
  const mutator = matchesAny(registry.mutators, heads);
  return {
    head,
    gate: matchesAny(registry.gates, heads),
    mutator,
    restore: mutator && matchesAny(registry.restores, heads),
    screen: null,
  };
}

// A role is a function of the words and the registry's patterns alone, and registry.ts compiles
// each pattern source once per process: a verdict server that reads the same registry files call
// after call meets the same pattern objects, and mostly the same heads (git, npm, cd, …).
const patternIds = new WeakMap<Pattern, number>();
let nextPatternId = 0;
const rolesByPatterns = new Map<string, Map<string, HeadRole>>();
const maxRegistries = 8; // registries told apart at once (a few projects' files in one server)
const maxHeads = 4096; // heads kept per registry

function idOf(pattern: Pattern): number {
  let id = patternIds.get(pattern);
  if (id === undefined) {
    id = nextPatternId++;
    patternIds.set(pattern, id);
  }
  return id;
}

/**
 * roleOfHead for one registry, remembered across calls: keyed by the identities of its patterns,
 * list by list, so a registry that differs in any pattern has roles of its own. Read the registry
 * once per call (a caller that changes the lists afterwards gets a new reader).
 */
export function headRolesOf(registry: Registry): (words: readonly string[]) => HeadRole {
  const key = [registry.gates, registry.exempt, registry.mutators, registry.restores]
    .map((list) => list.map(idOf).join(','))
    .join('|');
  let roles = rolesByPatterns.get(key);
  if (roles === undefined) {
    if (rolesByPatterns.size >= maxRegistries) rolesByPatterns.clear();
    roles = new Map();
    rolesByPatterns.set(key, roles);
  }
  const known = roles;
  return (words) => {
    const head = words.join('\u0000');
    let role = known.get(head);
    if (role === undefined) {
      role = roleOfHead(words, registry);
      if (known.size >= maxHeads) known.clear();
      known.set(head, role);
    }
    return role;
  };
}
