import type { Actor } from '../actor.js';
import { NotFound, NotSupported, ProxyUnreachable } from '../errors.js';
import { historySyncOf } from '../conversations/history-sync.js';
import { type MediaPolicy, mediaPolicyOf } from '../media/keep-policy.js';
import type { Capability } from '../network/capabilities.js';
import type { InstancePatch, InstanceRecord, InstanceStore } from '../instances/instances.ports.js';
import type { InstancesService } from '../instances/instances.service.js';
import type { Ownership } from '../ownership/ownership.js';
import type { Clock } from '../ports.js';
import { parseInput } from '../validation.js';
import { DEFAULT_SETTINGS, type InstanceSettings, type StoredSettings, storedSettingsOf } from './instance-settings.js';
import { proxyUrlShown } from './proxy-url.js';
import { capabilitiesNeeded, settingsInput } from './settings.input.js';
import { ProxyCheckFailed, type ProxyProbe, type ProxyVault, type StoredProxy } from './settings.ports.js';

export type SettingsService = ReturnType<typeof createSettingsService>;

/** An instance's settings, read and changed as one object (docs/settings.md). */
export function createSettingsService(deps: {
  instances: Pick<InstancesService, 'ownedInstance'>;
  store: Pick<InstanceStore, 'change'>;
  capabilitiesOf: (integration: string) => readonly Capability[];
  proxies: ProxyVault;
  probe: ProxyProbe;
  ownership: Pick<Ownership, 'notify'>;
  clock: Clock;
  mediaDefault?: MediaPolicy;
}) {
  function present(instance: InstanceRecord, proxy: StoredProxy | null): InstanceSettings {
    return {
      ...storedSettingsOf(instance),
      historySync: historySyncOf(instance),
      media: mediaPolicyOf(instance, deps.mediaDefault),
      proxy: proxy && { url: proxyUrlShown(proxy.url), exitAddress: proxy.exitAddress, checkedAt: proxy.checkedAt?.toISOString() ?? null },
    };
  }

  /** Tries the proxy before keeping it: a proxy that cannot reach out is refused and nothing changes. */
  async function checked(url: string): Promise<StoredProxy> {
    try {
      return { url, exitAddress: await deps.probe.exitAddress(url), checkedAt: deps.clock.now() };
    } catch (error) {
      if (error instanceof ProxyCheckFailed) throw new ProxyUnreachable(`proxy: ${proxyUrlShown(url)} could not be used (${error.message}); nothing was changed.`);
      throw error;
    }
  }

  return {
    async get(actor: Actor, instanceId: string): Promise<InstanceSettings> {
      const instance = await deps.instances.ownedInstance(actor, instanceId);
      return present(instance, await deps.proxies.read(instance.id));
    },

    /** Each field given replaces that setting; a setting the engine cannot carry is 422 and nothing changes. */
    async update(actor: Actor, instanceId: string, input: unknown): Promise<InstanceSettings> {
      const instance = await deps.instances.ownedInstance(actor, instanceId);
      const data = parseInput(settingsInput, input);
      const has = deps.capabilitiesOf(instance.engine);
      const missing = capabilitiesNeeded(data).find(({ capability }) => !has.includes(capability));
      if (missing) throw new NotSupported(instance.engine, `${missing.capability} (the setting ${missing.field})`);

      let proxy = data.proxy === undefined ? await deps.proxies.read(instance.id) : null;
      if (data.proxy) proxy = await checked(data.proxy.url);
      const current = storedSettingsOf(instance);
      const settings: StoredSettings = {
        calls: data.calls ? { reject: data.calls.reject, message: data.calls.message ?? null } : current.calls,
        alwaysOnline: data.alwaysOnline ?? current.alwaysOnline,
        autoRead: data.autoRead ?? current.autoRead,
        ignore: data.ignore ? { ...DEFAULT_SETTINGS.ignore, ...data.ignore } : current.ignore,
        sending: data.sending ? { ...DEFAULT_SETTINGS.sending, ...data.sending, newContactsPerHour: data.sending.newContactsPerHour ?? null } : current.sending,
      };
      const patch: InstancePatch = { settings: settings as unknown as InstancePatch['settings'] };
      if (data.historySync !== undefined) patch.historySync = data.historySync ?? null;
      if (data.media !== undefined) patch.mediaPolicy = data.media ?? null;
      if (data.proxy !== undefined) await deps.proxies.save(instance.id, proxy);
      const updated = await deps.store.change(instance.id, patch, []);
      // Deleted meanwhile (the patch names no name, so it is never taken).
      if (!updated || updated === 'name_taken') throw new NotFound('Instance');
      // The running link takes its new terms (settings, proxy) through its owner.
      deps.ownership.notify(instance.id, 'sync');
      return present(updated, proxy);
    },
  };
}
