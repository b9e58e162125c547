import type { GroupMetadata } from 'baileys';
import type { NetworkReports } from './inbound.js';

/** Groups remembered per link at most: the oldest seen goes first. */
const CAPACITY = 5_000;

/**
 * The subjects of the groups an instance receives messages from, so that each group message names
 * its group without a query to the network: asked once (the library's group metadata), then kept
 * and changed by the network's own group events (groups.upsert, groups.update).
 */
export class GroupSubjects {
  private readonly known = new Map<string, string>();
  private readonly asking = new Map<string, Promise<string | null>>();

  constructor(private readonly ask: (groupId: string) => Promise<GroupMetadata>) {}

  /** The network told the group's subject (created, joined, renamed). */
  learn(groupId: string, subject: string): void {
    this.known.delete(groupId);
    this.known.set(groupId, subject);
    if (this.known.size > CAPACITY) this.known.delete(this.known.keys().next().value!);
  }

  /** The group's subject: known, or asked of the network once however many messages wait for it; null if it would not say. */
  async of(groupId: string): Promise<string | null> {
    const known = this.known.get(groupId);
    if (known !== undefined) return known;
    let pending = this.asking.get(groupId);
    if (!pending) {
      pending = this.ask(groupId)
        .then((metadata) => {
          this.learn(groupId, metadata.subject);
          return metadata.subject;
        })
        .catch(() => null)
        .finally(() => this.asking.delete(groupId));
      this.asking.set(groupId, pending);
    }
    return pending;
  }

  /** Each group message of the reports with its group's subject. */
  async fill(reports: NetworkReports): Promise<NetworkReports> {
    for (const message of reports.inbound) if (message.group) message.group.subject = await this.of(message.group.id);
    return reports;
  }
}
