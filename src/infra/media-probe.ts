import { Invalid } from '../domain/errors.js';
import type { MediaProbe } from '../domain/messages/messages.service.js';

/** Fetches the media once, counting bytes up to the cap; redirects are not followed. */
export function createMediaProbe(timeoutMs: number): MediaProbe {
  return {
    async probe(url, maxBytes) {
      let response: Response;
      try {
        response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        const e = error as Error & { cause?: { code?: string } };
        const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message);
        throw new Invalid(`mediaUrl: could not be fetched (${why})`);
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new Invalid(`mediaUrl: answered HTTP ${response.status}`);
      }
      const declared = Number(response.headers.get('content-length') ?? NaN);
      if (declared > maxBytes) {
        await response.body?.cancel();
        throw new Invalid(`mediaUrl: is larger than ${maxBytes} bytes`);
      }
      let bytes = 0;
      const reader = response.body?.getReader();
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        bytes += chunk.value.byteLength;
        if (bytes > maxBytes) {
          await reader?.cancel();
          throw new Invalid(`mediaUrl: is larger than ${maxBytes} bytes`);
        }
      }
      return { contentType: response.headers.get('content-type') ?? '', bytes };
    },
  };
}
