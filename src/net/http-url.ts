/** Which URLs `src/net` accepts: absolute http(s) without credentials. */

/** A parsed URL, or why it was not accepted. */
export type HttpUrlResult = { readonly url: URL } | { readonly problem: string };

/** Parses `raw` (relative to `base` when given) and accepts only http: and https: URLs without userinfo. */
export function parseHttpUrl(raw: string, base?: URL): HttpUrlResult {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return { problem: 'not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `scheme ${url.protocol} is not http: or https:` };
  if (url.username !== '' || url.password !== '') return { problem: 'URLs with credentials are not accepted' };
  if (url.hostname === '') return { problem: 'no host' };
  return { url };
}
