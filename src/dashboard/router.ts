import { useEffect, useState } from 'preact/hooks';

/** Pages live in the hash (#/instances/<id>), so the gateway serves one file for all of them. */
export type Route =
  | { page: 'instances' }
  | { page: 'instance'; id: string }
  | { page: 'messages' }
  | { page: 'keys' }
  /** The first account, from the one-time link the gateway prints (#/setup/<token>). */
  | { page: 'setup'; token: string };

export function routeOf(hash: string): Route {
  const [, page, id] = hash.replace(/^#/, '').split('/');
  if (page === 'instances' && id) return { page: 'instance', id: decodeURIComponent(id) };
  if (page === 'messages') return { page: 'messages' };
  if (page === 'keys') return { page: 'keys' };
  if (page === 'setup' && id) return { page: 'setup', token: decodeURIComponent(id) };
  return { page: 'instances' };
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

export const hrefOf = (route: Exclude<Route, { page: 'setup' }>) => (route.page === 'instance' ? `#/instances/${encodeURIComponent(route.id)}` : `#/${route.page}`);
