/**
 * What is wrong with `origin` as one of the origins a browser page may call the API from, or
 * `undefined` when it is one: `http` or `https`, a host and an optional port, exactly as a browser
 * sends it in `Origin` (`https://app.example.com`, `http://localhost:5173`: no path, no trailing
 * slash, lower case). `*` is refused: each origin is listed, so no other site's page can drive the
 * API with a token it holds (or, with `serve --auth none`, with none at all).
 */
export function corsOriginProblem(origin: string): string | undefined {
  if (origin === '*') return 'list each origin (https://app.example.com): "*" is not allowed';
  if (!URL.canParse(origin)) return 'not a URL: give scheme://host[:port]';
  const url = new URL(origin);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'the scheme must be http or https';
  if (url.origin !== origin) return `an origin is scheme://host[:port] only: did you mean ${url.origin}?`;
  return undefined;
}
