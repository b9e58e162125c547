import { decodeBinaryNode, encodeBinaryNode, NOISE_WA_HEADER, type BinaryNode, type proto } from 'baileys';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { NoiseCertificate } from './certificates.js';
import { NoiseHandshake, type NoiseTransport } from './noise.js';

/** What a connection tells the network about; the network decides what each stanza means. */
export interface ConnectionHandlers {
  /** The ClientHello arrived: a handshake is now in flight. */
  helloReceived(connection: Connection): void;
  /** The handshake completed: the client's static key and login payload are known. */
  authenticated(connection: Connection, payload: proto.ClientPayload): Promise<void>;
  node(connection: Connection, node: BinaryNode): Promise<void>;
  closed(connection: Connection): void;
}

type Phase = 'intro' | 'hello' | 'finish' | 'open' | 'closing' | 'closed';

/** How long a client gets to close after a stream error or failure before we cut the TCP connection. */
const CLOSE_GRACE_MS = 5_000;
/** A client that has not finished its handshake by then is cut off, as the real network does. */
const HANDSHAKE_TIMEOUT_MS = 20_000;

let nextConnectionId = 1;
const EMPTY = Buffer.alloc(0);

/**
 * One client WebSocket: the intro header, the 3-byte length framing, the Noise handshake and then
 * binary stanzas in order. Kept small (a few fields and one promise chain) because a test may hold a
 * thousand of these open at once.
 */
export class Connection {
  readonly id = nextConnectionId++;
  readonly openedAt = Date.now();
  clientStaticKey?: Buffer;

  private phase: Phase = 'intro';
  private inBytes: Buffer = EMPTY;
  private handshake?: NoiseHandshake;
  private transport?: NoiseTransport;
  private processing: Promise<void> = Promise.resolve();
  /** The handshake deadline, then (after a last stanza) how long the client gets to close. */
  private deadline?: NodeJS.Timeout;
  private handshakeInFlight = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly certificate: NoiseCertificate,
    private readonly handlers: ConnectionHandlers,
    private readonly logger: Logger,
  ) {
    this.deadline = setTimeout(() => this.phase !== 'open' && this.drop(), HANDSHAKE_TIMEOUT_MS);
    this.deadline.unref();
    ws.on('message', (data: Buffer) => this.receive(data));
    ws.on('error', (error) => this.logger.debug({ err: error, connection: this.id }, 'websocket error'));
    ws.on('close', () => this.onClosed());
  }

  get isOpen(): boolean {
    return this.phase === 'open';
  }

  get inHandshake(): boolean {
    return this.handshakeInFlight;
  }

  send(node: BinaryNode): boolean {
    if (this.phase !== 'open' || !this.transport) return false;
    this.sendFrame(this.transport.encrypt(encodeBinaryNode(node)));
    return true;
  }

  /**
   * Sends a last stanza (a stream error, a failure) and lets the client close, as the real network
   * does: closing first would race the stanza, and the client would report a dropped connection
   * instead of the code the stanza carries.
   */
  endWith(node: BinaryNode): void {
    if (this.phase === 'closed' || this.phase === 'closing') return;
    this.send(node);
    this.phase = 'closing';
    this.deadline = setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS);
    this.deadline.unref();
  }

  /** Cuts the TCP connection without a word, as a network outage would. */
  drop(): void {
    this.phase = 'closing';
    this.ws.terminate();
  }

  private receive(data: Buffer) {
    if (this.phase === 'closing' || this.phase === 'closed') return;
    this.inBytes = this.inBytes.length ? Buffer.concat([this.inBytes, data]) : data;
    try {
      if (this.phase === 'intro' && !this.readIntro()) return;
      while (this.inBytes.length >= 3) {
        const size = (this.inBytes[0]! << 16) | (this.inBytes[1]! << 8) | this.inBytes[2]!;
        if (this.inBytes.length < size + 3) return;
        const frame = this.inBytes.subarray(3, size + 3);
        // Let go of the buffer once it is consumed: an idle connection should not hold its last frame.
        this.inBytes = this.inBytes.length === size + 3 ? EMPTY : this.inBytes.subarray(size + 3);
        this.onFrame(frame);
      }
    } catch (error) {
      this.logger.warn({ err: error, connection: this.id }, 'bad frame from client, dropping the connection');
      this.drop();
    }
  }

  /** Strips the intro: the WA header, optionally behind an `ED` edge-routing prefix. Returns false until it is complete. */
  private readIntro(): boolean {
    let offset = 0;
    if (this.inBytes.length >= 2 && this.inBytes.toString('latin1', 0, 2) === 'ED') {
      if (this.inBytes.length < 7) return false;
      offset = 7 + this.inBytes.readUIntBE(4, 3);
    }
    if (this.inBytes.length < offset + NOISE_WA_HEADER.length) return false;
    if (!this.inBytes.subarray(offset, offset + NOISE_WA_HEADER.length).equals(NOISE_WA_HEADER)) {
      throw new Error('unexpected intro header');
    }
    this.inBytes = this.inBytes.subarray(offset + NOISE_WA_HEADER.length);
    this.phase = 'hello';
    return true;
  }

  private onFrame(frame: Buffer) {
    switch (this.phase) {
      case 'hello': {
        this.handshake = new NoiseHandshake(this.certificate);
        const serverHello = this.handshake.answerHello(frame);
        this.handshakeInFlight = true;
        this.handlers.helloReceived(this);
        this.sendFrame(serverHello);
        this.phase = 'finish';
        return;
      }
      case 'finish': {
        const { clientStaticKey, payload, transport } = this.handshake!.finish(frame);
        this.handshake = undefined;
        this.handshakeInFlight = false;
        this.clientStaticKey = clientStaticKey;
        this.transport = transport;
        this.phase = 'open';
        clearTimeout(this.deadline);
        this.enqueue(() => this.handlers.authenticated(this, payload));
        return;
      }
      case 'open': {
        const plaintext = this.transport!.decrypt(frame);
        this.enqueue(async () => {
          const node = await decodeBinaryNode(plaintext);
          if (this.phase === 'open') await this.handlers.node(this, node);
        });
        return;
      }
      default:
        return;
    }
  }

  /** Stanzas are handled one after another, in the order the client sent them. */
  private enqueue(task: () => Promise<void>) {
    this.processing = this.processing.then(task).catch((error: unknown) => {
      this.logger.error({ err: error, connection: this.id }, 'error handling a stanza');
    });
  }

  private sendFrame(data: Uint8Array) {
    const frame = Buffer.allocUnsafe(3 + data.length);
    frame[0] = (data.length >>> 16) & 0xff;
    frame[1] = (data.length >>> 8) & 0xff;
    frame[2] = data.length & 0xff;
    frame.set(data, 3);
    this.ws.send(frame);
  }

  private onClosed() {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    this.handshakeInFlight = false;
    clearTimeout(this.deadline);
    this.handlers.closed(this);
  }
}
