import { describe, expect, it } from 'vitest';
import { bearerToken, sessionToken } from '../../src/domain/auth/authenticate.js';

describe('credential parsing', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['Bearer   abc  ', 'abc'],
    ['Basic abc', undefined],
    ['Bearer', undefined],
    ['Bearer a b', undefined],
    [undefined, undefined],
  ])('bearer token of %j is %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it('finds the auth-session cookie among others', () => {
    expect(sessionToken('theme=dark; auth-session=tok123; x=1')).toBe('tok123');
    expect(sessionToken('auth-session=')).toBeUndefined();
    expect(sessionToken('other=1')).toBeUndefined();
    expect(sessionToken(undefined)).toBeUndefined();
  });
});
