import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What PROXY_CHECK_URL is for tests: a server answering the address each caller comes from, as a public "what is my IP" service does. */
export async function startExitAddressServer() {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end((req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
