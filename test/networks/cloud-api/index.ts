// A local server of the chat network's business HTTP API (the "Cloud API"), following the contract in the
// project's notes, so the gateway's Cloud API engine can be tested end to end without the network.
// `startCloudApi()` runs it in-process; `cli.ts` runs it for trying the gateway by hand.
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { CloudApi } from './api.js';
import { createControl } from './control.js';
import { webhookError } from './errors.js';
import { inboundItem } from './inbound.js';
import { MediaStore } from './media.js';
import { MessagesEndpoint, type ReadMark } from './messages-endpoint.js';
import { Numbers } from './numbers.js';
import { createCloudApiServer } from './server.js';
import { StatusReporter } from './statuses.js';
import { PairLimiter, Throughput, peakPerSecond } from './throughput.js';
import { toWaId } from './validate-send.js';
import { Changes } from './wait.js';
import { verifyCallback } from './webhook-verify.js';
import { WebhookSender } from './webhooks-out.js';
import { ServiceWindows } from './window.js';
import type { CloudApiOptions, InboundMessage, ReceivedSend, RequestRecord } from './types.js';

export type * from './types.js';
export type { CloudApi } from './api.js';
export type { VerifyResult } from './webhook-verify.js';
export type { ReadMark } from './messages-endpoint.js';
export { serialize, signature256 } from './webhook-bytes.js';
export { peakPerSecond } from './throughput.js';

const DEFAULT_WAIT_MS = 10_000;


