import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { quietSignalConsole } from '../../../src/engines/baileys/quiet-signal.js';
import { createLogger } from '../../../src/infra/logger.js';
import { LogCapture } from '../../kit/log-capture.js';

const require = createRequire(import.meta.url);

describe('the signal library on the console', () => {
  it('never writes a session record (private keys) to the output: one short debug line instead; other console output passes', () => {
    // What reaches the console's own methods (the process output), captured.
    const written: unknown[][] = [];
    const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
    const originals = methods.map((method) => console[method]);
    for (const method of methods) console[method] = (...args: unknown[]) => void written.push(args);
    const logs = new LogCapture();
    try {
      quietSignalConsole(createLogger('debug', logs));
      // The library's own calls: opening and closing a session print the whole record.
      const { SessionRecord } = require('libsignal') as { SessionRecord: new () => { openSession(s: unknown): void; closeSession(s: unknown): void } };
      const session = {
        registrationId: 7,
        currentRatchet: { rootKey: Buffer.alloc(32, 1), ephemeralKeyPair: { pubKey: Buffer.alloc(33, 2), privKey: Buffer.from('a-private-key-0123456789abcdef!!') } },
        indexInfo: { baseKey: Buffer.alloc(33, 3), baseKeyType: 1, closed: -1, used: Date.now(), created: Date.now(), remoteIdentityKey: Buffer.alloc(33, 4) },
        _chains: {},
      };
      const record = new SessionRecord();
      record.openSession(session);
      record.closeSession(session);
      console.log('an ordinary line');
    } finally {
      methods.forEach((method, n) => (console[method] = originals[n]!));
    }
    expect(written).toEqual([['an ordinary line']]);
    const lines = logs.lines.join('\n');
    expect(lines).toContain('Closing session');
    expect(lines).toContain('Opening session');
    expect(lines).not.toMatch(/a-private-key|privKey|rootKey/);
  });
});
