/** An outbound message as an engine carries it. */
export interface EngineMessage {
  messageId: string;
  to: string;
  type: 'text' | 'image' | 'video' | 'audio' | 'document';
  text: string | null;
  mediaUrl: string | null;
  caption: string | null;
}

/**
 * What the domain asks of a chat network. Engines report back through EngineEvents; a real engine
 * can be added without touching the domain.
 */
export interface ChatEngine {
  /** Shown as `integration`, e.g. CHAT-SANDBOX. */
  readonly integration: string;
  /** The network domain of chat ids, as in `<digits>@<domain>` (session webhooks' remoteJid). */
  readonly jidDomain: string;
  /** The text of a new, unguessable pairing code for the instance's QR image. */
  newPairingCode(instanceId: string): Promise<string>;
  send(instance: { id: string; phone: string }, message: EngineMessage): Promise<void>;
  logout(instanceId: string): Promise<void>;
}

export interface InboundMessage {
  from: string;
  type: 'text' | 'image' | 'location';
  text: string | null;
  location: { name?: string; latitude?: number; longitude?: number } | null;
  pushName: string | null;
}

/** What an engine reports; the domain turns each report into state changes and events. */
export interface EngineEvents {
  /** The phone scanned a pairing code. */
  scanned(code: string, phone: string): Promise<{ instanceId: string }>;
  dropped(instanceId: string): Promise<void>;
  reconnected(instanceId: string): Promise<void>;
  banned(instanceId: string): Promise<void>;
  /**
   * A message to an instance's phone. While the phone's linked instance is offline but still paired
   * (dropped, reconnecting, disconnected by the network) the answer is `held`: the network keeps the
   * message and reports it again once the instance is connected.
   */
  inbound(instancePhone: string, message: InboundMessage): Promise<{ messageId: string } | { held: true }>;
  receipt(messageId: string, status: 'delivered' | 'read'): Promise<void>;
  deleted(messageId: string, deletedBy: string, forEveryone: boolean): Promise<void>;
}
