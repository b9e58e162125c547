import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FileServer {
  /** `http://127.0.0.1:<port>`: a file's URL is this plus its path. */
  url: string;
  close(): Promise<void>;
}

/**
 * The outside world's file hosts for media sends: fixed files by path (content type and bytes),
 * 404 for anything else.
 */
export async function startFileServer(files: Record<string, { type: string; body: Buffer | string }>): Promise<FileServer> {
  const server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (file) res.writeHead(200, { 'content-type': file.type }).end(file.body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
