// Secrets (the bot token, the webhook secret, the store password) that must never reach an output: the one redaction every
// log line and every error the CLI prints goes through. Code should still avoid putting secrets into messages.
import { inspect } from 'node:util';

/** What a redacted secret is replaced with. */
export const REDACTED = '<redacted>';

// Anything shaped like a bot token (`<digits>:<secret>`), raw or URL-encoded, whether or not it was registered:
// an invalid BASE_URL or a sandbox answer can carry a token before the registry knows it. No \b: a token often
// follows `/bot` and may end in `-` or `_`, where \b does not hold; the greedy tail takes the whole secret.
const TOKEN_SHAPE = /(?<!\d)\d+(?::|%3A)[A-Za-z0-9_-]{20,}/gi;
// Matches exactly when TOKEN_SHAPE does (a digit before the colon and 20 secret characters after it), at half its
// cost: most texts (every API answer is scrubbed) hold no token, and are then returned as they are.
const MAY_HOLD_TOKEN_SHAPE = /\d(?::|%3A)[A-Za-z0-9_-]{20}/i;

// The password part of any URL's user info (`redis://user:password@host`), registered or not: a store URL
// pasted into a setting, an error or a log line carries it. The user info is taken to run to the last `@` of
// the URL (a URL parser's reading when nothing but the password holds one), so a password holding an unencoded
// `@`, `/` or `:` is cut whole, at worst with a path that holds an `@`. The URL runs to white space, a quote or
// an angle bracket (an escaped quote, `\"` inside a JSON string, does not end it).
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/\s"<>]*:)(?:\\"|[^\s"<>])*@/gi;

/**
 * Every form a secret can take in an output: as is, URL-encoded (`:` as `%3A`/`%3a`), a token's secret half,
 * and each of those escaped as a string inside JSON or util.inspect output (a log line, a library's debug
 * dump of its arguments), once or twice (such a dump inside a JSON log line).
 */
function formsOf(secret: string, minLength: number): string[] {
  const forms = new Set([secret, encodeURIComponent(secret)]);
  const colon = secret.indexOf(':');
  if (colon >= 0) {
    forms.add(secret.slice(0, colon) + '%3a' + encodeURIComponent(secret.slice(colon + 1)));
    // The secret half alone is as good as the token to whoever knows the bot id (which is public).
    forms.add(secret.slice(colon + 1));
  }
  for (const form of [...forms]) for (const escaped of escapedForms(form)) forms.add(escaped);
  // Short fragments would blank out ordinary words; real tokens, their halves and secrets are longer.
  return [...forms].filter((form) => form.length >= minLength);
}

/** What stands between the quotes when `text` is written as a JSON string or by util.inspect, and those again as JSON. */
function escapedForms(text: string): string[] {
  const json = JSON.stringify(text).slice(1, -1);
  const inspected = inspect(text).slice(1, -1);
  return [json, inspected, JSON.stringify(json).slice(1, -1), JSON.stringify(inspected).slice(1, -1)];
}

/** The shortest of `forms` that every other one contains (a token's secret half), or undefined when none does. */
function probeOf(forms: readonly string[]): string | undefined {
  return [...forms].sort((a, b) => a.length - b.length).find((candidate) => forms.every((form) => form.includes(candidate)));
}

export class Secrets {
  private readonly values = new Map<string, string[]>();
  /** Every form of every secret, longest first; rebuilt when a secret is added or deleted (scrub runs per API answer). */
  private forms: string[] = [];
  /**
   * What a text must contain to hold any form: per secret, the form the others all contain (else every form). Most
   * texts hold none, and looking for a token's secret half alone costs a tenth of looking for its four forms.
   */
  private probes: string[] = [];

  /**
   * Registers a secret: from now on every output drops it. `minLength` guards against blanking ordinary words
   * (tokens and generated secrets are long; a password chosen by a person may be shorter).
   */
  add(secret: string | undefined | null, minLength = 8): void {
    if (secret && secret.length >= minLength) {
      this.values.set(secret, formsOf(secret, minLength));
      this.sortForms();
    }
  }

  delete(secret: string): void {
    if (this.values.delete(secret)) this.sortForms();
  }

  scrub(text: string): string {
    if (this.mayHoldAForm(text)) {
      for (const form of this.forms) {
        if (text.includes(form)) text = text.split(form).join(REDACTED);
      }
    }
    text = redactTokenShapes(text);
    // A URL's password needs both; `@` alone is found at a fraction of the cost of `://`.
    return text.includes('@') && text.includes('://') ? text.replace(URL_PASSWORD, `$1${REDACTED}@`) : text;
  }

  private mayHoldAForm(text: string): boolean {
    for (const probe of this.probes) if (text.includes(probe)) return true;
    return false;
  }

  // Longest first, so that the whole token goes before its secret half leaves `123:<redacted>` behind.
  private sortForms(): void {
    this.forms = [...this.values.values()].flat().sort((a, b) => b.length - a.length);
    this.probes = [...this.values.values()].flatMap((forms) => {
      const probe = probeOf(forms);
      return probe === undefined ? forms : [probe];
    });
  }
}

/** `text` with anything shaped like a bot token (raw or URL-encoded) replaced, registered or not. */
export function redactTokenShapes(text: string): string {
  return MAY_HOLD_TOKEN_SHAPE.test(text) ? text.replace(TOKEN_SHAPE, REDACTED) : text;
}

/** The process-wide registry: the CLI adds the token and webhook secret as soon as it reads them. */
export const processSecrets = new Secrets();
