// Why a server could not listen, said so that the operator knows what to change: the usual causes are
// another program on the port, a privileged port, or an address this machine does not have.

export interface ListenHints {
  /** Where the port is chosen, e.g. "--port (0 picks a free one)" or "webhook.listen (HEARSAY_WEBHOOK_LISTEN, --webhook-listen)". */
  port: string;
  /** Where the address is chosen. */
  host: string;
  /** What is most likely holding the port already. */
  likelyHolder: string;
}

/** The message for a failed listen on `address` (host:port as written in a URL, IPv6 in brackets). */
export function listenFailureMessage(address: string, error: unknown, hints: ListenHints): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EADDRINUSE':
      return `cannot listen on ${address}: the port is already in use (is ${hints.likelyHolder} still running?); stop it, or choose another port with ${hints.port}`;
    case 'EACCES':
      return `cannot listen on ${address}: permission denied (ports below 1024 need privileges); choose another port with ${hints.port}`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${address}: this machine has no such address; check ${hints.host}`;
    default:
      return `cannot listen on ${address}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Hints for the sandbox and the embedded demo, whose address comes from --host and --port. */
export const SANDBOX_LISTEN_HINTS: ListenHints = {
  port: '--port (0 picks a free one)',
  host: '--host (127.0.0.1 keeps the sandbox local)',
  likelyHolder: 'another `hearsay start` or `hearsay sandbox`',
};

/** Hints for a server whose address is a `host:port` setting. */
export function settingListenHints(setting: string, env: string, flag: string): ListenHints {
  const where = `${setting} (${env}, ${flag})`;
  return { port: where, host: where, likelyHolder: 'another hearsay or another server' };
}
