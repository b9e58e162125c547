import type { SandboxReports } from './reports.js';

/** Push names remembered before the memory is cleared: enough for the phones a node hears from. */
const REMEMBERED = 10_000;

/**
 * The names phones give themselves as they write, told to the instance as contacts: a name is told
 * when it is new to this node for that instance and phone, so a chatty phone costs one report.
 */
export function createPushNames(reports: SandboxReports) {
  const told = new Map<string, string>();
  return {
    heard(instanceId: string, phone: string, pushName: string) {
      const key = `${instanceId}:${phone}`;
      if (told.get(key) === pushName) return;
      if (told.size >= REMEMBERED) told.clear();
      told.set(key, pushName);
      reports.later(0, () => reports.events.contacts(instanceId, [{ phone, pushName }]));
    },
  };
}
