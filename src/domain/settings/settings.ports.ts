/** A proxy as kept for an instance: its URL (with credentials) and what its last check found. */
export interface StoredProxy {
  url: string;
  exitAddress: string | null;
  checkedAt: Date | null;
}

/**
 * Where instances' proxies are kept: sealed at rest like engine state, bound to their instance, read
 * by whichever node owns it (so the proxy moves with a takeover).
 */
export interface ProxyVault {
  read(instanceId: string): Promise<StoredProxy | null>;
  save(instanceId: string, proxy: StoredProxy | null): Promise<void>;
}

/** Checks a proxy before it is kept: the address the outside world sees through it, or a ProxyCheckFailed. */
export interface ProxyProbe {
  exitAddress(url: string): Promise<string>;
}

export class ProxyCheckFailed extends Error {}
