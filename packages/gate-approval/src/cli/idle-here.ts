import type { GuardDefinition } from '../guard.ts';

/**
 * The guard's own words for why it judges nothing for calls in `cwd` (GuardSpec.idleHere), or null
 * when it acts there or cannot say. A hook that throws is no words: doctor and explain go on.
 */
export function idleHere(
  guard: Pick<GuardDefinition, 'idleHere'>,
  cwd: string,
  env: Record<string, string | undefined>,
): string | null {
  try {
    const words = guard.idleHere?.(cwd, env);
    return typeof words === 'string' && words !== '' ? words : null;
  } catch {
    return null;
  }
}
