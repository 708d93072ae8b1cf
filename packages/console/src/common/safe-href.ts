/** The only schemes a rendered link may open: nothing that runs script or reaches into the console. */
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * `href` normalized when it is an absolute http, https or mailto URL; `undefined` for anything else
 * (`javascript:`, `data:`, relative paths, garbage), which the caller shows as text instead.
 */
export function safeHref(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return undefined;
  }
  return SAFE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}
