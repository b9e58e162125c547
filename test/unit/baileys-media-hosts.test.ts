import { describe, expect, it } from 'vitest';
import { DEFAULT_MEDIA_HOST, MediaHosts, validHosts } from '../../src/engines/baileys/media-hosts.js';

describe('the media hosts CHAT-BAILEYS fetches received files from', () => {
  it('keeps host names and host:port only, lower-cased, each once', () => {
    expect(validHosts(['MMG.whatsapp.net', 'media.example:8443', '127.0.0.1:9000', '[::1]:9000', 'mmg.whatsapp.net', null, undefined, ''])).toEqual([
      'mmg.whatsapp.net',
      'media.example:8443',
      '127.0.0.1:9000',
      '[::1]:9000',
    ]);
    expect(validHosts(['user@evil.example', 'evil.example/path', 'evil.example:80:81', 'https://evil.example', 'a b', '-bad.example'])).toEqual([]);
  });

  it("on the live network: the hosts announced when the file came, then those announced since, then the network's default", () => {
    const hosts = new MediaHosts(DEFAULT_MEDIA_HOST);
    expect(hosts.forFile(undefined)).toEqual([DEFAULT_MEDIA_HOST]);
    hosts.learn(['media-fra.cdn.example', 'bad host']);
    expect(hosts.forFile(['media-lis.cdn.example'])).toEqual(['media-lis.cdn.example', 'media-fra.cdn.example', DEFAULT_MEDIA_HOST]);
  });

  it('against a local network: only what it announced, and nothing before it announced anything', () => {
    const hosts = new MediaHosts(null);
    expect(hosts.forFile(undefined)).toEqual([]);
    // An answer that names no usable host leaves what was known.
    hosts.learn(['127.0.0.1:9443']);
    hosts.learn(['not a host']);
    expect(hosts.forFile([])).toEqual(['127.0.0.1:9443']);
  });
});
