import { describe, expect, it } from 'vitest';
import { Unavailable } from '../../src/domain/errors.js';
import { isDatabaseUnavailable } from '../../src/infra/db/unavailable.js';

const adapterError = (cause: Record<string, unknown>) => Object.assign(new Error('adapter'), { name: 'DriverAdapterError', cause });

describe('what counts as "the database is unavailable"', () => {
  it.each([
    ['a connection the server closed', adapterError({ kind: 'ConnectionClosed' })],
    ['a server that cannot be reached', adapterError({ kind: 'DatabaseNotReachable', host: 'db', port: 5432 })],
    ['a statement timeout (57014)', adapterError({ kind: 'postgres', code: '57014' })],
    ['a server shutting down (57P01)', adapterError({ kind: 'postgres', code: '57P01' })],
    ['too many connections (53300)', adapterError({ kind: 'postgres', code: '53300' })],
    ['no pooled connection in time', new Error('timeout exceeded when trying to connect')],
    ['a silent server', new Error('Query read timeout')],
    ['a transaction that could not start in time (P2028)', Object.assign(new Error('Transaction API error'), { code: 'P2028' })],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['an Unavailable inside a cause', new Error('wrapped', { cause: new Unavailable() })],
  ])('%s is', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (P2002)', Object.assign(new Error('Unique constraint failed'), { code: 'P2002' })],
    ['a syntax error (42601)', adapterError({ kind: 'postgres', code: '42601' })],
    ['a NUL in text (22021)', adapterError({ kind: 'postgres', code: '22021' })],
    ['a bug', new TypeError('undefined is not a function')],
    ['nothing at all', undefined],
  ])('%s is not', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
