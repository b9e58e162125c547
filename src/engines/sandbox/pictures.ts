import { createHash } from 'node:crypto';
import type { ContactProfile } from '../../domain/network/engine-history.js';

/** The picture every image of a phone's past shows (a 16×16 PNG: sky over grass). */
export const PAST_PICTURE = {
  mimetype: 'image/png',
  bytes: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAG0lEQVR4nGNoP/eaJMQwqmGIarDZXEgSGpEaAKV/7BCODu+DAAAAAElFTkSuQmCC', 'base64'),
};

const ABOUTS = ['Hey there! I am using the sandbox.', 'Available', 'At work', 'Busy, text me', 'Battery about to die'];

const drawn = (phone: string) => createHash('sha256').update(`sandbox-profile:${phone}`).digest();

/**
 * A sandbox person's profile, the same every time for one number: an about line (none for some), a
 * picture (none for about a quarter), and a business account for about one in five. `base` is where
 * the control API serves pictures (PUBLIC_URL, or nothing for a path on the gateway).
 */
export function sandboxProfile(phone: string, onNetwork: boolean, base: string): ContactProfile {
  const bytes = drawn(phone);
  return {
    about: bytes[0]! % 6 === 5 ? null : ABOUTS[bytes[0]! % ABOUTS.length]!,
    pictureUrl: bytes[1]! % 4 === 0 ? null : `${base}/sandbox/phones/${phone}/picture`,
    business: bytes[2]! % 5 === 0,
    onNetwork,
  };
}

/** The profile picture of a sandbox number: a disc in a colour drawn from the number, with its last two digits. */
export function profilePicture(phone: string): string {
  const bytes = drawn(phone);
  const hue = ((bytes[3]! << 8) | bytes[4]!) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><circle cx="48" cy="48" r="48" fill="hsl(${hue} 55% 45%)"/><text x="48" y="60" font-family="sans-serif" font-size="36" fill="#fff" text-anchor="middle">${phone.slice(-2)}</text></svg>`;
}

/** Whether a number shows a picture (sandboxProfile's rule). */
export const hasPicture = (phone: string) => drawn(phone)[1]! % 4 !== 0;
