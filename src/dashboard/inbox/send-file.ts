/** A file's kind as the send API names it, from its MIME type. */
export function mediaTypeOf(mimetype: string): 'image' | 'video' | 'audio' | 'document' {
  if (/^image\/(jpeg|png|webp|gif)$/.test(mimetype)) return 'image';
  if (mimetype.startsWith('video/')) return 'video';
  if (mimetype.startsWith('audio/')) return 'audio';
  return 'document';
}

async function base64Of(file: File): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
  return url.slice(url.indexOf(',') + 1);
}

/**
 * Sends a file through the instance (POST /chat/instances/<id>/messages, the session variant the
 * cookie opens); the problems in words, none when it was accepted.
 */
export async function sendFile(instanceId: string, input: { to: string; file: File; caption?: string; quotedMessageId?: string }): Promise<string[]> {
  const mimetype = input.file.type || 'application/octet-stream';
  const body = {
    to: input.to,
    media: { data: await base64Of(input.file), mimetype, fileName: input.file.name },
    mediaType: mediaTypeOf(mimetype),
    ...(input.caption ? { caption: input.caption } : {}),
    ...(input.quotedMessageId ? { quotedMessageId: input.quotedMessageId } : {}),
  };
  let response: Response;
  try {
    response = await fetch(`/chat/instances/${encodeURIComponent(instanceId)}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    return ['The gateway cannot be reached. Check your connection and try again.'];
  }
  if (response.ok) return [];
  const answer = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  return [answer?.error?.message ?? `The gateway answered ${response.status}.`];
}
