// Webhook verification as the network does it when a callback URL is saved (the API's webhook reference, "Verification"):
// `GET <callback>?hub.mode=subscribe&hub.challenge=<n>&hub.verify_token=<token>`, expecting 200 and the
// challenge echoed as the body.
import { request } from 'undici';
import { challengeValue } from './ids.js';

export interface VerifyResult {
  status: number;
  body: string;
  challenge: string;
  /** 200 with exactly the challenge as body: what the network accepts. */
  verified: boolean;
  error?: string;
}

export async function verifyCallback(url: string, verifyToken: string, timeoutMs: number): Promise<VerifyResult> {
  const challenge = challengeValue();
  const target = new URL(url);
  target.searchParams.set('hub.mode', 'subscribe');
  target.searchParams.set('hub.challenge', challenge);
  target.searchParams.set('hub.verify_token', verifyToken);
  try {
    const response = await request(target, { method: 'GET', headers: { 'user-agent': 'facebookplatform/1.0' }, signal: AbortSignal.timeout(timeoutMs) });
    const body = await response.body.text();
    return { status: response.statusCode, body, challenge, verified: response.statusCode === 200 && body === challenge };
  } catch (error) {
    return { status: 0, body: '', challenge, verified: false, error: error instanceof Error ? error.message : String(error) };
  }
}
