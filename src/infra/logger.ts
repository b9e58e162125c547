import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths that can carry secrets; pino replaces their values before anything is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordHash',
  '*.key',
  '*.token',
  '*.secret',
  '*.webhookSecret',
  // CHAT-CLOUD credentials, wherever an object carrying them is logged.
  '*.accessToken',
  '*.appSecret',
  '*.cloud',
  // An instance's proxy URL carries its credentials (docs/settings.md, "Proxy").
  '*.proxy',
  'proxy',
  'req.headers["x-hub-signature-256"]',
  '*.authorization',
  '*.cookie',
  'password',
  'key',
  'token',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
