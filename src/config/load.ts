// Builds the service configuration from its layers: defaults < config file < environment < flags.
// Every problem in every layer is collected, so one run shows everything to fix.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, relative, resolve, isAbsolute } from 'node:path';
import { configSchema } from '../generated/config-schema.js';
import { processSecrets, redactTokenShapes, type Secrets } from '../log/secrets.js';
import { ConfigError, ConfigProblem, type ConfigSource } from './errors.js';
import { readConfigFile, type LoadedConfigFile } from './file.js';
import { parseListenAddress } from './listen-address.js';
import { describeSchemaError, validatorFor } from './schema-messages.js';
import { SETTINGS, type SettingSpec } from './settings.js';
import { readStoreSetting, registerStoreUrlSecret } from './store.js';
import { readToken } from './token.js';
import type { IngressMode, ListenAddress, LogFormat, LogLevel, ServiceConfig } from './types.js';

export const DEFAULT_CONFIG_FILE = 'hearsay.yaml';

const DEFAULTS: Record<string, unknown> = {
  base_url: 'https://api.telegram.org',
  rules: 'rules',
  'rule_limits.max_file_bytes': 1_048_576,
  'rule_limits.max_rules': 20_000,
  data_dir: '.hearsay-data',
  store: 'file',
  'ingress.mode': 'polling',
  'polling.timeout': 30,
  'polling.limit': 100,
  'polling.delete_webhook': false,
  'webhook.listen': '127.0.0.1:8080',
  'webhook.max_body_bytes': 1_048_576,
  'webhook.max_connections': 40,
  'webhook.header_timeout': 10,
  'webhook.body_timeout': 20,
  'webhook.idle_timeout': 30,
  'webhook.connection_limit': 200,
  'log.level': 'info',
  'log.format': 'auto',
  'delivery.concurrency': 32,
  'delivery.max_pending': 1000,
  'delivery.max_attempts': 5,
  'delivery.shutdown_timeout': 10,
  'api.timeout': 10,
  'rate_limits.enabled': true,
  'rate_limits.per_chat_per_second': 1,
  'rate_limits.per_group_per_minute': 20,
  'rate_limits.overall_per_second': 30,
  'state.ttl': '90d',
  'state.max_user_bytes': 16_384,
};

export interface LoadConfigOptions {
  /** `--config FILE`: must exist. Without it, `hearsay.yaml` in `cwd` is read when present. */
  configPath?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Flag values by setting key (`polling.timeout`), as given on the command line. */
  flags?: Record<string, string | boolean | undefined>;
  secrets?: Secrets;
}

interface Layered {
  value: unknown;
  source: ConfigSource;
}

function subschema(key: string): object {
  let node: { properties?: Record<string, unknown> } = configSchema as never;
  for (const part of key.split('.')) node = node.properties?.[part] as typeof node;
  return node;
}

const valueValidators = new Map<string, ReturnType<typeof validatorFor>>();
function validateValue(key: string, value: unknown): string[] {
  let validate = valueValidators.get(key);
  if (!validate) valueValidators.set(key, (validate = validatorFor(subschema(key))));
  if (validate(value)) return [];
  // A URL setting is quoted back without a pasted `/bot<token>` segment.
  return (validate.errors ?? []).map((e) => withoutBotPath(describeSchemaError(e, value, key).message));
}

/** Turns an environment or flag string into the type the schema wants, or returns a message. */
function coerce(spec: SettingSpec, raw: string | boolean): { value: unknown } | string {
  if (typeof raw === 'boolean') return { value: raw };
  const text = raw.trim();
  const secret = spec.key === 'webhook.secret';
  const got = secret ? '' : ` (got '${text}')`;
  const schemaType = (subschema(spec.key) as { type?: string }).type;
  if (schemaType === 'integer') return /^[+-]?\d+$/.test(text) ? { value: Number(text) } : `${spec.key} must be an integer${got}`;
  if (schemaType === 'number') {
    const n = Number(text);
    return text !== '' && Number.isFinite(n) ? { value: n } : `${spec.key} must be a number${got}`;
  }
  if (schemaType === 'boolean') {
    const lowered = text.toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(lowered)) return { value: true };
    if (['false', '0', 'no', 'off'].includes(lowered)) return { value: false };
    return `${spec.key} must be true or false${got}`;
  }
  return { value: text };
}

