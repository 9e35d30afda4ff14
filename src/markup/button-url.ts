// The service's check of an inline button's URL, shared by the sandbox (which refuses a bad one with the
// service's 400) and `hearsay check` (which reports it before the service would).

/**
 * Why the service refuses `url` on an inline button, in its own words ("Unsupported URL protocol", "Wrong
 * HTTP URL", "URL host is empty"), or undefined when it is accepted: http(s) to a host name with a dot (or
 * an IP address), or a tg:// (or ton://) link; no scheme means http.
 */
export function buttonUrlProblem(url: string): string | undefined {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):(?!\d)/.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'tg' || scheme === 'ton') return undefined;
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return 'Unsupported URL protocol';
  let host: string;
  try {
    host = new URL(scheme === undefined ? `http://${url}` : url).hostname;
  } catch {
    return 'Wrong HTTP URL';
  }
  if (host === '') return 'URL host is empty';
  const ip = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
  if (!ip && !/\.[a-z][a-z0-9-]*[a-z0-9]$/i.test(host.replace(/\.$/, ''))) return 'Wrong HTTP URL';
  return undefined;
}
