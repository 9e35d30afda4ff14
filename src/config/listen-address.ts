// Parses `host:port` (IPv6 as `[::1]:8080`) for the server settings.
import type { ListenAddress } from './types.js';

/** Returns the address, or a message saying what is wrong with the text. */
export function parseListenAddress(text: string): ListenAddress | string {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(text.trim());
  if (!match) return `must be host:port, such as 127.0.0.1:8080 or [::1]:8080 (got '${text}')`;
  const port = Number(match[3]);
  if (port > 65535) return `port must be between 0 and 65535 (got ${port})`;
  return { host: (match[1] ?? match[2])!, port };
}

export function formatListenAddress(address: ListenAddress): string {
  return address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
}
