// The verdict server's mailbox, named once for both sides: the front (bundle-loader.ts, which gets
// these as data) and the server (verdict-server.ts). A request, or a front's handoff, of another
// version is not this runtime's: the server does not judge it and the call answers in process.

/** The mailbox's version and the names of its files. */
export const mailboxProtocol = {
  version: 3, // 2: only named variables, and an expiry; 3: the call's time (issue 23)
  claim: 'server', // in the mailbox: the pid of the server that serves it, made by an exclusive link
  work: 'work', // in the mailbox: everything of a call's but its request
  request: '.req', // `<id>.req` in the mailbox: a call waiting to be taken (the only name that wakes the server)
  writing: '.tmp', // `work/<id>.tmp`: a request being written, renamed to `<id>.req` once whole
  taken: '.taken', // `work/<id>.taken`: a request the server took (its rename)
  withdrawn: '.gone', // `work/<id>.gone`: a request its call took back (its rename)
  part: '.part', // `work/<id>.part`: a reply being written
  reply: '.reply', // `work/<id>.reply`: the reply, renamed in whole
} as const;

/** The mailbox protocol's names, as the front takes them. */
export type MailboxProtocol = typeof mailboxProtocol;
