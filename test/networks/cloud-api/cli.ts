// Runs the local Cloud API server for trying the gateway by hand:
//   npx tsx test/networks/cloud-api/cli.ts [--port N] [--host H] [--mps N] [--async-window]
import { pino } from 'pino';
import { startCloudApi } from './index.js';

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function numberFlag(name: string): number | undefined {
  const value = flag(name);
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    console.error(`--${name} needs a whole number, got "${value}"`);
    process.exit(2);
  }
  return parsed;
}

const port = numberFlag('port') ?? 8790;
const mps = numberFlag('mps');
const api = await startCloudApi({
  port,
  host: flag('host') ?? '127.0.0.1',
  logger: pino({ level: process.env.LOG_LEVEL ?? 'info' }),
  ...(mps !== undefined ? { mpsLimit: mps } : {}),
  ...(process.argv.includes('--async-window') ? { windowMode: 'async' as const } : {}),
});

const c = `${api.url}/control`;
console.log(`CLOUD_API_URL=${api.url}

Register a number (its phone-number-id, digits, token and app secret are what the gateway's instance gets):
  curl -s -X POST ${c}/numbers -H 'content-type: application/json' \\
    -d '{"phoneNumberId":"106540352242922","displayPhoneNumber":"15550783881","accessToken":"EAAG-test","appSecret":"app-secret"}'
Point the webhooks at the gateway and run the verification:
  curl -s -X PUT ${c}/webhook -H 'content-type: application/json' \\
    -d '{"url":"http://127.0.0.1:3000/webhooks/cloud","verifyToken":"<CLOUD_VERIFY_TOKEN>","verify":true}'
A user writes to the business (opens the 24-hour window):
  curl -s -X POST ${c}/numbers/106540352242922/customer-messages -H 'content-type: application/json' \\
    -d '{"from":"16505551234","message":{"type":"text","text":"hi","profileName":"Sheena"}}'
What the business sent, and the webhook deliveries:
  curl -s ${c}/sent    curl -s ${c}/deliveries    curl -s ${c}   (every control route)`);

const stop = () => {
  void api.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