export async function startCloudApi(options: CloudApiOptions = {}): Promise<CloudApi> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const changes = new Changes();
  const numbers = new Numbers();
  const windows = new ServiceWindows(options.windowMs ?? 24 * 3600 * 1000);
  const throughput = new Throughput();
  const sends: ReceivedSend[] = [];
  const requestLog: RequestRecord[] = [];
  const reads: ReadMark[] = [];
  let windowMode = options.windowMode ?? 'sync';
  let baseUrl = '';
  let mediaBase: string | null = null;

  const media = new MediaStore(numbers, () => mediaBase ?? baseUrl, options.mediaUrlTtlMs ?? 5 * 60 * 1000, options.mediaFileSizeAsNumber ?? false);
  const webhooks = new WebhookSender({
    numbers,
    changes,
    logger,
    retryDelaysMs: options.webhookRetryDelaysMs?.length ? options.webhookRetryDelaysMs : [200, 1000, 5000, 15000, 60000],
    maxAttempts: options.webhookMaxAttempts ?? Number.POSITIVE_INFINITY,
    timeoutMs: options.webhookTimeoutMs ?? 10_000,
    concurrency: options.webhookConcurrency ?? 1,
    escapeSlashes: options.escapeSlashes ?? false,
  });
  const statuses = new StatusReporter(options.statusDelayMs ?? 25, (event) => webhooks.enqueue(event));
  const messages = new MessagesEndpoint({
    windows,
    throughput,
    pairs: new PairLimiter(options.pairLimit),
    statuses,
    mpsLimit: options.mpsLimit,
    windowMode: () => windowMode,
    onAccepted: (send) => {
      sends.push(send);
      changes.notify();
    },
    onRead: (mark) => {
      reads.push(mark);
      changes.notify();
    },
    mediaOwner: (mediaId) => media.get(mediaId)?.ownerPhoneNumberId,
  });

  const userDigits = (user: string) => {
    const digits = toWaId(user);
    if (!digits) throw new Error(`not a phone number: ${user}`);
    return digits;
  };

  const items = (phoneNumberId: string, list: Array<{ from: string; message: InboundMessage }>) => {
    const number = numbers.require(phoneNumberId);
    const now = Date.now();
    const built = list.map(({ from, message }) => inboundItem(number, from, message, media, { mediaUrlInWebhook: options.mediaUrlInWebhook ?? false, now }));
    for (const { from } of list) {
      windows.open(phoneNumberId, from, now);
      // Inbound messages count towards the number's throughput too (the API's throughput limits); they are never refused.
      throughput.take(phoneNumberId, now);
    }
    return built;
  };

  const filtered = <T>(list: T[], count: number, filter?: (item: T) => boolean) => {
    const matching = filter ? list.filter(filter) : [...list];
    return matching.length >= count ? matching : undefined;
  };

  const api: CloudApi = {
    url: '',
    addNumber: (number) => void numbers.add(number),
    expireToken: (id) => numbers.expireToken(id),
    replaceToken: (id, token) => numbers.replaceToken(id, token),
    businessProfile: (id, change) => {
      const number = numbers.require(id);
      Object.assign(number.profile, change);
      return { ...number.profile };
    },
    setWebhook: (url, verifyToken) => webhooks.setTarget(url, verifyToken),
    verifyWebhook: async (verifyToken) => {
      const url = webhooks.url;
      if (!url) throw new Error('no webhook URL set');
      const token = verifyToken ?? webhooks.verifyToken;
      if (token === undefined) throw new Error('no verify token given or set');
      return verifyCallback(url, token, options.webhookTimeoutMs ?? 10_000);
    },
    sent: (phoneNumberId) => (phoneNumberId === undefined ? [...sends] : sends.filter((s) => s.phoneNumberId === phoneNumberId)),
    requests: () => [...requestLog],
    waitForRequests: (count, filter, timeoutMs = DEFAULT_WAIT_MS) =>
      changes.until(() => filtered(requestLog, count, filter), timeoutMs, () => `${requestLog.length} requests so far, waiting for ${count}`),
    readMarks: () => [...reads],
    uploaded: (mediaId) => {
      const stored = media.get(mediaId);
      return stored && { phoneNumberId: stored.ownerPhoneNumberId, mimeType: stored.mimeType, bytes: stored.bytes };
    },
    waitForSent: (count, filter, timeoutMs = DEFAULT_WAIT_MS) =>
      changes.until(() => filtered(sends, count, filter), timeoutMs, () => `${sends.length} sends so far, waiting for ${count}`),
    peakPerSecond: (phoneNumberId) => peakPerSecond(api.sent(phoneNumberId).map((s) => s.at)),
    failNext: (phoneNumberId, error) => {
      numbers.require(phoneNumberId);
      messages.failNext(phoneNumberId, error);
    },
    statusScript: (phoneNumberId, script, scriptOptions) => {
      numbers.require(phoneNumberId);
      statuses.setScript(phoneNumberId, script, scriptOptions?.to === undefined ? undefined : userDigits(scriptOptions.to));
    },
    customerMessage: async (phoneNumberId, from, message) => {
      const [item] = items(phoneNumberId, [{ from, message }]);
      if (!item) throw new Error('no message built');
      webhooks.enqueue({ phoneNumberId, kind: 'messages', message: item.message, contact: item.contact });
      return item.wamid;
    },
    customerMessages: async (phoneNumberId, list) => {
      if (list.length === 0) throw new Error('no messages given');
      const built = items(phoneNumberId, list);
      webhooks.post(built.map((item) => ({ phoneNumberId, kind: 'messages' as const, message: item.message, contact: item.contact })));
      return built.map((item) => item.wamid);
    },
    batchNext: (count, windowMs) => webhooks.batchNext(count, windowMs),
    reportError: (phoneNumberId, code) => {
      numbers.require(phoneNumberId);
      webhooks.enqueue({ phoneNumberId, kind: 'errors', error: webhookError(code) });
    },
    openWindow: (phoneNumberId, user, at) => {
      numbers.require(phoneNumberId);
      windows.open(phoneNumberId, userDigits(user), at);
    },
    closeWindow: (phoneNumberId, user) => windows.close(phoneNumberId, userDigits(user)),
    setWindowMode: (mode) => {
      if (mode !== 'sync' && mode !== 'async') throw new Error('window mode is sync or async');
      windowMode = mode;
    },
    deliveries: () => webhooks.attempts(),
    pendingWebhooks: () => webhooks.pending(),
    waitForDeliveries: (count, filter, timeoutMs = DEFAULT_WAIT_MS) =>
      changes.until(() => filtered(webhooks.attempts(), count, filter), timeoutMs, () => `${webhooks.attempts().length} attempts so far, waiting for ${count}`),
    waitForWebhooksIdle: async (timeoutMs = DEFAULT_WAIT_MS) => {
      const idle = () => webhooks.pending() === 0 && webhooks.batched() === 0 && statuses.scheduled() === 0;
      await changes.until(() => (idle() ? true : undefined), timeoutMs, () =>
        `${webhooks.pending()} deliveries pending, ${webhooks.batched()} events batched, ${statuses.scheduled()} statuses scheduled`,
      );
    },
    redeliver: (deliveryId) => webhooks.redeliver(deliveryId),
    setMediaDownloadBase: (url) => {
      mediaBase = url;
    },
    close: async () => {
      statuses.close();
      await webhooks.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const server = createCloudApiServer({
    numbers,
    media,
    messages,
    version: options.version,
    logger,
    control: createControl(api, { summary: () => webhooks.summary(), numbers: () => numbers.list(), webhook: () => ({ url: webhooks.url ?? null, verifyToken: webhooks.verifyToken ?? null }) }),
    record: (entry) => {
      requestLog.push(entry);
      changes.notify();
    },
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  baseUrl = `http://${shownHost}:${port}`;
  api.url = baseUrl;
  logger.info({ url: baseUrl }, 'cloud api listening');
  return api;
}
