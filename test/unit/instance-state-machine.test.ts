import { describe, expect, it } from 'vitest';
import { Conflict } from '../../src/domain/errors.js';
import {
  ALL_STATES,
  ALL_TRANSITIONS,
  canTransition,
  type InstanceState,
  type InstanceTransition,
  statusIn,
  transition,
} from '../../src/domain/instances/state-machine.js';

const LEGAL: Array<[InstanceState, InstanceTransition, InstanceState]> = [
  ['created', 'qr_issued', 'qr'],
  ['qr', 'qr_issued', 'qr'],
  ['disconnected', 'qr_issued', 'qr'],
  ['banned', 'qr_issued', 'qr'],
  ['error', 'qr_issued', 'qr'],
  ['created', 'scanned', 'connecting'],
  ['qr', 'scanned', 'connecting'],
  ['connecting', 'linked', 'connected'],
  ['created', 'qr_exhausted', 'disconnected'],
  ['qr', 'qr_exhausted', 'disconnected'],
  ['connected', 'dropped', 'disconnected'],
  ['connecting', 'dropped', 'disconnected'],
  ['disconnected', 'reconnecting', 'connecting'],
  ['error', 'reconnecting', 'connecting'],
  ['created', 'logged_out', 'disconnected'],
  ['qr', 'logged_out', 'disconnected'],
  ['connecting', 'logged_out', 'disconnected'],
  ['connected', 'logged_out', 'disconnected'],
  ['disconnected', 'logged_out', 'disconnected'],
  ['qr', 'banned', 'banned'],
  ['connecting', 'banned', 'banned'],
  ['connected', 'banned', 'banned'],
  ['disconnected', 'banned', 'banned'],
  ['created', 'failed', 'error'],
  ['qr', 'failed', 'error'],
  ['connecting', 'failed', 'error'],
  ['connected', 'failed', 'error'],
  ['disconnected', 'failed', 'error'],
];

describe('instance state machine', () => {
  it.each(LEGAL)('%s --%s--> %s', (from, move, to) => {
    expect(canTransition(from, move)).toBe(true);
    expect(transition(from, move)).toBe(to);
  });

  const legal = new Set(LEGAL.map(([from, move]) => `${from}:${move}`));
  const illegal = ALL_STATES.flatMap((from) => ALL_TRANSITIONS.map((move) => [from, move] as const)).filter(
    ([from, move]) => !legal.has(`${from}:${move}`),
  );

  it('has exactly the legal transitions listed here', () => {
    expect(illegal.length + LEGAL.length).toBe(ALL_STATES.length * ALL_TRANSITIONS.length);
  });

  it.each(illegal)('refuses %s --%s-->', (from, move) => {
    expect(canTransition(from, move)).toBe(false);
    expect(() => transition(from, move)).toThrow(Conflict);
  });

  it('says why a move is refused in the caller variant\'s status words, never the internal ones', () => {
    expect(() => transition('banned', 'logged_out', 'v1')).toThrow('The instance cannot be disconnected while it is error.');
    expect(() => transition('banned', 'logged_out', 'session')).toThrow('The instance cannot be disconnected while it is banned.');
    expect(() => transition('connected', 'scanned', 'v1')).toThrow('The instance cannot be paired while it is connected.');
    expect(() => transition('connecting', 'qr_issued', 'session')).toThrow('The instance cannot show a new QR code while it is qr.');
  });

  it.each([
    ['created', 'initializing', 'created'],
    ['qr', 'qr_code', 'qr'],
    ['connecting', 'connecting', 'qr'],
    ['connected', 'connected', 'connected'],
    ['disconnected', 'disconnected', 'disconnected'],
    ['banned', 'error', 'banned'],
    ['error', 'error', 'disconnected'],
  ] as const)('shows %s as %s (v1) and %s (session)', (state, v1, session) => {
    expect(statusIn('v1', state)).toBe(v1);
    expect(statusIn('session', state)).toBe(session);
  });
});
