/** The marker a call leaves while the server it started is on its way; the server removes it once it serves. */
export const startingMarkerOf = (mailbox: string): string => `${mailbox}.starting`;
