/**
 * `npm run network`: the local chat network and business API, to try a gateway by hand without a phone or an
 * account; prints the variables to start it with (options and control APIs: docs/engines.md, "Linking a real phone").
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { startChatNetwork } from './chat-network/index.js';
import { startCloudApi } from './cloud-api/index.js';

const USAGE = `Usage: npm run network -- [options]

Starts the local chat network (for CHAT-BAILEYS) and the local business API (for CHAT-CLOUD), and
prints how to start the gateway against them. Stop it with Ctrl-C or SIGTERM.

Options:
  --chat-port <port>     the chat network's port (WebSocket and control API); default 8090, 0 for any free port
  --cloud-port <port>    the business API's port; default 8790, 0 for any free port
  --host <address>       the address both listen on; default 127.0.0.1
  --gateway-url <url>    the gateway the business API posts its webhooks to; default http://127.0.0.1:$PORT
                         (PORT from the environment, else 3000)
  --log <level>          the networks' log level (fatal, error, warn, info, debug, trace); default warn
  -h, --help             this text
`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

let values: { 'chat-port': string; 'cloud-port': string; host: string; 'gateway-url'?: string; log: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      'chat-port': { type: 'string', default: '8090' },
      'cloud-port': { type: 'string', default: '8790' },
      host: { type: 'string', default: '127.0.0.1' },
      'gateway-url': { type: 'string' },
      log: { type: 'string', default: 'warn' },
      help: { type: 'boolean', short: 'h' },
    },
  }) as { values: typeof values });
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

function port(name: 'chat-port' | 'cloud-port'): number {
  const value = Number(values[name]);
  if (!/^\d+$/.test(values[name]) || value > 65535) fail(`--${name} must be a port number (0-65535), not "${values[name]}"`);
  return value;
}
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
if (!LEVELS.includes(values.log)) fail(`--log must be one of ${LEVELS.join(', ')}, not "${values.log}"`);
const gatewayUrl = (values['gateway-url'] ?? `http://127.0.0.1:${process.env.PORT || 3000}`).replace(/\/+$/, '');
if (!/^https?:\/\/[^\s/]+$/.test(gatewayUrl)) fail(`--gateway-url must be the gateway's address, like http://127.0.0.1:3000, not "${gatewayUrl}"`);

const logger = pino({ level: values.log });
// The CA of the chat network's media host: a file of this run's own (a temporary folder removed on stop).
const chat = await startChatNetwork({ host: values.host, port: port('chat-port'), logger });
const cloud = await startCloudApi({ host: values.host, port: port('cloud-port'), logger });

console.log(`Local chat network (CHAT-BAILEYS): start the gateway with
  ENGINES=baileys,sandbox CHAT_NETWORK_URL=${chat.url} CHAT_NETWORK_ROOT_KEY=${chat.rootKey} CHAT_NETWORK_CA_FILE=${chat.caFile}
Its phones, by HTTP (${chat.controlUrl}/control; docs/engines.md lists every control):
  scan a QR:        curl -s ${chat.controlUrl}/control/scan -H 'content-type: application/json' -d '{"qr":"<the QR text>","phone":"+15550001111"}'
  enter a code:     curl -s ${chat.controlUrl}/control/pair -H 'content-type: application/json' -d '{"code":"<the pairing code>","phone":"+15550001111"}'
  what one got:     curl -s ${chat.controlUrl}/control/phones/15550002222/messages
  send to a phone:  curl -s ${chat.controlUrl}/control/phones/15550002222/messages -H 'content-type: application/json' -d '{"to":"15550001111","text":"hello"}'

Local business API (CHAT-CLOUD): start the gateway with
  ENGINES=sandbox,cloud CLOUD_API_URL=${cloud.url} CLOUD_VERIFY_TOKEN=local-verify-token
Its side, by HTTP (${cloud.url}/control lists every route):
  a number:         curl -s ${cloud.url}/control/numbers -H 'content-type: application/json' -d '{"phoneNumberId":"106540352242922","displayPhoneNumber":"15550783881","accessToken":"local-token","appSecret":"local-secret"}'
  the webhook:      curl -s -X PUT ${cloud.url}/control/webhook -H 'content-type: application/json' -d '{"url":"${gatewayUrl}/webhooks/cloud","verifyToken":"local-verify-token","verify":true}'
  a customer says:  curl -s ${cloud.url}/control/numbers/106540352242922/customer-messages -H 'content-type: application/json' -d '{"from":"16505551234","message":"hello"}'
  what it got:      curl -s '${cloud.url}/control/sent?phoneNumberId=106540352242922'
Then create an instance with "integration":"CHAT-CLOUD" and "cloud":{"phoneNumberId":"106540352242922","accessToken":"local-token","appSecret":"local-secret"}.
`);

// The CA's folder goes on every way out, the 3 s cut below included (a close that outlasts it on a
// loaded machine left the folder behind).
process.once('exit', () => rmSync(dirname(chat.caFile), { recursive: true, force: true }));

let stopping = false;
function stop(signal: string) {
  // A second signal, or connections that will not close, end it at once.
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`${signal}: stopping the local networks`);
  setTimeout(() => process.exit(0), 3000).unref();
  void Promise.allSettled([chat.close(), cloud.close()]).then(() => process.exit(0));
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGHUP', () => stop('SIGHUP'));
