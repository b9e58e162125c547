// A local S3-compatible server for the gateway's object store (test/networks/README.md, "S3"): path-style
// buckets, SigV4 checked on every request, S3's XML errors, and a switch that makes it refuse writes.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256Hex, verifySigV4 } from './sigv4.js';

interface StoredObject {
  bytes: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
}

export interface S3Request {
  method: string;
  bucket: string;
  key: string;
  status: number;
}

export interface S3Server {
  url: string;
  region: string;
  /** The gateway's MEDIA_STORE and MEDIA_S3_* for `s3://bucket/prefix` on this server. */
  env(bucket: string, prefix?: string): Record<string, string>;
  /** What a bucket holds (every bucket's when none is named), keys in order. */
  objects(bucket?: string): Array<{ bucket: string; key: string; size: number; contentType: string; bytes: Buffer }>;
  /** Every request answered, oldest first (signature failures too). */
  requests(): S3Request[];
  /** From now on every object write answers 507 XMinioStorageFull, as a full MinIO does; false lets them through again. */
  refuseWrites(on: boolean): void;
  close(): Promise<void>;
}

const xmlEscape = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Starts the server on 127.0.0.1 with the given buckets (empty) and one key pair. Requests signed
 * with another secret, or not at all, are refused as S3 refuses them.
 */
