// Why the sandbox (and its chat page) could not listen, said so that a new user knows what to change:
// the usual causes are a sandbox or demo still running on the port, a privileged port, or a wrong --host.

/** The message for a failed listen on host:port; `host` as written in a URL (IPv6 in brackets). */
export function listenFailureMessage(host: string, port: number, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const address = `${host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `cannot listen on ${address}: the port is already in use (is another \`hearsay start\` or \`hearsay sandbox\` still running?); stop it, or choose another port with --port (0 picks a free one)`;
    case 'EACCES':
      return `cannot listen on ${address}: permission denied (ports below 1024 need privileges); choose another port with --port`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${address}: this machine has no such address; check --host (127.0.0.1 keeps the sandbox local)`;
    default:
      return `cannot listen on ${address}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
