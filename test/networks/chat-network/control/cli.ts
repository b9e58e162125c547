/**
 * The chat network alone, to try a gateway against it by hand: `npx tsx test/networks/chat-network/control/cli.ts
 * [--port 8090] [--host 127.0.0.1] [--log info]`. Prints the gateway's variables and curl lines for the phones.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { startChatNetwork } from '../index.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    log: { type: 'string', default: 'warn' },
    'ca-file': { type: 'string', default: join(tmpdir(), 'chat-network-ca.pem') },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, not "${values.port}"`);
  process.exit(2);
}

const network = await startChatNetwork({
  host: values.host,
  port,
  caFile: values['ca-file'],
  logger: pino({ level: values.log ?? 'warn' }),
});

console.log(`CHAT_NETWORK_URL=${network.url}
CHAT_NETWORK_ROOT_KEY=${network.rootKey}
CHAT_NETWORK_CA_FILE=${network.caFile}

Control API: ${network.controlUrl}/control
  curl -s ${network.controlUrl}/control/scan -H 'content-type: application/json' -d '{"qr":"<the QR text>","phone":"+15550001111"}'
  curl -s ${network.controlUrl}/control/phones/15550002222/messages -H 'content-type: application/json' -d '{"to":"15550001111","text":"hello"}'
`);

const stop = () => {
  void network.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