export async function startS3Server(options: { buckets: string[]; accessKey?: string; secretKey?: string; region?: string }): Promise<S3Server> {
  const accessKey = options.accessKey ?? 'gateway-test';
  const secretKey = options.secretKey ?? randomBytes(20).toString('hex');
  const region = options.region ?? 'us-east-1';
  const buckets = new Map(options.buckets.map((name) => [name, new Map<string, StoredObject>()]));
  const log: S3Request[] = [];
  let refusing = false;

  function answer(request: IncomingMessage, response: ServerResponse, status: number, headers: Record<string, string | number> = {}, body?: Buffer | string) {
    response.writeHead(status, { 'x-amz-request-id': randomBytes(8).toString('hex').toUpperCase(), server: 'local-s3', ...headers });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  function fail(request: IncomingMessage, response: ServerResponse, status: number, code: string, message: string, resource: string) {
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message><Resource>${xmlEscape(resource)}</Resource><RequestId>${randomBytes(8).toString('hex').toUpperCase()}</RequestId></Error>`;
    answer(request, response, status, { 'content-type': 'application/xml' }, body);
  }

  async function readBody(request: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://local');
    const [, bucketName = '', ...rest] = url.pathname.split('/');
    const bucket = decodeURIComponent(bucketName);
    const key = rest.map(decodeURIComponent).join('/');
    const resource = url.pathname;
    const method = request.method ?? 'GET';
    const status = (code: number) => log.push({ method, bucket, key, status: code });

    const verdict = verifySigV4(request, (id) => (id === accessKey ? secretKey : undefined));
    if (!verdict.ok) {
      const code = verdict.code === 'InvalidRequest' || verdict.code === 'AuthorizationHeaderMalformed' ? 400 : 403;
      await readBody(request);
      status(code);
      return fail(request, response, code, verdict.code, verdict.message, resource);
    }
    const payloadHash = String(request.headers['x-amz-content-sha256']);
    // The aws-chunked encodings (a trailing checksum, signed chunks) are not spoken here, as many
    // S3-compatible servers do not speak them: a client must send plain bodies.
    if (payloadHash.startsWith('STREAMING-') || /aws-chunked/.test(String(request.headers['content-encoding'] ?? ''))) {
      await readBody(request);
      status(501);
      return fail(request, response, 501, 'NotImplemented', 'A header you provided implies functionality that is not implemented (aws-chunked).', resource);
    }
    const body = await readBody(request);
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256Hex(body)) {
      status(400);
      return fail(request, response, 400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.", resource);
    }
    const objects = buckets.get(bucket);
    if (!bucket || !objects) {
      status(404);
      return fail(request, response, 404, 'NoSuchBucket', 'The specified bucket does not exist', resource);
    }

    if (!key) {
      if (method === 'HEAD') {
        status(200);
        return answer(request, response, 200, { 'x-amz-bucket-region': region });
      }
      if (method === 'GET' && url.searchParams.get('list-type') === '2') {
        const prefix = url.searchParams.get('prefix') ?? '';
        const keys = [...objects.keys()].filter((name) => name.startsWith(prefix)).sort();
        const contents = keys
          .map((name) => {
            const object = objects.get(name)!;
            return `<Contents><Key>${xmlEscape(name)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified><ETag>&quot;${object.etag}&quot;</ETag><Size>${object.bytes.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
          })
          .join('');
        status(200);
        return answer(request, response, 200, { 'content-type': 'application/xml' },
          `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xmlEscape(bucket)}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${keys.length}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`);
      }
      status(501);
      return fail(request, response, 501, 'NotImplemented', 'This server answers HeadBucket and ListObjectsV2 on a bucket.', resource);
    }

    if (method === 'PUT') {
      if (request.headers['x-amz-copy-source']) {
        status(501);
        return fail(request, response, 501, 'NotImplemented', 'CopyObject is not implemented here.', resource);
      }
      const length = request.headers['content-length'];
      if (length === undefined) {
        status(411);
        return fail(request, response, 411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.', resource);
      }
      if (Number(length) !== body.length) {
        status(400);
        return fail(request, response, 400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.', resource);
      }
      if (refusing) {
        status(507);
        return fail(request, response, 507, 'XMinioStorageFull', 'Storage backend has reached its minimum free drive threshold. Please delete a few objects to proceed.', resource);
      }
      const etag = createHash('md5').update(body).digest('hex');
      objects.set(key, { bytes: body, contentType: String(request.headers['content-type'] ?? 'binary/octet-stream'), etag, lastModified: new Date() });
      status(200);
      return answer(request, response, 200, { etag: `"${etag}"` });
    }
    if (method === 'DELETE') {
      objects.delete(key);
      status(204);
      return answer(request, response, 204);
    }
    if (method === 'GET' || method === 'HEAD') {
      const object = objects.get(key);
      if (!object) {
        status(404);
        return fail(request, response, 404, 'NoSuchKey', 'The specified key does not exist.', resource);
      }
      const size = object.bytes.length;
      const headers = {
        'content-type': object.contentType,
        etag: `"${object.etag}"`,
        'last-modified': object.lastModified.toUTCString(),
        'accept-ranges': 'bytes',
      };
      const range = request.headers.range;
      if (range && method === 'GET') {
        const parsed = /^bytes=(\d*)-(\d*)$/.exec(range);
        let start = parsed?.[1] ? Number(parsed[1]) : NaN;
        let end = parsed?.[2] ? Number(parsed[2]) : size - 1;
        if (parsed && !parsed[1] && parsed[2]) {
          start = Math.max(0, size - Number(parsed[2]));
          end = size - 1;
        }
        if (!parsed || Number.isNaN(start) || start >= size || end < start) {
          status(416);
          return fail(request, response, 416, 'InvalidRange', 'The requested range is not satisfiable', resource);
        }
        end = Math.min(end, size - 1);
        status(206);
        return answer(request, response, 206, { ...headers, 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${size}` }, object.bytes.subarray(start, end + 1));
      }
      status(200);
      return answer(request, response, 200, { ...headers, 'content-length': size }, object.bytes);
    }
    status(405);
    return fail(request, response, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.', resource);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) fail(request, response, 500, 'InternalError', error.message, request.url ?? '/');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    region,
    env: (bucket, prefix = '') => ({
      MEDIA_STORE: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
      MEDIA_S3_ENDPOINT: url,
      MEDIA_S3_REGION: region,
      MEDIA_S3_ACCESS_KEY: accessKey,
      MEDIA_S3_SECRET_KEY: secretKey,
      MEDIA_S3_FORCE_PATH_STYLE: 'true',
    }),
    objects: (only) =>
      [...buckets]
        .filter(([name]) => !only || name === only)
        .flatMap(([name, objects]) => [...objects].map(([key, object]) => ({ bucket: name, key, size: object.bytes.length, contentType: object.contentType, bytes: object.bytes })))
        .sort((a, b) => (a.bucket + a.key < b.bucket + b.key ? -1 : 1)),
    requests: () => [...log],
    refuseWrites(on) {
      refusing = on;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
