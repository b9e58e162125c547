import type { EngineMessage } from '../../domain/network/engine-messages.js';
import { MAX_MEDIA_BYTES } from '../../domain/media/limits.js';
import { bytesMismatch, mediaTypeAllows } from '../../domain/media/content-types.js';
import { sniffMediaType } from '../../infra/media-sniff.js';
import { describeFailure, type OutboundHttp } from '../../infra/outbound-http.js';

/** Why a message's media cannot be sent: for good (it fails), or for now (it stays queued). */
export class MediaUnavailable extends Error {
  constructor(
    message: string,
    readonly lasting: boolean,
  ) {
    super(message);
  }
}

/**
 * The media of a message, fetched through the gateway's guarded client: the library is only ever
 * handed bytes, never a URL it would open on its own. Type and bytes are checked again, since the URL
 * may serve another file than when the send was accepted.
 */
export function mediaFetcher(http: OutboundHttp, timeoutMs: number) {
  return async (message: EngineMessage): Promise<{ bytes: Buffer; contentType: string }> => {
    const type = message.type as 'image' | 'video' | 'audio' | 'document' | 'sticker';
    let answer;
    try {
      answer = await http.send('GET', message.mediaUrl!, { maxBytes: MAX_MEDIA_BYTES });
    } catch (error) {
      throw new MediaUnavailable(`the media could not be fetched (${describeFailure(error, timeoutMs, message.mediaUrl!)})`, false);
    }
    if (answer.statusCode >= 500) throw new MediaUnavailable(`the media URL answered HTTP ${answer.statusCode}`, false);
    if (answer.statusCode !== 200) throw new MediaUnavailable(`the media URL answered HTTP ${answer.statusCode}`, true);
    if (answer.truncated) throw new MediaUnavailable(`the media is larger than ${MAX_MEDIA_BYTES} bytes`, true);
    const served = answer.headers['content-type'];
    const contentType = (Array.isArray(served) ? served[0] : served) ?? '';
    if (!mediaTypeAllows(type, contentType)) throw new MediaUnavailable(`the media URL now serves ${contentType || 'no content type'}, not a ${type}`, true);
    const mismatch = bytesMismatch(type, contentType, await sniffMediaType(answer.body));
    if (mismatch) throw new MediaUnavailable(`the media URL now serves ${contentType}, but ${mismatch}`, true);
    return { bytes: answer.body, contentType: contentType.split(';')[0]!.trim() };
  };
}