function fileValue(file: LoadedConfigFile, key: string): unknown {
  let node: unknown = file.content;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

export async function loadConfig(options: LoadConfigOptions = {}): Promise<ServiceConfig> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const flags = options.flags ?? {};
  const secrets = options.secrets ?? processSecrets;
  const problems: ConfigProblem[] = [];

  // The secret goes into the registry before any message could include it.
  secrets.add(env.HEARSAY_WEBHOOK_SECRET);
  registerStoreUrlSecret(env.HEARSAY_STORE, secrets);
  registerStoreUrlSecret(flags.store, secrets);
  const tokenOrProblem = readToken(env, cwd, secrets);

  let file: LoadedConfigFile | null = null;
  const explicit = options.configPath !== undefined;
  const configPath = resolve(cwd, options.configPath ?? DEFAULT_CONFIG_FILE);
  if (explicit || existsSync(configPath)) {
    const shown = relative(cwd, configPath).startsWith('..') ? configPath : relative(cwd, configPath);
    try {
      file = await readConfigFile(configPath, shown);
      secrets.add(file.content.webhook?.secret);
      registerStoreUrlSecret(file.content.store, secrets);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
    }
  }

  const layers = new Map<string, Layered>();
  // A file's paths are relative to the file; the default data directory sits beside the file too.
  const baseDir = (source: ConfigSource, key: string) =>
    file && (source.kind === 'file' || (source.kind === 'default' && key === 'data_dir')) ? dirname(file.path) : cwd;
  for (const spec of SETTINGS) {
    let chosen: Layered | undefined = DEFAULTS[spec.key] !== undefined ? { value: DEFAULTS[spec.key], source: { kind: 'default' } } : undefined;
    const inFile = file ? fileValue(file, spec.key) : undefined;
    if (file && inFile !== undefined) {
      const pos = file.positionOf(spec.key);
      chosen = { value: inFile, source: { kind: 'file', file: relative(cwd, file.path) || file.path, ...pos } };
    }
    const outside: Array<[ConfigSource, string | boolean | undefined]> = [
      [{ kind: 'env', name: spec.env }, env[spec.env]],
      [{ kind: 'flag', name: spec.flag ?? '' }, spec.flag ? flags[spec.key] : undefined],
    ];
    for (const [source, raw] of outside) {
      // An empty environment variable counts as unset, as in most tools.
      if (raw === undefined || raw === '') continue;
      const coerced = coerce(spec, raw);
      if (typeof coerced === 'string') {
        problems.push(new ConfigProblem(spec.key, source, coerced));
        continue;
      }
      const messages = validateValue(spec.key, coerced.value);
      if (messages.length > 0) {
        problems.push(...messages.map((m) => new ConfigProblem(spec.key, source, m)));
        continue;
      }
      chosen = { value: coerced.value, source };
    }
    if (chosen && spec.kind === 'path') {
      chosen = { ...chosen, value: isAbsolute(String(chosen.value)) ? chosen.value : resolve(baseDir(chosen.source, spec.key), String(chosen.value)) };
    }
    if (chosen) layers.set(spec.key, chosen);
  }

  const get = <T>(key: string): T => layers.get(key)?.value as T;
  const sourceOf = (key: string): ConfigSource => layers.get(key)?.source ?? { kind: 'default' };

  const listen = (key: string): ListenAddress | null => {
    const raw = get<string | undefined>(key);
    if (raw === undefined) return null;
    const parsed = parseListenAddress(raw);
    if (typeof parsed === 'string') {
      problems.push(new ConfigProblem(key, sourceOf(key), `${key} ${parsed}`));
      return null;
    }
    return parsed;
  };
  const webhookListen = listen('webhook.listen');
  const adminListen = listen('admin.listen');

  for (const key of ['base_url', 'webhook.url']) {
    const raw = get<string | undefined>(key);
    if (raw !== undefined && !URL.canParse(raw)) {
      problems.push(new ConfigProblem(key, sourceOf(key), `${key} is not a valid URL (got '${withoutBotPath(raw)}')`));
    }
  }

  const store = readStoreSetting(get<string>('store'), sourceOf('store'), env, cwd, secrets);
  if (Array.isArray(store)) problems.push(...store);

  const mode = get<IngressMode>('ingress.mode');
  const webhookUrl = get<string | undefined>('webhook.url');
  if (mode === 'webhook' && webhookUrl === undefined) {
    problems.push(
      new ConfigProblem(
        'webhook.url',
        sourceOf('ingress.mode'),
        'ingress.mode is webhook but webhook.url is not set: give the public URL the service should post to (webhook.url, HEARSAY_WEBHOOK_URL or --webhook-url)',
      ),
    );
  }
  const cert = get<string | undefined>('webhook.tls.cert');
  const key = get<string | undefined>('webhook.tls.key');
  if ((cert === undefined) !== (key === undefined)) {
    const missing = cert === undefined ? 'webhook.tls.cert' : 'webhook.tls.key';
    const present = cert === undefined ? 'webhook.tls.key' : 'webhook.tls.cert';
    problems.push(new ConfigProblem(missing, sourceOf(present), `${present} is set but ${missing} is not: give both the certificate and the key, or neither`));
  }
  // A URL copied with its method path carries the token: refuse it without echoing it.
  if (/\/bot\d+:/.test(get<string>('base_url') ?? '')) {
    problems.push(
      new ConfigProblem(
        'base_url',
        sourceOf('base_url'),
        'base_url must be the API root without /bot<token>, such as https://api.telegram.org; the token goes in BOT_TOKEN or BOT_TOKEN_FILE',
      ),
    );
  }
  if (tokenOrProblem instanceof ConfigProblem) problems.push(tokenOrProblem);
  if (problems.length > 0 || tokenOrProblem instanceof ConfigProblem) throw new ConfigError(problems);
  const { token, source: tokenSource } = tokenOrProblem;

  let secret = get<string | undefined>('webhook.secret');
  const secretGenerated = secret === undefined;
  if (secret === undefined) secret = randomBytes(24).toString('base64url');
  secrets.add(secret);

  // A webhook.url with its own path is served at that path, as registered (as Telegraf and grammY do);
  // only a bare origin gets the default hard-to-guess path appended.
  const configuredPath = get<string | undefined>('webhook.path');
  const urlPath = webhookUrl !== undefined && URL.canParse(webhookUrl) ? new URL(webhookUrl).pathname.replace(/\/+$/, '') : '';
  const path = configuredPath ?? (urlPath || `/hearsay/${createHash('sha256').update(`hearsay-webhook:${token}`).digest('hex').slice(0, 32)}`);
  const publicUrl = webhookUrl === undefined ? null : configuredPath === undefined && urlPath ? webhookUrl : joinUrlPath(webhookUrl, path);

  return {
    token,
    tokenSource,
    baseUrl: get<string>('base_url').replace(/\/+$/, ''),
    rulesPath: get<string>('rules'),
    ruleLimits: { maxFileBytes: get<number>('rule_limits.max_file_bytes'), maxRules: get<number>('rule_limits.max_rules') },
    dataDir: get<string>('data_dir'),
    store: Array.isArray(store) ? { kind: 'file' } : store,
    mode,
    configFile: file?.path ?? null,
    log: { level: get<LogLevel>('log.level'), format: get<LogFormat>('log.format') },
    polling: {
      timeoutSeconds: get<number>('polling.timeout'),
      limit: get<number>('polling.limit'),
      deleteWebhook: get<boolean>('polling.delete_webhook'),
    },
    webhook: {
      publicUrl,
      listen: webhookListen!,
      path,
      secret,
      secretGenerated,
      tls: cert !== undefined && key !== undefined ? { certPath: cert, keyPath: key } : null,
      maxBodyBytes: get<number>('webhook.max_body_bytes'),
      maxConnections: get<number>('webhook.max_connections'),
      connections: {
        headerTimeoutMs: Math.round(get<number>('webhook.header_timeout') * 1000),
        bodyTimeoutMs: Math.round(get<number>('webhook.body_timeout') * 1000),
        idleTimeoutMs: Math.round(get<number>('webhook.idle_timeout') * 1000),
        limit: get<number>('webhook.connection_limit'),
      },
    },
    admin: { listen: adminListen },
    state: { ttlMs: durationMs(get<string>('state.ttl')), maxUserBytes: get<number>('state.max_user_bytes') },
    api: { timeoutMs: Math.round(get<number>('api.timeout') * 1000) },
    rateLimits: get<boolean>('rate_limits.enabled')
      ? {
          perChatPerSecond: get<number>('rate_limits.per_chat_per_second'),
          perGroupPerMinute: get<number>('rate_limits.per_group_per_minute'),
          overallPerSecond: get<number>('rate_limits.overall_per_second'),
        }
      : null,
    delivery: {
      concurrency: get<number>('delivery.concurrency'),
      maxPending: get<number>('delivery.max_pending'),
      maxAttempts: get<number>('delivery.max_attempts'),
      shutdownTimeoutMs: Math.round(get<number>('delivery.shutdown_timeout') * 1000),
    },
  };
}

/** `https://host/prefix` + `/hearsay/abc` → `https://host/prefix/hearsay/abc`. */
export function joinUrlPath(base: string, path: string): string {
  const url = new URL(base);
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  return url.toString();
}

/** A URL as it may be shown: a `/bot<token>` segment or anything token-shaped, if someone pasted one, is cut out. */
function withoutBotPath(raw: string): string {
  return redactTokenShapes(raw.replace(/\/bot[^/?#]*/gi, '/bot<redacted>'));
}

/** `90d` → milliseconds; the schema guarantees the shape (a number and s, m, h or d). */
function durationMs(text: string): number {
  const m = /^(\d+)([smhd])$/.exec(text);
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m?.[2] ?? 'd') as 's' | 'm' | 'h' | 'd'];
  return Number(m?.[1] ?? 90) * unit;
}
