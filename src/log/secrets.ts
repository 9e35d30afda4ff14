// Secrets (the bot token, the webhook secret) that must never reach an output. Every log line passes
// through scrub() as a last line of defence; code should still avoid putting secrets into messages at all.
export class Secrets {
  private readonly values = new Set<string>();

  add(secret: string | undefined | null): void {
    // Very short strings would blank out ordinary words; real tokens and secrets are longer.
    if (secret && secret.length >= 8) this.values.add(secret);
  }

  delete(secret: string): void {
    this.values.delete(secret);
  }

  scrub(text: string): string {
    for (const secret of this.values) {
      if (text.includes(secret)) text = text.split(secret).join('<redacted>');
    }
    return text;
  }
}

/** The process-wide registry: the CLI adds the token and webhook secret as soon as it reads them. */
export const processSecrets = new Secrets();
