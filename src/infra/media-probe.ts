import { Invalid } from '../domain/errors.js';
import type { MediaProbe } from '../domain/messages/messages.service.js';
import { describeFailure, type OutboundHttp } from './outbound-http.js';

/** Fetches the media once through the guarded client, counting bytes up to the cap. */
export function createMediaProbe(http: OutboundHttp, timeoutMs: number): MediaProbe {
  return {
    async probe(url, maxBytes) {
      let answer;
      try {
        answer = await http.send('GET', url, { maxBytes });
      } catch (error) {
        throw Invalid.at('mediaUrl', `could not be fetched (${describeFailure(error, timeoutMs, url)})`);
      }
      if (answer.statusCode !== 200) throw Invalid.at('mediaUrl', `answered HTTP ${answer.statusCode}`);
      if (answer.truncated) throw Invalid.at('mediaUrl', `is larger than ${maxBytes} bytes`);
      const contentType = answer.headers['content-type'];
      return { contentType: (Array.isArray(contentType) ? contentType[0] : contentType) ?? '', bytes: answer.body.length };
    },
  };
}
