import { useEffect, useState } from 'preact/hooks';
import { parseRoute, type Route } from './hash-route.js';

/** The page the URL's hash names now, updated on every `hashchange`. */
export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}
