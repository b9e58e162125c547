import { describe, expect, it } from 'vitest';
import { DECOY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../src/domain/auth/password.js';

describe('password hashing', () => {
  it('verifies the right password only, with a fresh salt per hash', async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');
    expect(first).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse', first)).toBe(true);
    expect(await verifyPassword('correct horsE', first)).toBe(false);
  });

  it('never matches the decoy hash and refuses garbage hashes', async () => {
    expect(await verifyPassword('', DECOY_PASSWORD_HASH)).toBe(false);
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$1$2$3$4$5')).toBe(false);
  });
});
