import { z } from 'zod';
import { type HttpSurface, type Operation, okEnvelope } from '../../../src/http/operation.js';

const tag = 'Loopback network';
const received = z.object({ from: z.string(), text: z.string().nullable(), networkMessageId: z.string() });

/** The loopback network's side of the wire, documented from here like any engine's routes. */
export const loopbackOperations = {
  scan: { method: 'post', path: '/loopback/scan', tag, summary: 'A phone scans a QR code (its text)', auth: [], body: z.object({ code: z.string(), phone: z.string() }), success: { status: 200, schema: okEnvelope(z.object({ instanceId: z.string() })), description: 'paired' }, errors: [400] },
  send: { method: 'post', path: '/loopback/send', tag, summary: "A phone sends a text to an instance's phone", auth: [], body: z.object({ from: z.string(), to: z.string(), text: z.string() }), success: { status: 200, schema: okEnvelope(z.record(z.string(), z.unknown())), description: 'received' }, errors: [404] },
  inbox: { method: 'get', path: '/loopback/phones/:phone', tag, summary: 'What a phone received', auth: [], success: { status: 200, schema: okEnvelope(z.array(received)), description: 'oldest first' }, errors: [] },
  echo: { method: 'get', path: '/loopback/echo', tag, summary: 'The network says back what it is told, and who it is', auth: [], query: z.object({ text: z.string() }), success: { status: 200, schema: okEnvelope(z.object({ integration: z.literal('CHAT-LOOPBACK'), text: z.string() })), description: 'the echo' }, errors: [] },
} satisfies Record<string, Operation>;

export const loopbackSurface: HttpSurface = {
  tags: [{ name: tag, description: 'The loopback network, a test engine: its phones scan, send and read here.' }],
  operations: Object.values(loopbackOperations),
};
