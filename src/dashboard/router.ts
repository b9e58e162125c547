import { useEffect, useState } from 'preact/hooks';

/** Pages live in the hash (#/instances/<id>), so the gateway serves one file for all of them. */
export type Route =
  | { page: 'instances' }
  | { page: 'instance'; id: string }
  /** An instance's chats (#/instances/<id>/inbox), one of them open (…/inbox/<chat's node id>). */
  | { page: 'inbox'; id: string; chat: string | null }
  | { page: 'messages' }
  | { page: 'keys' }
  /** The first account, from the one-time link the gateway prints (#/setup/<token>). */
  | { page: 'setup'; token: string }
  /** A hash no page answers to: said so, rather than showing another page in its place. */
  | { page: 'not-found' };

export function routeOf(hash: string): Route {
  const [, page, id, sub, chat, ...rest] = hash.replace(/^#/, '').split('/');
  if (page === 'instances' && id && sub === 'inbox' && !rest.some(Boolean)) return { page: 'inbox', id: decodeURIComponent(id), chat: chat ? decodeURIComponent(chat) : null };
  if (sub || chat || rest.some(Boolean)) return { page: 'not-found' };
  if (!page) return { page: 'instances' };
  if (page === 'instances') return id ? { page: 'instance', id: decodeURIComponent(id) } : { page: 'instances' };
  if (id) return page === 'setup' ? { page: 'setup', token: decodeURIComponent(id) } : { page: 'not-found' };
  if (page === 'messages') return { page: 'messages' };
  if (page === 'keys') return { page: 'keys' };
  return { page: 'not-found' };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(routeOf(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export function hrefOf(route: Exclude<Route, { page: 'setup' } | { page: 'not-found' }>): string {
  if (route.page === 'instance') return `#/instances/${encodeURIComponent(route.id)}`;
  if (route.page === 'inbox') return `#/instances/${encodeURIComponent(route.id)}/inbox${route.chat ? `/${encodeURIComponent(route.chat)}` : ''}`;
  return `#/${route.page}`;
}
