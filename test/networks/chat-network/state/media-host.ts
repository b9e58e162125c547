import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from 'pino';
import { generate } from 'selfsigned';

/** An encrypted media file on the host, as a client uploaded it (or a phone did). */
interface MediaBlob {
  bytes: Buffer;
  expired: boolean;
}

/** The largest upload the host takes (the real limit is larger, but tests never need it). */
const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();

/** Base64url without padding: how clients put a file's hash into the upload URL. */
const uploadToken = (hash: Buffer) => hash.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

async function issueTlsCertificate() {
  const ca = await generate([{ name: 'commonName', value: 'Chat Network Test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { caPem: ca.cert, key: leaf.private, cert: leaf.cert };
}

/**
 * The media host (`mmg`): clients upload encrypted files to `/mms/<type>/<hash>` over HTTPS (the
 * scheme is fixed in the client) and download them again from the direct path the upload answered.
 */
export class MediaHost {
  /** The token `media_conn` hands out; uploads must carry it. */
  readonly auth = randomBytes(24).toString('base64url');
  private readonly blobs = new Map<string, MediaBlob>();
  /** Who connected, in order: the address of each TCP connection accepted. */
  readonly peers: Array<{ address: string; at: Date }> = [];

  private constructor(
    private readonly server: Server,
    readonly caPem: string,
    /** The host's TLS key and certificate (for 127.0.0.1 and localhost), signed by the CA clients trust. */
    readonly tls: { key: string; cert: string },
    private readonly logger: Logger,
  ) {}

  static async start(host: string, logger: Logger): Promise<MediaHost> {
    const tls = await issueTlsCertificate();
    let media: MediaHost | undefined;
    const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => media!.handle(req, res));
    media = new MediaHost(server, tls.caPem, { key: tls.key, cert: tls.cert }, logger);
    server.on('connection', (socket: Socket) => media!.peers.push({ address: socket.remoteAddress ?? '', at: new Date() }));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
    });
    return media;
  }

  /** `host:port`, what `media_conn` names and URLs are built on. */
  get hostname(): string {
    const { address, port } = this.server.address() as AddressInfo;
    return `${address.includes(':') ? `[${address}]` : address}:${port}`;
  }

  /** Stores an encrypted file; returns where it can be downloaded. */
  put(encrypted: Buffer): { directPath: string; url: string } {
    const name = `${randomBytes(8).readBigUInt64BE()}_${randomBytes(8).readBigUInt64BE()}_n.enc`;
    const pathname = `/v/t62.7118-24/${name}`;
    const expires = (Math.floor(Date.now() / 1000) + 30 * 24 * 3600).toString(16).toUpperCase();
    const directPath = `${pathname}?ccb=11-4&oh=01_${randomBytes(16).toString('base64url')}&oe=${expires}&_nc_sid=5e03e0`;
    this.blobs.set(pathname, { bytes: encrypted, expired: false });
    return { directPath, url: `https://${this.hostname}${directPath}&mms3=true` };
  }

  /** The stored file behind a URL or direct path (expired ones included). */
  get(urlOrPath: string): Buffer | undefined {
    return this.blobs.get(this.pathnameOf(urlOrPath))?.bytes;
  }

  isExpired(urlOrPath: string): boolean {
    return this.blobs.get(this.pathnameOf(urlOrPath))?.expired ?? false;
  }

  /** From now on the host answers 410 Gone for this file, as for media past its retention. */
  expire(urlOrPath: string): boolean {
    const blob = this.blobs.get(this.pathnameOf(urlOrPath));
    if (!blob) return false;
    blob.expired = true;
    return true;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private pathnameOf(urlOrPath: string): string {
    try {
      return new URL(urlOrPath, 'https://media.invalid').pathname;
    } catch {
      return urlOrPath;
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'https://media.invalid');
    if (req.method === 'POST' && url.pathname.startsWith('/mms/')) {
      this.upload(req, res, url).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'media upload failed');
        if (!res.headersSent) this.json(res, 500, { error: 'upload failed' });
      });
      return;
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && url.pathname.startsWith('/v/')) {
      this.download(req, res, url.pathname);
      return;
    }
    this.json(res, 404, { error: 'not found' });
  }

  private async upload(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (url.searchParams.get('auth') !== this.auth) {
      req.resume();
      this.json(res, 401, { error: 'bad auth' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_UPLOAD_BYTES) {
        this.json(res, 413, { error: 'too large' });
        req.destroy();
        return;
      }
      chunks.push(chunk);
    }
    const body = Buffer.concat(chunks);
    // The client names the file by the hash of its encrypted bytes; a mismatch means a broken upload.
    if (uploadToken(sha256(body)) !== url.searchParams.get('token')) {
      this.json(res, 400, { error: 'hash mismatch' });
      return;
    }
    const { directPath, url: mediaUrl } = this.put(body);
    this.json(res, 200, { url: mediaUrl, direct_path: directPath, handle: null });
  }

  private download(req: IncomingMessage, res: ServerResponse, pathname: string) {
    const blob = this.blobs.get(pathname);
    if (!blob) return this.json(res, 404, { error: 'not found' });
    if (blob.expired) return this.json(res, 410, { error: 'gone' });
    let body = blob.bytes;
    let status = 200;
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
      res.setHeader('content-range', `bytes ${start}-${end}/${body.length}`);
      body = body.subarray(start, end + 1);
      status = 206;
    }
    res.writeHead(status, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}
