import { Invalid, Unavailable } from '../domain/errors.js';
import { MediaExpired } from '../domain/media/media-source.js';
import type { MediaProbe } from '../domain/media/media-probe.js';
import { sniffMediaType } from './media-sniff.js';
import { describeFailure, type OutboundHttp } from './outbound-http.js';

/** Fetches the media once through the guarded client, counting bytes up to the cap. */
export function createMediaProbe(http: OutboundHttp, timeoutMs: number): MediaProbe {
  return {
    async probe(url, maxBytes, field) {
      let answer;
      try {
        answer = await http.send('GET', url, { maxBytes });
      } catch (error) {
        throw Invalid.at(field, `could not be fetched (${describeFailure(error, timeoutMs, url)})`);
      }
      if (answer.statusCode !== 200) throw Invalid.at(field, `answered HTTP ${answer.statusCode}`);
      if (answer.truncated) throw Invalid.at(field, `is larger than ${maxBytes} bytes`);
      const contentType = answer.headers['content-type'];
      return { contentType: (Array.isArray(contentType) ? contentType[0] : contentType) ?? '', bytes: answer.body.length, sniffed: await sniffMediaType(answer.body) };
    },
    sniff: sniffMediaType,
    async fetch(url, maxBytes) {
      let answer;
      try {
        answer = await http.send('GET', url, { maxBytes });
      } catch (error) {
        throw new Unavailable(`The media URL could not be fetched (${describeFailure(error, timeoutMs, url)}).`);
      }
      if (answer.statusCode >= 500) throw new Unavailable(`The media URL answered HTTP ${answer.statusCode}.`);
      // The source took it down or changed it: the file that was sent is gone for good.
      if (answer.statusCode !== 200 || answer.truncated) throw new MediaExpired();
      const contentType = answer.headers['content-type'];
      return { contentType: (Array.isArray(contentType) ? contentType[0] : contentType) ?? '', bytes: answer.body };
    },
  };
}
