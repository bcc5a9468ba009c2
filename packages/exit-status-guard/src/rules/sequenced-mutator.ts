import type { Segment } from '@kit/shell-segments';
import { findStatusCaptures, frameDepth } from '@kit/shell-segments';
import { statusExit } from '../frames.ts';
import type { Hit } from '../hit.ts';
import { isOptionOn } from '../shell-options.ts';
import { allUnits, frameOf, roleOf, type Unit } from '../unit.ts';
import { pipedStage } from './piped-gate.ts';

const testCommands = new Set(['[', '[[', 'test']);

/** The segment right before this one in its own list, when the two are joined by `&&`. */
function andPredecessor(unit: Unit, segment: Segment): Segment | null {
  const frame = frameOf(segment);
  let best: Segment | null = null;
  for (const other of unit.segments) {
    if (other === segment || frameOf(other).id !== frame.id || other.end > segment.start) continue;
    if (best === null || other.start > best.start) best = other;
  }
  return best !== null && best.then === '&&' && best.pipeline === null ? best : null;
}

/** The tested form: after the capture, an unbroken `&&` chain from a test of `$rc` into the mutator. */
function isTested(unit: Unit, mutator: Segment, name: string, after: number): boolean {
  for (
    let link = andPredecessor(unit, mutator);
    link !== null && link.start > after;
    link = andPredecessor(unit, link)
  ) {
    if (testCommands.has(link.argv[0]?.value ?? '') && link.params.includes(name)) return true;
  }
  return false;
}

/**
 * Whether a gate → mutator sequence is one of the two safe forms: capture-and-restore (the mutator is
 * a restore, `rc=$?` is its own top-level statement between them, a later statement reads `$rc`), or
 * tested (after the capture, `[ … "$rc" … ] && … && mutator`).
 */
const captureCache = new WeakMap<Unit, ReturnType<typeof findStatusCaptures>>();

function capturesOf(unit: Unit): ReturnType<typeof findStatusCaptures> {
  let captures = captureCache.get(unit);
  if (captures === undefined) {
    captures = findStatusCaptures(unit.line).filter((capture) => frameDepth(capture.capture) === 0);
    captureCache.set(unit, captures);
  }
  return captures;
}

function isSafeSequence(unit: Unit, gate: Segment, mutator: Segment, isRestore: boolean): boolean {
  for (const capture of capturesOf(unit)) {
    const at = capture.capture;
    if (frameDepth(at) !== 0 || at.start < gate.end || at.end > mutator.start) continue;
    if (isTested(unit, mutator, capture.name, at.end)) return true;
    if (isRestore && capture.readers.some((reader) => reader.start >= mutator.end)) return true;
  }
  return false;
}

/**
 * Rule 4: a gate followed by `;` or a newline (closing every group it sits in), then later a
 * mutator at any depth. Not for `&&`; gate then gate is fine.
 */
export function findSequencedMutator(unit: Unit): Hit | null {
  for (const each of allUnits(unit)) {
    const mutators = each.segments.filter((_, j) => each.roles[j]?.containsMutator);
    if (mutators.length === 0) continue;
    for (const [i, gate] of each.segments.entries()) {
      const role = each.roles[i];
      if (!role?.gate) continue;
      // A piped gate only reaches the list operator under pipefail (otherwise rule 2 has spoken).
      if (pipedStage(each, gate) !== null && !isOptionOn(each.segments, gate, 'pipefail')) continue;
      const { then, statement } = statusExit(each, gate);
      if (then !== ';' && then !== 'newline') continue;
      for (const mutator of mutators) {
        const mutatorRole = roleOf(each, mutator);
        if (mutator.start < statement.end) continue;
        if (isSafeSequence(each, gate, mutator, mutatorRole.restore)) continue;
        return {
          rule: 'sequenced-mutator',
          unit: each,
          gate,
          gateHead: role.gateHead ?? role.head,
          statement,
          mutator,
          mutatorHead: mutatorRole.head,
          mutatorIsRestore: mutatorRole.restore,
          errexit: isOptionOn(each.segments, gate, 'errexit'),
        };
      }
    }
  }
  return null;
}
