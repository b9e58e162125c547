import { expect } from 'vitest';
import type { World } from '../kit/world.js';
import { eventually } from './sandbox.js';

/** Digits of a `+digits` sandbox phone: a direct chat's id. */
export const digitsOf = (phone: string) => phone.replace(/^\+/, '');

/** A sandbox phone writes to an instance's phone (into `group` when given); the gateway's id of the message once stored. */
export async function phoneWrites(world: World, instance: { phone: string }, from: string, text: string, extra: Record<string, unknown> = {}) {
  const answer = await world.api.post('/sandbox/messages', { body: { from, to: instance.phone, text, ...extra } });
  expect(answer.status, answer.text).toBe(200);
  // The sandbox hands a message over before it answers: it is stored by now.
  return answer.body.data.messageId as string;
}

/** The instance sends a text to `to` (a phone or a group id); the message's id once the phone's delivery receipt came (it stays put after). */
export async function instanceSends(world: World, instance: { id: string }, to: string, text: string) {
  const answer = await world.api.post(`/v1/chat/instances/${instance.id}/messages`, { key: world.tenant.liveKey, body: { to: digitsOf(to), text } });
  expect(answer.status, answer.text).toBe(200);
  const id = answer.body.data.id as string;
  await eventually(() => world.api.get(`/v1/messages/status/${id}`, { key: world.tenant.liveKey }), (r) => r.body.data?.status === 'delivered');
  return id;
}

/** A message as GET /v1/messages/status shows it, as a chat shows it: with its chat and history flag. */
export async function asChatMessage(world: World, id: string, chatId: string, history = false) {
  const answer = await world.api.get(`/v1/messages/status/${id}`, { key: world.tenant.liveKey });
  expect(answer.status, answer.text).toBe(200);
  return { ...answer.body.data, chatId, history };
}

/** Every page of a cursor-paged list, read one after another; `between` runs after each page. */
export async function allPages(world: World, path: string, options: { key?: string; cookie?: string; cursorParam?: string; between?: (page: number) => Promise<void> } = {}) {
  const auth = options.cookie ? { cookie: options.cookie } : { key: options.key ?? world.tenant.liveKey };
  const items: Array<Record<string, any>> = [];
  let next: string | null = null;
  let pages = 0;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const url: string = next ? `${path}${separator}${options.cursorParam ?? 'cursor'}=${encodeURIComponent(next)}` : path;
    const page = await world.api.get(url, auth);
    expect(page.status, page.text).toBe(200);
    items.push(...page.body.data);
    next = page.body.next;
    pages++;
    await options.between?.(pages);
  } while (next);
  return { items, pages };
}
