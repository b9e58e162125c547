import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryBatch } from '../../../src/domain/network/engine-history.js';
import { eventually, newPhone, phoneInbox } from '../../factories/sandbox.js';
import { launchBrowser, screenshotOnFailure as failureScreenshot } from '../../kit/browser.js';
import { MODES } from '../../kit/modes.js';
import { connectedInstance, sandboxWorld } from '../../kit/worlds/sandbox.js';

/** A small picture (a gradient), base64, as a phone would send it. */
function picture(): string {
  const png = new PNG({ width: 96, height: 64 });
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 96; x++) {
      const at = (y * 96 + x) * 4;
      png.data.set([40 + x * 2, 90 + y, 200, 255], at);
    }
  }
  return PNG.sync.write(png).toString('base64');
}

/** Nothing wider than the viewport, and every button, link and field of the inbox inside it. */
function outOfReach(page: Page, width: number) {
  return page.evaluate((width) => {
    const problems: string[] = [];
    if (document.scrollingElement!.scrollWidth > width) problems.push(`the page is ${document.scrollingElement!.scrollWidth} px wide`);
    for (const element of document.querySelectorAll<HTMLElement>('.inbox button, .inbox a, .inbox select, .inbox textarea, .inbox input:not([type=file])')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.left < -1 || box.right > width + 1) problems.push(`“${(element.textContent || element.getAttribute('aria-label') || element.tagName).trim().slice(0, 40)}” spans ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
    return problems;
  }, width);
}

/**
 * The inbox in a real browser, with what sandbox phones sent: the chat list with its unread badges,
 * search and filters; a thread with every kind of message; sending from the send box; a message
 * arriving live; the chat actions; and the layout at 375 px.
 */
describe('the dashboard inbox', () => {
  const world = sandboxWorld(MODES[0]!);
  let browser: Browser;
  let page: Page;
  let desk: { id: string; phone: string };
  const ana = newPhone();
  const bruno = newPhone();
  const carla = newPhone();
  const ids: Record<string, string> = {};

  /** A sandbox phone sends the instance a message; the gateway's id of it. */
  const phoneSends = async (from: string, body: Record<string, unknown>) => {
    const answer = await world.api.post('/sandbox/messages', { body: { from, to: desk.phone, pushName: from === ana ? 'Ana Souza' : 'Bruno Lima', ...body } });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data.messageId as string;
  };
  const deskSends = async (body: Record<string, unknown>) => {
    const answer = await world.api.post(`/v1/chat/instances/${desk.id}/messages`, { key: world.tenant.liveKey, body: { to: ana.slice(1), ...body } });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data.id as string;
  };
  const chatRow = (phone: string) => page.locator(`li.chat[data-chat-id="${phone.slice(1)}"]`);
  const inbox = (chat?: string) => `${world.gw.url}/#/instances/${desk.id}/inbox${chat ? `/${chat.slice(1)}` : ''}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    desk = await connectedInstance(world, `Inbox desk ${Date.now()}`);

    // Ana's chat: every kind, a reply and a reaction to the desk's message, an edit and a delete.
    ids.greeting = await phoneSends(ana, { text: 'Hi! Is my order ready?' });
    ids.answer = await deskSends({ text: 'Your order ships today' });
    await eventually(() => phoneInbox(world.api, ana), (r) => r.body.data.some((m: { id: string }) => m.id === ids.answer));
    ids.reply = await phoneSends(ana, { text: 'Great, thanks!', quotedMessageId: ids.answer });
    await phoneSends(ana, { type: 'reaction', reaction: { messageId: ids.answer, emoji: '👍' } });
    ids.photo = await phoneSends(ana, { type: 'image', media: { data: picture(), mimetype: 'image/png', fileName: 'parcel.png' }, caption: 'The parcel' });
    ids.voice = await phoneSends(ana, { type: 'audio', voice: true, media: { data: Buffer.from('OggS voice note').toString('base64'), mimetype: 'audio/ogg' } });
    ids.invoice = await phoneSends(ana, { type: 'document', media: { data: Buffer.from('%PDF-1.4 invoice').toString('base64'), mimetype: 'application/pdf', fileName: 'invoice-1042.pdf' } });
    ids.place = await phoneSends(ana, { type: 'location', location: { name: 'Avenida Paulista, 1578', latitude: -23.5613, longitude: -46.6565 } });
    ids.card = await phoneSends(ana, { type: 'contact', contacts: [{ displayName: 'Carla Dias', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Carla Dias\nTEL;type=CELL:+55 11 98888-7777\nEND:VCARD' }] });
    ids.poll = await deskSends({ poll: { name: 'Delivery time?', options: ['Morning', 'Afternoon'] } });
    await eventually(() => phoneInbox(world.api, ana), (r) => r.body.data.some((m: { id: string }) => m.id === ids.poll));
    await phoneSends(ana, { type: 'poll_vote', pollVote: { messageId: ids.poll, options: ['Afternoon'] } });
    ids.edited = await phoneSends(ana, { text: 'See you at 5' });
    await phoneSends(ana, { type: 'edit', edit: { messageId: ids.edited, text: 'See you at 6' } });
    ids.deleted = await phoneSends(ana, { text: 'Wrong chat, sorry' });
    expect((await world.api.post(`/sandbox/messages/${ids.deleted}/delete`, { body: { forEveryone: true } })).status).toBe(200);
    // Bruno's chat: two unread texts.
    await phoneSends(bruno, { text: 'Hello there' });
    await phoneSends(bruno, { text: 'Do you deliver on Sundays?' });
    // Carla's chat came only with the phone's history sync (this phone was given no past: the
    // engine's history event is raised as an engine raises it).
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    const old = (words: string) => ({ networkMessageId: `H${Math.random().toString(36).slice(2)}`, from: carla.slice(1), type: 'text' as const, text: words, location: null, pushName: null });
    const batch: HistoryBatch = {
      key: `inbox-history-${carla}`,
      chats: [{ chat: carla.slice(1), name: 'Carla Dias' }],
      contacts: [],
      messages: [
        { chat: carla.slice(1), fromMe: false, at: daysAgo(3), message: old('Last week’s order was perfect') },
        { chat: carla.slice(1), fromMe: true, at: daysAgo(2), message: { ...old('Glad to hear it!'), from: null }, status: 'read' },
      ],
      progress: 100,
      done: true,
    };
    await world.gw.gateway.services.engineEvents.history(desk.id, batch);

    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${world.gw.url}/`);
    await page.getByLabel('Email').fill(world.tenant.email);
    await page.getByLabel('Password').fill(world.tenant.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  const screenshotOnFailure = (name: string) => failureScreenshot(() => page, `dashboard-inbox-${name}`);

  it('lists the chats, newest first, each with its name, last message, time and unread badge', async () => {
    screenshotOnFailure('list');
    await page.goto(inbox());
    await chatRow(bruno).waitFor();
    expect(await chatRow(bruno).locator('.chat-name').textContent()).toBe('Bruno Lima');
    expect(await chatRow(bruno).locator('.chat-preview').textContent()).toBe('Do you deliver on Sundays?');
    expect(await chatRow(bruno).locator('.badge').getAttribute('aria-label')).toBe('2 unread');
    expect(await chatRow(bruno).locator('time').count()).toBe(1);
    expect(await chatRow(ana).locator('.chat-name').textContent()).toBe('Ana Souza');
    expect(Number(await chatRow(ana).locator('.badge').textContent())).toBeGreaterThan(5);
    expect(await page.locator('li.chat .chat-name').allTextContents()).toEqual(['Bruno Lima', 'Ana Souza', 'Carla Dias']);
  });

  it('searches the chats by name, and filters them by unread, groups and direct', async () => {
    screenshotOnFailure('search');
    await page.goto(inbox());
    await chatRow(ana).waitFor();
    await page.getByLabel('Search chats').fill('bruno');
    await expect.poll(() => page.locator('li.chat .chat-name').allTextContents()).toEqual(['Bruno Lima']);
    await page.getByLabel('Search chats').fill('');
    await expect.poll(() => page.locator('li.chat').count()).toBe(3);

    await page.getByRole('button', { name: 'Groups', exact: true }).click();
    await page.getByText('No chats match.').waitFor();
    await page.getByRole('button', { name: 'Direct', exact: true }).click();
    await expect.poll(() => page.locator('li.chat').count()).toBe(3);
    await page.getByRole('button', { name: 'Unread', exact: true }).click();
    await expect.poll(() => page.locator('li.chat').count()).toBe(2);
    expect(await page.getByRole('button', { name: 'Unread', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'All', exact: true }).click();
  });

  it('pages through a long chat list', async () => {
    screenshotOnFailure('more-chats');
    const busy = await connectedInstance(world, `Busy desk ${Date.now()}`);
    for (let n = 1; n <= 32; n++) await world.api.post('/sandbox/messages', { body: { from: newPhone(), to: busy.phone, pushName: `Customer ${n}`, text: `Order ${n}` } });
    await page.goto(`${world.gw.url}/#/instances/${busy.id}/inbox`);
    const rows = page.locator('li.chat');
    await expect.poll(() => rows.count()).toBe(30);
    expect(await rows.first().locator('.chat-name').textContent()).toBe('Customer 32');
    await page.getByRole('button', { name: 'Load more chats' }).click();
    await expect.poll(() => rows.count()).toBe(32);
    expect(await rows.last().locator('.chat-name').textContent()).toBe('Customer 1');
    expect(await page.getByRole('button', { name: 'Load more chats' }).count()).toBe(0);
  });

  it('opens a chat: every kind of message drawn, reactions on their message, replies quoting theirs, edits and deletes marked', async () => {
    screenshotOnFailure('thread');
    await page.goto(inbox());
    await chatRow(ana).locator('a').click();
    expect(new URL(page.url()).hash).toBe(`#/instances/${desk.id}/inbox/${ana.slice(1)}`);
    const bubble = (id: string) => page.locator(`.bubble[data-message-id="${id}"]`);
    await bubble(ids.card!).waitFor();
    expect(await page.locator('.thread-title h2').textContent()).toBe('Ana Souza');

    expect(await bubble(ids.greeting!).locator('.body').textContent()).toBe('Hi! Is my order ready?');
    expect(await bubble(ids.answer!).getAttribute('class')).toContain('out');
    // The reaction is drawn on the message it reacts to, not as a message of its own.
    expect(await bubble(ids.answer!).locator('.reactions li').allTextContents()).toEqual(['👍']);
    expect(await page.locator('.bubble', { hasText: 'Reacted' }).count()).toBe(0);
    expect(await bubble(ids.reply!).locator('.quote').textContent()).toBe('You Your order ships today');

    // The picture loads inline through the signed link GraphQL gives (GET /media/<id>?expires=&signature=).
    const photo = bubble(ids.photo!).locator('img');
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
    expect(await photo.getAttribute('src')).toEqual(expect.stringMatching(new RegExp(`^/media/${ids.photo}\\?expires=\\d+&signature=[\\w-]+$`)));
    // The link is the credential: it works without the cookie too.
    const bare = await page.evaluate(async (src) => (await fetch(src!, { credentials: 'omit' })).status, await photo.getAttribute('src'));
    expect(bare).toBe(200);
    expect(await bubble(ids.photo!).locator('figcaption').textContent()).toBe('The parcel');
    expect(await bubble(ids.voice!).locator('audio').getAttribute('src')).toEqual(expect.stringMatching(new RegExp(`^/media/${ids.voice}\\?expires=\\d+&signature=[\\w-]+$`)));
    const invoice = bubble(ids.invoice!).locator('a.document');
    expect(await invoice.getAttribute('download')).toBe('invoice-1042.pdf');
    const download = await page.evaluate(async (href) => {
      const answer = await fetch(href!);
      return { status: answer.status, body: await answer.text() };
    }, await invoice.getAttribute('href'));
    expect(download).toEqual({ status: 200, body: '%PDF-1.4 invoice' });
    expect(await bubble(ids.place!).locator('a').textContent()).toBe('Avenida Paulista, 1578');
    expect(await bubble(ids.card!).locator('.contact-card').textContent()).toBe('👤 Carla Dias +55 11 98888-7777');
    await expect.poll(() => bubble(ids.poll!).locator('.poll-option').allTextContents()).toEqual(['Morning: 0 votes', 'Afternoon: 1 vote']);
    expect(await bubble(ids.edited!).locator('.body').textContent()).toBe('See you at 6');
    expect(await bubble(ids.edited!).locator('.tag').textContent()).toBe('edited');
    expect(await bubble(ids.deleted!).locator('.deleted-mark').textContent()).toBe('🚫 This message was deleted');
  });

  it('marks the messages that came with the phone’s history', async () => {
    screenshotOnFailure('history');
    await page.goto(inbox(carla));
    const bubbles = page.locator('.bubble');
    await expect.poll(() => bubbles.locator('.body').allTextContents()).toEqual(['Last week’s order was perfect', 'Glad to hear it!']);
    expect(await bubbles.locator('.tag').allTextContents()).toEqual(['history', 'history']);
    expect(await page.locator('.day').count()).toBe(2);
  });

  it('pages back to older messages, keeping the place', async () => {
    screenshotOnFailure('older');
    const dan = newPhone();
    for (let n = 1; n <= 45; n++) await world.api.post('/sandbox/messages', { body: { from: dan, to: desk.phone, pushName: 'Dan', text: `Line ${n}` } });
    await page.goto(inbox(dan));
    const bodies = page.locator('.bubble .body');
    await expect.poll(() => bodies.count()).toBe(40);
    expect(await bodies.first().textContent()).toBe('Line 6');
    await page.getByRole('button', { name: 'Load older messages' }).click();
    await expect.poll(() => bodies.count()).toBe(45);
    expect(await bodies.first().textContent()).toBe('Line 1');
    expect(await bodies.last().textContent()).toBe('Line 45');
    expect(await page.getByRole('button', { name: 'Load older messages' }).count()).toBe(0);
  });

  it("sends a text from the send box, as a reply, and the phone receives it", async () => {
    screenshotOnFailure('send');
    await page.goto(inbox(ana));
    await page.locator(`.bubble[data-message-id="${ids.greeting}"]`).getByRole('button', { name: /^Reply to/ }).click();
    expect(await page.locator('.send-box .replying').first().textContent()).toContain('Hi! Is my order ready?');
    await page.getByLabel('Message', { exact: true }).fill('It leaves the warehouse at noon');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const received = await eventually(
      () => phoneInbox(world.api, ana),
      (r) => r.body.data.some((m: { text?: string }) => m.text === 'It leaves the warehouse at noon'),
      15_000,
    );
    const sent = received.body.data.find((m: { text?: string }) => m.text === 'It leaves the warehouse at noon');
    expect(sent.quoted.messageId).toBe(ids.greeting);
    const bubble = page.locator('.bubble.out', { hasText: 'It leaves the warehouse at noon' });
    await bubble.waitFor();
    expect(await bubble.locator('.quote').textContent()).toBe('Ana Souza Hi! Is my order ready?');
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('');
  });

  it('sends a file with a caption from the send box, and the phone receives it', async () => {
    screenshotOnFailure('send-file');
    await page.goto(inbox(ana));
    await page.locator('.thread-title h2').waitFor();
    await page.getByLabel('Attach a file').setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 receipt') });
    await page.getByText('📎 receipt.pdf').waitFor();
    await page.getByLabel('Caption', { exact: true }).fill('Your receipt');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const received = await eventually(
      () => phoneInbox(world.api, ana),
      (r) => r.body.data.some((m: { caption?: string }) => m.caption === 'Your receipt'),
      15_000,
    );
    const file = received.body.data.find((m: { caption?: string }) => m.caption === 'Your receipt');
    expect(file).toMatchObject({ type: 'document', media: { mimetype: 'application/pdf', fileName: 'receipt.pdf' } });
    await page.locator('.bubble.out a.document', { hasText: 'receipt.pdf' }).waitFor();
    expect(await page.getByText('📎 receipt.pdf').count()).toBe(0);
  });

  it('says why a file was refused', async () => {
    screenshotOnFailure('send-refused');
    await page.goto(inbox(ana));
    await page.locator('.thread-title h2').waitFor();
    await page.getByLabel('Attach a file').setInputFiles({ name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => page.locator('.send-box [role=alert]').textContent()).toMatch(/media/);
    await page.getByRole('button', { name: 'Remove the attachment' }).click();
  });

  it('shows a message arriving while the chat is open, and moves its chat to the top, without a reload', async () => {
    screenshotOnFailure('live');
    await page.goto(inbox(ana));
    await page.locator('.thread-title h2').waitFor();
    await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
    await phoneSends(ana, { text: 'Perfect, see you then' });
    await page.locator('.bubble.in', { hasText: 'Perfect, see you then' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('li.chat .chat-name').first().textContent(), { timeout: 15_000 }).toBe('Ana Souza');
    expect(await chatRow(ana).locator('.chat-preview').textContent()).toBe('Perfect, see you then');
    expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
  });

  it('marks a chat read and unread, pins, mutes and archives it, the list showing each', async () => {
    screenshotOnFailure('actions');
    await page.goto(inbox(bruno));
    await page.locator('.thread-title h2', { hasText: 'Bruno Lima' }).waitFor();
    await page.getByRole('button', { name: 'Mark read' }).click();
    await expect.poll(() => chatRow(bruno).locator('.badge').count()).toBe(0);
    await page.getByRole('button', { name: 'Mark unread' }).click();
    await chatRow(bruno).locator('.badge').waitFor();
    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    await chatRow(bruno).getByRole('img', { name: 'Pinned' }).waitFor();
    await expect.poll(() => page.locator('li.chat .chat-name').first().textContent()).toBe('Bruno Lima');
    await page.getByLabel('Mute').selectOption('forever');
    await chatRow(bruno).getByRole('img', { name: 'Muted' }).waitFor();
    await page.getByRole('button', { name: 'Unmute' }).click();
    await expect.poll(() => chatRow(bruno).getByRole('img', { name: 'Muted' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByRole('button', { name: 'Unarchive' }).waitFor();
    await page.getByRole('button', { name: 'Archived', exact: true }).click();
    await expect.poll(() => page.locator('li.chat .chat-name').allTextContents()).toEqual(['Bruno Lima']);
    await page.getByRole('button', { name: 'Unarchive' }).click();
    await expect.poll(() => page.locator('li.chat').count()).toBe(0);
    const answer = await world.api.graphql('query ($id: ID!, $chat: String!) { instance(id: $id) { chat(chatId: $chat) { pinned archived mutedUntil } } }', { id: desk.id, chat: bruno.slice(1) }, { key: world.tenant.liveKey });
    expect(answer.body.data.instance.chat).toEqual({ pinned: true, archived: false, mutedUntil: null });
  });

  it('at 375 px shows the list, then the chat in its place with a way back, nothing scrolling sideways', async () => {
    screenshotOnFailure('narrow');
    await page.setViewportSize({ width: 375, height: 760 });
    try {
      await page.goto(inbox());
      await page.getByRole('button', { name: 'All', exact: true }).click();
      await chatRow(ana).waitFor();
      expect(await page.locator('.thread-pane').isVisible()).toBe(false);
      expect(await outOfReach(page, 375)).toEqual([]);
      await chatRow(ana).locator('a').click();
      await page.locator(`.bubble[data-message-id="${ids.photo}"]`).waitFor();
      expect(await page.locator('.chats-pane').isVisible()).toBe(false);
      expect(await outOfReach(page, 375)).toEqual([]);
      for (const name of ['Send', 'Pin', 'Archive']) {
        const box = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
        expect(box.x >= 0 && box.x + box.width <= 375 && box.y >= 0 && box.y + box.height <= 760, name).toBe(true);
      }
      await page.getByRole('link', { name: 'Back to the chats' }).click();
      await chatRow(bruno).waitFor();
      expect(new URL(page.url()).hash).toBe(`#/instances/${desk.id}/inbox`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
