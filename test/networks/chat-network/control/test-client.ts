import { Agent } from 'node:https';
import { Writable } from 'node:stream';
import makeWASocket, {
  BufferJSON,
  initAuthCreds,
  proto,
  WA_CERT_DETAILS,
  type AuthenticationCreds,
  type BaileysEventMap,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
  type UserFacingSocketConfig,
  type WASocket,
} from 'baileys';
import pino from 'pino';
import type { ChatNetwork } from '../api.js';

/**
 * What tests (the network's, and the gateway's) need to drive a real client against the network:
 * an in-memory auth state that survives a JSON round trip, the trust setup, and a socket whose
 * events can be awaited as conditions.
 */

type KeyData = { [T in keyof SignalDataTypeMap]?: Record<string, SignalDataTypeMap[T]> };

export interface MemoryAuth {
  creds: AuthenticationCreds;
  keys: SignalKeyStore;
  data: KeyData;
  /** The whole state as JSON (Buffers kept), as a store would persist it. */
  snapshot(): string;
}

export function memoryAuth(snapshot?: string): MemoryAuth {
  const restored = snapshot ? (JSON.parse(snapshot, BufferJSON.reviver) as { creds: AuthenticationCreds; data: KeyData }) : undefined;
  const creds = restored?.creds ?? initAuthCreds();
  const data: KeyData = restored?.data ?? {};
  const keys: SignalKeyStore = {
    get: <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
      const stored = (data[type] ?? {}) as Record<string, SignalDataTypeMap[T]>;
      const found: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const id of ids) if (stored[id] != null) found[id] = stored[id];
      return found;
    },
    set: (sets: SignalDataSet) => {
      for (const [type, values] of Object.entries(sets) as [keyof SignalDataTypeMap, Record<string, unknown>][]) {
        const stored = ((data as Record<string, Record<string, unknown>>)[type] ??= {});
        for (const [id, value] of Object.entries(values ?? {})) {
          if (value == null) delete stored[id];
          else stored[id] = value;
        }
      }
    },
  };
  return { creds, keys, data, snapshot: () => JSON.stringify({ creds, data }, BufferJSON.replacer) };
}

/** Clients check the server's certificate chain against one process-wide root key: make it the network's. */
export function trustNetwork(network: Pick<ChatNetwork, 'rootKey'>): void {
  WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(network.rootKey, 'base64');
}

export interface LogRecord {
  level: number;
  msg?: string;
  [key: string]: unknown;
}

/** A pino logger that keeps what the client logs at `level` and above, to check none of it is an error. */
export function recordingLogger(level: pino.Level = 'warn') {
  const records: LogRecord[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) records.push(JSON.parse(line) as LogRecord);
      done();
    },
  });
  const logger = pino({ level }, stream);
  return { logger, records, errors: () => records.filter((record) => record.level >= 50) };
}

type EventName = keyof BaileysEventMap;

export interface TestClient {
  sock: WASocket;
  auth: MemoryAuth;
  /** Every event the socket emitted, in order. */
  events: { name: EventName; data: unknown; at: number }[];
  /** Resolves with the first payload of `name` (already emitted since `since`, or later) that `match` accepts. */
  waitFor<E extends EventName>(name: E, match?: (data: BaileysEventMap[E]) => boolean, timeoutMs?: number, since?: number): Promise<BaileysEventMap[E]>;
  /** Resolves with the probe's first truthy value, re-checked after every event. */
  until<T>(probe: () => T | undefined | null | false, timeoutMs?: number, what?: string): Promise<T>;
  /** The delivery status a sent message reached, from upserts and updates alike (the client merges them). */
  statusOf(id: string): number;
  /** Group receipts for a sent message, from receipt updates and from upserts they were folded into. */
  receiptsOf(id: string): proto.IUserReceipt[];
  /** The status code the connection closed with (`lastDisconnect.error.output.statusCode`). */
  closed: Promise<number | undefined>;
  end(): Promise<void>;
}

const RECORDED: EventName[] = [
  'connection.update',
  'creds.update',
  'messages.upsert',
  'messages.update',
  'message-receipt.update',
  'messages.reaction',
  'contacts.update',
  'contacts.upsert',
  'presence.update',
  'groups.upsert',
  'groups.update',
  'group-participants.update',
  'chats.upsert',
  'lid-mapping.update',
  'call',
];

