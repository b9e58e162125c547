import { z } from 'zod';
import type { HistorySyncPolicy } from '../network/engine-history.js';
import type { MediaPolicy } from '../media/keep-policy.js';

/** What the instance does when someone calls its number (docs/settings.md, "Calls"). */
export interface CallSettings {
  reject: boolean;
  /** Sent to the caller after a rejected call; never sent while `reject` is off. */
  message: string | null;
}

/** Which received messages the instance drops before storing or reporting them. */
export interface IgnoreSettings {
  groups: boolean;
  broadcasts: boolean;
  status: boolean;
}

/** How the queue hands messages to the network (docs/settings.md, "Sending"). */
export interface SendingSettings {
  /** At least this long between two messages handed to the network, plus up to `jitterMs` at random. */
  minIntervalMs: number;
  jitterMs: number;
  /** First messages to numbers the instance never wrote to, per hour; null is no limit. */
  newContactsPerHour: number | null;
  /** Show typing before a text, for a time scaled to its length. */
  typing: boolean;
}

/** The settings kept on the instance row's `settings` (the others have columns of their own). */
export interface StoredSettings {
  calls: CallSettings;
  alwaysOnline: boolean;
  autoRead: boolean;
  ignore: IgnoreSettings;
  sending: SendingSettings;
}

/** The proxy as answered: its URL without credentials, and what its last check found. */
export interface ProxyShown {
  url: string;
  exitAddress: string | null;
  checkedAt: string | null;
}

/** Every setting of an instance, as GET …/settings answers it (DESIGN-wide shape, docs/settings.md). */
export interface InstanceSettings extends StoredSettings {
  historySync: HistorySyncPolicy;
  media: MediaPolicy;
  proxy: ProxyShown | null;
}

export const DEFAULT_SETTINGS: StoredSettings = {
  calls: { reject: false, message: null },
  alwaysOnline: false,
  autoRead: false,
  // Status updates are dropped unless asked for: a bot answering every contact's status is rarely meant (docs/settings.md).
  ignore: { groups: false, broadcasts: false, status: true },
  sending: { minIntervalMs: 0, jitterMs: 0, newContactsPerHour: null, typing: false },
};

const flag = z.boolean({ message: 'must be true or false' });
const millis = (max: number) => {
  const rule = `must be a whole number of milliseconds from 0 to ${max}`;
  return z.number({ message: rule }).int(rule).min(0, rule).max(max, rule);
};
const perHourRule = 'must be a whole number from 1 to 10000, or null for no limit';

export const callsInput = z.strictObject({
  reject: flag,
  message: z.string({ message: 'must be a string or null' }).trim().min(1, 'must not be empty (null sends none)').max(1000, 'must be at most 1000 characters').nullish(),
});
export const ignoreInput = z.strictObject({ groups: flag.optional(), broadcasts: flag.optional(), status: flag.optional() });
export const sendingInput = z.strictObject({
  minIntervalMs: millis(600_000).optional(),
  jitterMs: millis(600_000).optional(),
  newContactsPerHour: z.number({ message: perHourRule }).int(perHourRule).min(1, perHourRule).max(10_000, perHourRule).nullish(),
  typing: flag.optional(),
});

/** Reads a stored `settings` value: each part that parses, else its default (a row written by an older gateway). */
export function storedSettingsOf(instance: { settings: unknown }): StoredSettings {
  const stored = (instance.settings ?? {}) as Record<string, unknown>;
  const part = <T>(schema: z.ZodType, value: unknown, fallback: T): T => {
    const parsed = schema.safeParse(value);
    return parsed.success ? ({ ...fallback, ...(parsed.data as object) } as T) : fallback;
  };
  return {
    calls: part(callsInput, stored.calls, DEFAULT_SETTINGS.calls),
    alwaysOnline: stored.alwaysOnline === true,
    autoRead: stored.autoRead === true,
    ignore: part(ignoreInput, stored.ignore, DEFAULT_SETTINGS.ignore),
    sending: part(sendingInput, stored.sending, DEFAULT_SETTINGS.sending),
  };
}
