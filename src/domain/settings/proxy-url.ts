import { z } from 'zod';

const SCHEMES = ['http:', 'https:', 'socks:', 'socks4:', 'socks4a:', 'socks5:', 'socks5h:'];
const rule = 'must be a proxy URL: http://, https:// or socks5:// (socks4://), with a host and a port, optionally user:password@';

/** A proxy's URL as a settings body gives it (docs/settings.md, "Proxy"). */
export const proxyUrlInput = z
  .string({ message: rule })
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine((text) => {
    if (!URL.canParse(text)) return false;
    const url = new URL(text);
    return SCHEMES.includes(url.protocol) && url.hostname !== '' && url.port !== '' && (url.pathname === '' || url.pathname === '/') && url.search === '' && url.hash === '';
  }, rule);

/** The URL without its credentials: what is answered, logged or shown (a proxy's password never is). */
export function proxyUrlShown(text: string): string {
  const url = new URL(text);
  const user = url.username ? `${decodeURIComponent(url.username)}:***@` : '';
  return `${url.protocol}//${user}${url.host}`;
}
