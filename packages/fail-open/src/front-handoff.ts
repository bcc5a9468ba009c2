import { type FrontHandoff, frontHandoffName } from './bundle-loader.ts';
import { isJsonObject } from './json.ts';
import { mailboxProtocol } from './mailbox-protocol.ts';

/** A front of another runtime version asked this process to serve: it ends, serving nothing. */
export type ForeignServe = { mode: 'foreign' };

/**
 * What the bundle's front handed this process (see bundle-loader.ts), taken once: a later runHook
 * in the same process reads stdin itself. Undefined outside a bundle built with a verdict server.
 */
export function takeFrontHandoff(): FrontHandoff | ForeignServe | undefined {
  const key = Symbol.for(frontHandoffName);
  const global = globalThis as Record<symbol, unknown>;
  const handoff = global[key];
  if (handoff === undefined) return undefined;
  delete global[key];
  if (!isJsonObject(handoff)) return undefined;
  if (
    handoff.mode === 'call' &&
    isJsonObject(handoff.stdin) &&
    isJsonObject(handoff.fields) &&
    typeof handoff.calledAt === 'number'
  ) {
    return handoff as FrontHandoff;
  }
  if (
    handoff.mode === 'serve' &&
    typeof handoff.folder === 'string' &&
    typeof handoff.mailbox === 'string' &&
    typeof handoff.key === 'string'
  ) {
    // A front of another runtime version speaks another mailbox: this body does not serve it.
    return handoff.protocol === mailboxProtocol.version ? (handoff as FrontHandoff) : { mode: 'foreign' };
  }
  return undefined;
}
