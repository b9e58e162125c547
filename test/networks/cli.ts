/**
 * `npm run network`: the local networks a gateway can be tried against by hand, without a phone or an
 * account: the chat network (the multi-device web protocol, for CHAT-BAILEYS) and the official
 * business API (for CHAT-CLOUD). Prints the variables to start the gateway with.
 *
 *   npm run network -- [--chat-port 8090] [--cloud-port 8790] [--host 127.0.0.1]
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { startChatNetwork } from './chat-network/index.js';
import { startCloudApi } from './cloud-api/index.js';

const { values } = parseArgs({
  options: {
    'chat-port': { type: 'string', default: '8090' },
    'cloud-port': { type: 'string', default: '8790' },
    host: { type: 'string', default: '127.0.0.1' },
    log: { type: 'string', default: 'warn' },
  },
});

function port(name: 'chat-port' | 'cloud-port'): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`--${name} must be a port number, not "${values[name]}"`);
    process.exit(2);
  }
  return value;
}

const logger = pino({ level: values.log ?? 'warn' });
const chat = await startChatNetwork({ host: values.host, port: port('chat-port'), caFile: join(tmpdir(), 'chat-network-ca.pem'), logger });
const cloud = await startCloudApi({ host: values.host, port: port('cloud-port'), logger });

console.log(`Local chat network (CHAT-BAILEYS): start the gateway with
  ENGINES=baileys,sandbox CHAT_NETWORK_URL=${chat.url} CHAT_NETWORK_ROOT_KEY=${chat.rootKey} CHAT_NETWORK_CA_FILE=${chat.caFile}
Its phones, by HTTP (${chat.controlUrl}/control):
  scan a QR:        curl -s ${chat.controlUrl}/control/scan -H 'content-type: application/json' -d '{"qr":"<the QR text>","phone":"+15550001111"}'
  enter a code:     curl -s ${chat.controlUrl}/control/pair -H 'content-type: application/json' -d '{"code":"<the pairing code>","phone":"+15550001111"}'
  what one got:     curl -s ${chat.controlUrl}/control/phones/15550002222/messages
  send to a phone:  curl -s ${chat.controlUrl}/control/phones/15550002222/messages -H 'content-type: application/json' -d '{"to":"15550001111","text":"hello"}'

Local business API (CHAT-CLOUD): start the gateway with
  ENGINES=sandbox,cloud CLOUD_API_URL=${cloud.url} CLOUD_VERIFY_TOKEN=local-verify-token
Its side, by HTTP (${cloud.url}/control lists every route):
  a number:         curl -s ${cloud.url}/control/numbers -H 'content-type: application/json' -d '{"phoneNumberId":"106540352242922","displayPhoneNumber":"15550783881","accessToken":"local-token","appSecret":"local-secret"}'
  the webhook:      curl -s -X PUT ${cloud.url}/control/webhook -H 'content-type: application/json' -d '{"url":"http://127.0.0.1:3000/webhooks/cloud","verifyToken":"local-verify-token","verify":true}'
  a customer says:  curl -s ${cloud.url}/control/numbers/106540352242922/customer-messages -H 'content-type: application/json' -d '{"from":"16505551234","message":"hello"}'
  what it got:      curl -s '${cloud.url}/control/sent?phoneNumberId=106540352242922'
Then create an instance with "integration":"CHAT-CLOUD" and "cloud":{"phoneNumberId":"106540352242922","accessToken":"local-token","appSecret":"local-secret"}.
`);

const stop = () => {
  void Promise.all([chat.close(), cloud.close()]).then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
