/** The live network's default media host: its direct paths are served there whatever else it announces. */
export const DEFAULT_MEDIA_HOST = 'mmg.whatsapp.net';

/** A host name or IP literal, with an optional port: what a media connection answer may name. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The announced hosts that are host names (or `host:port`), lower-cased, each once. */
export function validHosts(hosts: ReadonlyArray<string | undefined | null>): string[] {
  return [...new Set(hosts.filter((host): host is string => typeof host === 'string' && HOST.test(host)).map((host) => host.toLowerCase()))];
}

/**
 * Where this node may fetch received files: the hosts the network announced for media (its media
 * connection info, asked over the authenticated connection), and the live network's default host.
 * Against a local network (CHAT_NETWORK_URL) there is no default: only what that network announced.
 */
export class MediaHosts {
  private announced: string[] = [];

  constructor(private readonly defaultHost: string | null) {}

  /** What a connection of this node last heard from the network. */
  learn(hosts: ReadonlyArray<string | undefined | null>): string[] {
    const valid = validHosts(hosts);
    if (valid.length) this.announced = valid;
    return valid;
  }

  /** The hosts to try for one file, in order: those announced when it arrived, those announced since, the default. */
  forFile(atArrival: ReadonlyArray<string> | undefined): string[] {
    return validHosts([...(atArrival ?? []), ...this.announced, this.defaultHost]);
  }
}
