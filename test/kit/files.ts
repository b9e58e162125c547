/** A valid 1×1 PNG: what a file host serves when a test sends a picture by link. */
export const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Ogg's page checksum: CRC-32 with polynomial 0x04c11db7, not reflected, starting at 0. */
function oggCrc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

/** One Ogg page holding whole packets (each under 255 bytes). */
function oggPage(packets: Buffer[], { sequence, granule, flags }: { sequence: number; granule: bigint; flags: number }): Buffer {
  const header = Buffer.alloc(27 + packets.length);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(0x5eed, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = packets.length;
  packets.forEach((packet, index) => (header[27 + index] = packet.length));
  const page = Buffer.concat([header, ...packets]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/**
 * A voice note as the network's apps record it: an Ogg/Opus stream (RFC 7845), mono 48 kHz, of
 * `frames` 20 ms frames of silence.
 */
export function oggOpus(frames = 50): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1; // version
  head[9] = 1; // channels
  head.writeUInt16LE(312, 10); // pre-skip
  head.writeUInt32LE(48_000, 12);
  const vendor = Buffer.from('gateway tests');
  const tags = Buffer.concat([Buffer.from('OpusTags', 'latin1'), Buffer.from(new Uint32Array([vendor.length]).buffer), vendor, Buffer.alloc(4)]);
  // TOC 0xF8 (CELT, fullband, 20 ms, one frame) and a frame that decodes to silence.
  const silence = Buffer.from([0xf8, 0xff, 0xfe]);
  return Buffer.concat([
    oggPage([head], { sequence: 0, granule: 0n, flags: 0x02 }),
    oggPage([tags], { sequence: 1, granule: 0n, flags: 0 }),
    oggPage(Array.from({ length: frames }, () => silence), { sequence: 2, granule: BigInt(frames * 960), flags: 0x04 }),
  ]);
}

/** MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, 417 bytes each) of silence: an MP3 file. */
export function mp3(frames = 20): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** HTML a browser would run: what must never pass for a picture. */
export const HTML_PAGE = Buffer.from('<!doctype html><html><body><script>document.title = "ran"</script></body></html>');
