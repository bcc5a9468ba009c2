/** How many frames stand between a segment and its line's main list: 0 on the main list, 1 in `( )`, … */
export function frameDepth(segment: { context: readonly unknown[] }): number {
  return segment.context.length - 1;
}
