import type { PrismaClient } from '../../infra/db/database.js';
import { isUuid } from '../../infra/db/prisma-errors.js';

export const SANDBOX_INTEGRATION = 'CHAT-SANDBOX';

/**
 * What the simulated network knows of its phones and codes, read from the gateway's database (the
 * network's state is the instances' rows, so every node sees the same network). Only instances of
 * the sandbox engine are on it.
 */
export function createSandboxDirectory(prisma: PrismaClient) {
  const onSandbox = { engine: SANDBOX_INTEGRATION } as const;
  return {
    /** The connected instance linked to this phone (+digits), the most recently connected first. */
    async connectedByPhone(phone: string) {
      return prisma.instance.findFirst({ where: { ...onSandbox, phone, state: 'connected' }, orderBy: { lastConnection: 'desc' }, select: { id: true } });
    },
    /**
     * Where a message to this phone goes: its connected instance, else whether one is linked but offline
     * (dropped or reconnecting; not logged out, banned or deleted). One read, so a reconnect between two
     * reads cannot make a linked phone look unknown.
     */
    async reachByPhone(phone: string): Promise<{ connected: { id: string } | null; offline: boolean }> {
      const linked = await prisma.instance.findMany({
        where: { ...onSandbox, phone, state: { in: ['connected', 'disconnected', 'connecting'] } },
        orderBy: { lastConnection: 'desc' },
        select: { id: true, state: true },
      });
      const connected = linked.find((instance) => instance.state === 'connected');
      return { connected: connected ? { id: connected.id } : null, offline: linked.length > 0 };
    },
    /** Marks a live, unused QR code used: its instance, or null when the code is unknown, used or expired. */
    async useQr(code: string, now: Date) {
      const { count } = await prisma.qrCode.updateMany({ where: { code, usedAt: null, expiresAt: { gt: now }, instance: onSandbox }, data: { usedAt: now } });
      if (count !== 1) return null;
      return (await prisma.qrCode.findUnique({ where: { code }, select: { instanceId: true } }))?.instanceId ?? null;
    },
    /** The instance a registered, unexpired pairing code belongs to, with the phone it was asked for. */
    async pairingCode(code: string, now: Date) {
      return prisma.instance.findFirst({
        where: { ...onSandbox, pairingCode: code, pairingCodeExpiresAt: { gt: now } },
        select: { id: true, pairingPhone: true },
      });
    },
    /**
     * A message of a sandbox instance, named by the gateway's id (the sandbox's phones know messages by
     * it), with the id the network gave it: null when it is not one of the sandbox's.
     */
    async messageOnNetwork(messageId: string) {
      if (!isUuid(messageId)) return null;
      const message = await prisma.message.findUnique({ where: { id: messageId }, select: { instanceId: true, networkMessageId: true, instance: { select: { engine: true } } } });
      if (!message?.instanceId || !message.networkMessageId || message.instance?.engine !== SANDBOX_INTEGRATION) return null;
      return { instanceId: message.instanceId, networkMessageId: message.networkMessageId };
    },
    /**
     * Of these phones (digits), the ones with an account on the sandbox network: the phones a live
     * pairing knows (connected, or offline but still paired), and every phone the network has handed
     * a message to, so a number an instance has been writing to is never reported missing.
     */
    async registered(phones: string[]): Promise<Set<string>> {
      const [paired, reached] = await Promise.all([
        prisma.instance.findMany({
          where: { ...onSandbox, phone: { in: phones.map((phone) => `+${phone}`) }, state: { in: ['connected', 'disconnected', 'connecting'] } },
          select: { phone: true },
        }),
        prisma.sandboxHandoff.findMany({ where: { to: { in: phones } }, distinct: ['to'], select: { to: true } }),
      ]);
      return new Set([...paired.map((row) => row.phone!.slice(1)), ...reached.map((row) => row.to)]);
    },
    /** A message a phone sent to a sandbox instance, named by the gateway's id: who sent it, to which instance, under which network id. */
    async receivedFromPhone(messageId: string) {
      if (!isUuid(messageId)) return null;
      const message = await prisma.message.findUnique({
        where: { id: messageId },
        select: { instanceId: true, networkMessageId: true, direction: true, from: true, instance: { select: { engine: true, phone: true } } },
      });
      if (!message?.instanceId || !message.networkMessageId || message.direction !== 'in' || message.instance?.engine !== SANDBOX_INTEGRATION) return null;
      return { instanceId: message.instanceId, networkMessageId: message.networkMessageId, from: message.from, instancePhone: message.instance.phone };
    },
    /** The connected instances linked to these phones (digits): the devices the network tells of a group's changes. */
    async connectedOn(phones: string[]): Promise<string[]> {
      if (phones.length === 0) return [];
      const rows = await prisma.instance.findMany({ where: { ...onSandbox, phone: { in: phones.map((phone) => `+${phone}`) }, state: 'connected' }, select: { id: true } });
      return rows.map((row) => row.id);
    },
    /** The phone (digits) a sandbox instance is linked to; null when it has none. */
    async phoneOf(instanceId: string): Promise<string | null> {
      if (!isUuid(instanceId)) return null;
      const row = await prisma.instance.findFirst({ where: { ...onSandbox, id: instanceId }, select: { phone: true } });
      return row?.phone?.slice(1) ?? null;
    },
    /** A message a phone (digits) received from a sandbox instance, named by the gateway's id: its kind, its poll, the instance and its phone. */
    async receivedByPhone(messageId: string, phone: string) {
      if (!isUuid(messageId)) return null;
      const handed = await prisma.sandboxHandoff.findFirst({ where: { messageId, to: phone }, select: { instanceId: true, type: true, content: true, group: true } });
      if (!handed) return null;
      const instance = await prisma.instance.findFirst({ where: { ...onSandbox, id: handed.instanceId }, select: { phone: true } });
      if (!instance) return null;
      const poll = (handed.content as { poll?: { name: string; options: string[]; selectableCount: number } } | null)?.poll ?? null;
      return { instanceId: handed.instanceId, instancePhone: instance.phone, type: handed.type, poll, group: handed.group };
    },
    /** Whether this phone (digits) ever wrote to the instance (then it has an account on the network). */
    async wroteTo(instanceId: string, phone: string): Promise<boolean> {
      if (!isUuid(instanceId)) return false;
      return (await prisma.message.findFirst({ where: { instanceId, direction: 'in', from: phone }, select: { id: true } })) !== null;
    },
    /** Whether the instance exists and runs on the sandbox (the control API acts on no other). */
    async isSandboxInstance(instanceId: string) {
      return isUuid(instanceId) && (await prisma.instance.count({ where: { ...onSandbox, id: instanceId } })) === 1;
    },
  };
}

export type SandboxDirectory = ReturnType<typeof createSandboxDirectory>;
