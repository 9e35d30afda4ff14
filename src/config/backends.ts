// The configuration's `backends:` — the operator's HTTP services the rules call and notify, by name. Each
// backend's `${NAME}` placeholders (in its url and header values) are filled from the environment variable NAME
// or the file named by NAME_FILE, and every header value and filled secret is registered as a secret before
// anything could print it. The schema has checked the shapes; this checks what it cannot (a plain http:// url
// that leaves the machine, a variable that is not set) and gives each problem its file position.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BackendSettings as BackendFileSettings } from '../generated/config-schema.js';
import type { Secrets } from '../log/secrets.js';
import { ConfigProblem, type ConfigSource } from './errors.js';
import type { LoadedConfigFile } from './file.js';
import { storeUrlForDisplay } from './store.js';
import type { BackendSettings } from './types.js';

/** The defaults of a backend's settings (docs/configuration.md lists them). */
export const BACKEND_DEFAULTS = {
  timeoutMs: 5000,
  retries: 1,
  maxResponseBytes: 256 * 1024,
  failures: 5,
  coolDownMs: 30_000,
  giveUpAfterMs: 24 * 3_600_000,
} as const;

/** A backend at `url` with every other setting at its default. */
export function defaultBackend(name: string, url: string): BackendSettings {
  const { timeoutMs, retries, maxResponseBytes, failures, coolDownMs, giveUpAfterMs } = BACKEND_DEFAULTS;
  return { name, url, headers: {}, timeoutMs, retries, maxResponseBytes, circuitBreaker: { failures, coolDownMs }, giveUpAfterMs };
}

/** The shortest filled secret redacted wherever it appears (shorter ones would blank ordinary words). */
const SECRET_REDACT_MIN = 4;
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `5s` → 5000, `250ms` → 250, `24h` → 86400000; the schema guarantees the shape. */
export function backendDurationMs(text: string): number {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : 0;
}

/** What reading the backends needs besides the file: the environment (and where relative secret files are). */
export interface BackendReadContext {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly secrets: Secrets;
  /** The file's name as messages show it. */
  readonly shownPath: string;
}

/** The backends the config file declares, secrets filled; every problem is added to `problems`. */
export function readBackends(file: LoadedConfigFile | null, context: BackendReadContext, problems: ConfigProblem[]): Record<string, BackendSettings> {
  const declared = file?.content.backends ?? {};
  const backends: Record<string, BackendSettings> = {};
  for (const [name, raw] of Object.entries(declared)) {
    if (raw === undefined) continue;
    const at = (key: string): ConfigSource => ({ kind: 'file', file: context.shownPath, ...file!.positionOf(`backends.${name}${key ? `.${key}` : ''}`) });
    const before = problems.length;
    const backend = readBackend(name, raw, context, (key, message) => problems.push(new ConfigProblem(`backends.${name}`, at(key), message)));
    if (problems.length === before) backends[name] = backend;
  }
  return backends;
}

type Report = (key: string, message: string) => void;

function readBackend(name: string, raw: BackendFileSettings, context: BackendReadContext, report: Report): BackendSettings {
  const url = fillSecrets(raw.url, `backends.${name}.url`, context, (message) => report('url', message));
  checkUrl(name, url, raw, report);
  const headers: Record<string, string> = {};
  for (const [header, value] of Object.entries(raw.headers ?? {})) {
    if (value === undefined) continue;
    const filled = fillSecrets(value, `backends.${name}.headers.${header}`, context, (message) => report(`headers.${header}`, message));
    // Every header value is the operator's secret (an API key need not come through ${...}).
    context.secrets.add(filled);
    if (/[\r\n]/.test(filled)) report(`headers.${header}`, `backends.${name}.headers.${header} holds a line break once its secrets are filled in`);
    headers[header] = filled;
  }
  const breaker = raw.circuit_breaker ?? {};
  return {
    name,
    url: url.replace(/\/+$/, ''),
    headers,
    timeoutMs: raw.timeout ? backendDurationMs(raw.timeout) : BACKEND_DEFAULTS.timeoutMs,
    retries: raw.retries ?? BACKEND_DEFAULTS.retries,
    maxResponseBytes: raw.max_response_bytes ?? BACKEND_DEFAULTS.maxResponseBytes,
    circuitBreaker: {
      failures: breaker.failures ?? BACKEND_DEFAULTS.failures,
      coolDownMs: breaker.cool_down ? backendDurationMs(breaker.cool_down) : BACKEND_DEFAULTS.coolDownMs,
    },
    giveUpAfterMs: raw.give_up_after ? backendDurationMs(raw.give_up_after) : BACKEND_DEFAULTS.giveUpAfterMs,
  };
}

/** The url must parse, carry no query, fragment or password, and leave the machine over https unless allowed. */
function checkUrl(name: string, url: string, raw: BackendFileSettings, report: Report): void {
  // Quoted back as written (its ${...} unfilled), never with a password in it.
  const shown = `'${storeUrlForDisplay(raw.url)}'`;
  if (!URL.canParse(url)) return report('url', `backends.${name}.url is not a valid URL (got ${shown})`);
  const parsed = new URL(url);
  if (parsed.search || parsed.hash)
    report('url', `backends.${name}.url takes no query or fragment: give the base, and the rest in each call's path (got ${shown})`);
  if (parsed.username || parsed.password) report('url', `backends.${name}.url must not carry a user or password: send them in a header, e.g. Authorization`);
  if (parsed.protocol === 'http:' && raw.allow_http !== true && !isLoopback(parsed.hostname))
    report(
      'url',
      `backends.${name}.url is plain http:// to ${parsed.hostname}, so its headers and answers could be read on the way: use https://, or set allow_http: true if that is intended`,
    );
}

/** Whether a host name is this machine (127.0.0.0/8, ::1, localhost): plain http there never leaves it. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** `text` with every `${NAME}` filled from NAME or the file named by NAME_FILE (registered as secrets); problems name the variable, never its value. */
function fillSecrets(text: string, where: string, { env, cwd, secrets }: BackendReadContext, report: (message: string) => void): string {
  return text.replace(PLACEHOLDER, (_, variable: string) => {
    const direct = env[variable];
    const file = env[`${variable}_FILE`]?.trim();
    if (direct && file) {
      report(`${where} uses \${${variable}}: set either ${variable} or ${variable}_FILE, not both`);
      return '';
    }
    if (direct) {
      secrets.add(direct, SECRET_REDACT_MIN);
      return direct;
    }
    if (!file) {
      report(`${where} uses \${${variable}}, which is not set: set the environment variable ${variable} (or ${variable}_FILE to a file holding it)`);
      return '';
    }
    try {
      // Only the trailing newline an editor adds is dropped.
      const value = readFileSync(resolve(cwd, file), 'utf8').replace(/\r?\n$/, '');
      secrets.add(value, SECRET_REDACT_MIN);
      if (!value) report(`${where} uses \${${variable}}, and the file ${file} named by ${variable}_FILE is empty`);
      return value;
    } catch (error) {
      report(`${where} uses \${${variable}}: cannot read the file ${file} named by ${variable}_FILE (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      return '';
    }
  });
}
