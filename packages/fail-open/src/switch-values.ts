/** The values that turn a kit switch off (any case, surrounding whitespace ignored). */
export const switchOffValues: readonly string[] = ['off', '0', 'false', 'no', 'disabled'];

/** True when a switch's value turns it off. */
export function switchedOff(value: string | undefined): boolean {
  return switchOffValues.includes((value ?? '').trim().toLowerCase());
}
