import { type Context, type Segment, shellScopeOf } from '@kit/shell-segments';

/** What one `set` (or `shopt -o`) statement does to an option: turns it on, off, or leaves it. */
export type OptionEffect = 'on' | 'off' | null;

const errexitLetter = 'e';

function staticWords(segment: Segment): (string | null)[] {
  return segment.argv.map((word) => (word.dynamic ? null : word.value));
}

/**
 * What a segment does to a `set -o` option. `set -euo pipefail` and `set -o errexit -o pipefail`
 * turn pipefail on; `set -e pipefail` does not (pipefail there is a positional parameter).
 */
export function optionEffect(segment: Segment, option: 'pipefail' | 'errexit'): OptionEffect {
  const words = staticWords(segment);
  if (words[0] === 'shopt') return shoptEffect(words, option);
  if (words[0] !== 'set') return null;
  let effect: OptionEffect = null;
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === null || word === undefined || word === '--' || word === '-') break;
    if (!/^[-+][A-Za-z]+$/.test(word)) break;
    const on = word.startsWith('-');
    for (const letter of word.slice(1)) {
      if (letter === 'o') {
        i += 1;
        if (words[i] === option) effect = on ? 'on' : 'off';
      } else if (option === 'errexit' && letter === errexitLetter) {
        effect = on ? 'on' : 'off';
      }
    }
  }
  return effect;
}

function shoptEffect(words: (string | null)[], option: string): OptionEffect {
  const flags = words.filter((word): word is string => word !== null && /^-[a-z]+$/.test(word)).join('');
  if (!flags.includes('o') || !words.includes(option)) return null;
  if (flags.includes('s')) return 'on';
  if (flags.includes('u')) return 'off';
  return null;
}

/**
 * Whether an option is on at a point of a shell (a start offset and the frames around it): the last
 * `set` that changes it, earlier in the same shell, scoped as bash scopes it (inherited by subshells
 * and `$( )` bodies; a `set` in a subshell, function body, pipeline stage or background stays there).
 */
export function isOptionOnAt(
  segments: readonly Segment[],
  start: number,
  chain: readonly Context[],
  option: 'pipefail' | 'errexit',
): boolean {
  let state: OptionEffect = null;
  let latest = -1;
  for (const [candidate, effect] of optionSettersOf(segments, option)) {
    if (candidate.end > start || candidate.start < latest) continue;
    const scope = shellScopeOf(candidate);
    if (scope === null || !chain.includes(scope)) continue;
    state = effect;
    latest = candidate.start;
  }
  return state === 'on';
}

const setterCache = new WeakMap<readonly Segment[], Map<string, [Segment, 'on' | 'off'][]>>();

/**
 * The segments of a list that change an option, with what they do to it (computed once per list):
 * each `set` / `shopt -o`, and each call of a function defined earlier on the line whose body
 * changes it (a function runs in the caller's shell: `f() { set -o pipefail; }; f` turns it on).
 */
function optionSettersOf(
  segments: readonly Segment[],
  option: 'pipefail' | 'errexit',
): [Segment, 'on' | 'off'][] {
  let byOption = setterCache.get(segments);
  if (byOption === undefined) {
    byOption = new Map();
    setterCache.set(segments, byOption);
  }
  let setters = byOption.get(option);
  if (setters === undefined) {
    const direct: [Segment, 'on' | 'off'][] = [];
    for (const segment of segments) {
      const effect = optionEffect(segment, option);
      if (effect !== null) direct.push([segment, effect]);
    }
    setters = [...direct, ...functionCalls(segments, direct)].sort(([a], [b]) => a.start - b.start);
    byOption.set(option, setters);
  }
  return setters;
}

/** The calls of functions whose body leaves the option changed, each with the body's last change. */
function functionCalls(
  segments: readonly Segment[],
  direct: readonly [Segment, 'on' | 'off'][],
): [Segment, 'on' | 'off'][] {
  // Each function by name: its body, and the shell it is defined in (a definition in a subshell stays there).
  const definitions = new Map<string, { body: Context; definedIn: Context | null }[]>();
  const seen = new Set<Context>();
  for (const segment of segments) {
    segment.context.forEach((frame, at) => {
      if (frame.kind !== 'function-body' || !frame.name || seen.has(frame)) return;
      seen.add(frame);
      const definedIn = shellScopeOf({
        context: segment.context.slice(0, at),
        pipeline: frame.placement?.pipeline ?? null,
        background: frame.placement?.background ?? false,
      });
      definitions.set(frame.name, [...(definitions.get(frame.name) ?? []), { body: frame, definedIn }]);
    });
  }
  if (definitions.size === 0) return [];
  const calls: [Segment, 'on' | 'off'][] = [];
  for (const segment of segments) {
    const name = segment.argv[0];
    const called = name && !name.dynamic && name.value !== null ? definitions.get(name.value) : undefined;
    // The definition in force at the call: the latest one before it, in a shell the call runs in.
    const found = called
      ?.filter(
        ({ body, definedIn }) =>
          body.end <= segment.start && definedIn !== null && segment.context.includes(definedIn),
      )
      .at(-1);
    if (found === undefined) continue;
    const { body } = found;
    // The body's own last change: a set in a subshell of the body stays there.
    const inBody = direct.filter(([setter]) => shellScopeOf(setter) === body);
    const last = inBody[inBody.length - 1];
    if (last) calls.push([segment, last[1]]);
  }
  return calls;
}

/** Whether an option is on for a segment (see isOptionOnAt). */
export function isOptionOn(
  segments: readonly Segment[],
  at: Segment,
  option: 'pipefail' | 'errexit',
): boolean {
  return isOptionOnAt(segments, at.start, at.context, option);
}
