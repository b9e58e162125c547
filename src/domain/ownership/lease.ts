/**
 * The right to act for an instance: one node holds it at a time and its token grows on every takeover;
 * the owner's writes and hand-offs check it, so a node that lost it (paused, cut off) cannot act.
 */
export interface Lease {
  instanceId: string;
  node: string;
  /** The fencing token, as decimal text (it is a 64-bit integer in the database). */
  token: string;
}

/** A write or a hand-off refused because the lease it was made under is no longer the current one. */
export class LeaseLost extends Error {
  constructor(readonly instanceId: string) {
    super(`this node no longer owns instance ${instanceId}`);
  }
}
