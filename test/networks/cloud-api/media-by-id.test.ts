// Media sent by id: the id of a file the sending number uploaded, as the API gives it, and nothing else.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CloudApi } from './index.js';
import { NUMBER, USER, graph, setup } from './test-helpers.js';
import { upload } from './upload.js';

const MESSAGES = `/v23.0/${NUMBER.phoneNumberId}/messages`;
const OTHER = { phoneNumberId: '206540352242922', accessToken: 'EAAG-other-token', appSecret: 'other-secret', displayPhoneNumber: '15550783882' };

let api: CloudApi;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ api, close } = await setup());
  api.addNumber(OTHER);
  api.openWindow(NUMBER.phoneNumberId, USER);
});
afterEach(async () => close());

describe('media by id', () => {
  it('sends a file the number uploaded, and keeps its bytes for a test to read', async () => {
    const bytes = new Uint8Array([1, 2, 3, 4]);
    const id = await upload(api, NUMBER, bytes, 'audio/ogg');
    const res = await graph(api, 'POST', MESSAGES, { messaging_product: 'whatsapp', to: USER, type: 'audio', audio: { id, voice: true } });
    expect(res.status).toBe(200);
    expect(api.sent()[0]?.body).toMatchObject({ type: 'audio', audio: { id, voice: true } });
    expect(api.uploaded(id)).toEqual({ phoneNumberId: NUMBER.phoneNumberId, mimeType: 'audio/ogg', bytes: Buffer.from(bytes) });
  });

  it("refuses an id nobody uploaded, or another number's upload, as an invalid parameter", async () => {
    const theirs = await upload(api, OTHER, new Uint8Array([9]), 'image/png');
    for (const id of ['1003383421387256', theirs]) {
      const res = await graph(api, 'POST', MESSAGES, { messaging_product: 'whatsapp', to: USER, type: 'image', image: { id } });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: 100, error_data: { details: "Param image['id'] is not a valid media id for this phone number." } });
    }
    expect(api.sent()).toEqual([]);
  });
});