export interface ClientOptions extends Partial<UserFacingSocketConfig> {
  logger?: pino.Logger;
}

/** A real client socket against the network, with the options a gateway runs it with. */
export function connectClient(network: ChatNetwork, auth: MemoryAuth, options: ClientOptions = {}): TestClient {
  const events: TestClient['events'] = [];
  const waiters = new Set<() => void>();
  const sock = makeWASocket({
    auth: { creds: auth.creds, keys: auth.keys },
    logger: options.logger ?? pino({ level: 'silent' }),
    waWebSocketUrl: network.url,
    markOnlineOnConnect: false,
    syncFullHistory: false,
    shouldSyncHistoryMessage: () => false,
    fetchAgent: new Agent({ ca: network.caPem }),
    ...options,
  });
  sock.ev.on('creds.update', (update) => Object.assign(auth.creds, update));
  for (const name of RECORDED) {
    sock.ev.on(name, (data: unknown) => {
      events.push({ name, data, at: Date.now() });
      for (const waiter of [...waiters]) waiter();
    });
  }
  const closed = new Promise<number | undefined>((resolve) => {
    sock.ev.on('connection.update', ({ connection, lastDisconnect }) => {
      if (connection !== 'close') return;
      const error = lastDisconnect?.error as { output?: { statusCode?: number } } | undefined;
      resolve(error?.output?.statusCode);
    });
  });
  const waitFor: TestClient['waitFor'] = (name, match, timeoutMs = 15_000, since = 0) =>
    new Promise((resolve, reject) => {
      let seen = since;
      const check = () => {
        for (; seen < events.length; seen++) {
          const event = events[seen]!;
          if (event.name === name && (!match || match(event.data as never))) {
            cleanup();
            resolve(event.data as never);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${name}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  const until: TestClient['until'] = (probe, timeoutMs = 15_000, what = 'a condition') =>
    new Promise((resolve, reject) => {
      const check = () => {
        const value = probe();
        if (!value) return;
        cleanup();
        resolve(value);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  const statusOf = (id: string) => {
    let status = 0;
    const numeric = (value: unknown) =>
      typeof value === 'string' ? (proto.WebMessageInfo.Status[value as keyof typeof proto.WebMessageInfo.Status] ?? 0) : Number(value ?? 0);
    for (const { name, data } of events) {
      if (name === 'messages.upsert') {
        for (const message of (data as BaileysEventMap['messages.upsert']).messages) {
          if (message.key.id === id) status = Math.max(status, numeric(message.status));
        }
      } else if (name === 'messages.update') {
        for (const { key, update } of data as BaileysEventMap['messages.update']) {
          if (key.id === id) status = Math.max(status, numeric(update.status));
        }
      }
    }
    return status;
  };
  const receiptsOf = (id: string) => {
    const receipts: proto.IUserReceipt[] = [];
    for (const { name, data } of events) {
      if (name === 'message-receipt.update') {
        for (const { key, receipt } of data as BaileysEventMap['message-receipt.update']) if (key.id === id) receipts.push(receipt);
      } else if (name === 'messages.upsert') {
        for (const message of (data as BaileysEventMap['messages.upsert']).messages) {
          if (message.key.id === id) receipts.push(...(message.userReceipt ?? []));
        }
      }
    }
    return receipts;
  };
  return {
    sock,
    auth,
    events,
    waitFor,
    until,
    statusOf,
    receiptsOf,
    closed,
    end: async () => {
      await sock.end(undefined);
      await closed;
    },
  };
}

/**
 * Pairs a fresh client with `phone` by QR and lets it restart (515) into a logged-in session, as a
 * gateway does; resolves with the open session and the auth it now holds.
 */
export async function pairByQr(network: ChatNetwork, phone: string, options: ClientOptions = {}): Promise<TestClient> {
  const auth = memoryAuth();
  const registering = connectClient(network, auth, options);
  const { qr } = await registering.waitFor('connection.update', (update) => !!update.qr);
  await network.scan(qr!, phone);
  const code = await registering.closed;
  if (code !== 515) throw new Error(`expected a restart (515) after pairing, got ${code}`);
  const client = connectClient(network, auth, options);
  await client.waitFor('connection.update', (update) => update.connection === 'open');
  return client;
}
