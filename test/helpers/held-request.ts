import { request, type ClientRequest } from 'node:http';

export interface HeldRequest {
  /** Resolves with the status once the gateway answers. */
  status: Promise<number>;
  /** Sends the rest of the body. */
  finish(): void;
  /** Drops the connection mid-request, as a client that went away. */
  abort(): void;
}

/**
 * A POST whose JSON body arrives in two parts: the gateway admits it (auth, rate limits) on the
 * headers, then waits for the rest, so the request stays in flight until finish().
 */
export function heldSend(baseUrl: string, key: string, body: object): HeldRequest {
  const json = JSON.stringify(body);
  const url = new URL('/v1/messages/send', baseUrl);
  let req!: ClientRequest;
  const status = new Promise<number>((resolve, reject) => {
    req = request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  status.catch(() => {});
  req.write(json.slice(0, 5));
  req.flushHeaders();
  return {
    status,
    finish: () => req.end(json.slice(5)),
    abort: () => req.destroy(),
  };
}
