// Keeps web pages out of the sandbox. Anything on this machine may call it as any user (that is the point
// of a local playground), but a page the developer visits must not: a request whose Host header names
// another server (a DNS-rebinding name that resolves here) is refused with 421, and one that a page of
// another origin sent (its Origin header) with 403. Scripts, bot libraries and the CLI send no Origin and
// address the sandbox by the name they connected to, so they are served as before; so is its own page.
import { networkInterfaces } from 'node:os';
import { SandboxApiFailure } from './api-failure.js';

/** The names a request may address the sandbox by before it is told where it listens. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]']);
/** Longest Host or Origin value quoted back in a refusal (they are the caller's text). */
const QUOTED_MAX = 100;

/** The host name of a Host header value (`name`, `name:port`, `[v6]:port`), as URLs write it; undefined when it is not one. */
function hostNameOf(hostHeader: string): string | undefined {
  // User info, a path or spaces mean the value is not a host and port.
  if (/[/?#@\\\s]/.test(hostHeader)) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return undefined;
  }
}

/** A listen address as it appears in a URL's host name: IPv6 in brackets, lower case. */
function asUrlHostName(host: string): string | undefined {
  return hostNameOf(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
}

const quoted = (value: string) => JSON.stringify(value.length > QUOTED_MAX ? `${value.slice(0, QUOTED_MAX)}…` : value);

export class RequestGuard {
  private readonly names = new Set<string>(LOOPBACK_NAMES);
  /** Host header values already judged good: nearly every request repeats one of a handful. */
  private readonly goodHosts = new Set<string>();

  /**
   * Adds the address the sandbox listens on to the names it answers to; a wildcard address (0.0.0.0, ::)
   * adds the addresses of this machine's network interfaces, by which other machines reach it.
   */
  listeningOn(host: string): void {
    if (WILDCARD_HOSTS.has(host)) {
      for (const entries of Object.values(networkInterfaces())) {
        for (const entry of entries ?? []) if (entry.scopeid === undefined || entry.scopeid === 0) this.addName(entry.address);
      }
      return;
    }
    this.addName(host);
  }

  /** The names the sandbox answers to, as a refusal lists them. */
  get allowedNames(): string[] {
    return [...this.names];
  }

  private addName(host: string): void {
    const name = asUrlHostName(host);
    if (name !== undefined) this.names.add(name);
  }

  /** The refusal for a request with these Host and Origin headers, or undefined when it may be served. */
  refusal(hostHeader: string | undefined, origin: string | undefined): SandboxApiFailure | undefined {
    // No Host at all is an HTTP/1.0 client (a browser always sends one): not a page.
    if (hostHeader !== undefined && !this.goodHosts.has(hostHeader)) {
      const name = hostNameOf(hostHeader);
      if (name === undefined || !this.names.has(name)) {
        return new SandboxApiFailure(
          421,
          `Misdirected Request: the sandbox answers only to ${this.allowedNames.join(', ')} (with any port), not to ${quoted(hostHeader)}; see "Who may use the sandbox" in docs/sandbox.md`,
        );
      }
      if (this.goodHosts.size < 64) this.goodHosts.add(hostHeader);
    }
    if (origin !== undefined && !this.isOwnOrigin(origin, hostHeader)) {
      return new SandboxApiFailure(
        403,
        `Forbidden: requests from a web page of another origin (${quoted(origin)}) are refused; the sandbox's own page, scripts and bot libraries (no Origin header) are served`,
      );
    }
    return undefined;
  }

  /** Whether a page with this Origin is the sandbox's own page, as reached with this Host (same scheme, name and port). */
  private isOwnOrigin(origin: string, hostHeader: string | undefined): boolean {
    if (hostHeader === undefined) return false;
    try {
      const page = new URL(origin);
      return page.protocol === 'http:' && page.host === new URL(`http://${hostHeader}`).host;
    } catch {
      // `null` (a sandboxed frame, a file) and anything else that is not an origin.
      return false;
    }
  }
}
