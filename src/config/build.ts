// Turns checked settings into the typed ServiceConfig the service takes: units converted (seconds to ms),
// the webhook path and secret worked out when not configured, groups as the service reads them.
import { createHash, randomBytes } from 'node:crypto';
import type { Secrets } from '../log/secrets.js';
import type { CheckedValues } from './cross-checks.js';
import type { LoadedConfigFile } from './file.js';
import type { ResolvedSettings } from './layers.js';
import type { TokenSource } from './token.js';
import type { BackendSettings, IngressMode, LogFormat, LogLevel, ServiceConfig, StoreConfig } from './types.js';

export interface BuildInputs {
  settings: ResolvedSettings;
  checked: CheckedValues;
  token: string;
  tokenSource: TokenSource;
  configFile: string | null;
  /** The config file's content (its declarations: `chats`), when one was read. */
  file?: LoadedConfigFile | null;
  /** The file's `backends:`, secrets filled in (see backends.ts). */
  backends?: Readonly<Record<string, BackendSettings>>;
  secrets: Secrets;
}

export function buildServiceConfig({ settings, checked, token, tokenSource, configFile, file, backends, secrets }: BuildInputs): ServiceConfig {
  const get = <T>(key: string): T => settings.get<T>(key);
  const seconds = (key: string): number => Math.round(get<number>(key) * 1000);
  return {
    token,
    tokenSource,
    baseUrl: get<string>('base_url').replace(/\/+$/, ''),
    rulesPath: get<string>('rules'),
    ruleLimits: { maxFileBytes: get<number>('rule_limits.max_file_bytes'), maxRules: get<number>('rule_limits.max_rules') },
    dataDir: get<string>('data_dir'),
    dataDirChosen: settings.sourceOf('data_dir').kind !== 'default',
    store: checked.store,
    mode: get<IngressMode>('ingress.mode'),
    configFile,
    log: { level: get<LogLevel>('log.level'), format: get<LogFormat>('log.format'), unmatched: get<boolean>('log.unmatched') },
    polling: { timeoutSeconds: get<number>('polling.timeout'), limit: get<number>('polling.limit'), deleteWebhook: get<boolean>('polling.delete_webhook') },
    webhook: {
      ...webhookEndpoint(settings, token, secrets),
      listen: checked.webhookListen!,
      tls: tlsFiles(settings),
      maxBodyBytes: get<number>('webhook.max_body_bytes'),
      maxConnections: get<number>('webhook.max_connections'),
      connections: {
        headerTimeoutMs: seconds('webhook.header_timeout'),
        bodyTimeoutMs: seconds('webhook.body_timeout'),
        idleTimeoutMs: seconds('webhook.idle_timeout'),
        limit: get<number>('webhook.connection_limit'),
      },
    },
    admin: { listen: checked.adminListen },
    state: { ttlMs: durationMs(get<string>('state.ttl')), maxUserBytes: get<number>('state.max_user_bytes') },
    chats: Object.fromEntries(Object.entries(file?.content.chats ?? {}).filter((entry): entry is [string, number | string] => entry[1] !== undefined)),
    backends: backends ?? {},
    handoff: handoffOf(file?.content),
    api: { timeoutMs: seconds('api.timeout') },
    rateLimits: get<boolean>('rate_limits.enabled')
      ? {
          perChatPerSecond: get<number>('rate_limits.per_chat_per_second'),
          perGroupPerMinute: get<number>('rate_limits.per_group_per_minute'),
          overallPerSecond: get<number>('rate_limits.overall_per_second'),
        }
      : null,
    delivery: {
      concurrency: get<number | undefined>('delivery.concurrency') ?? defaultConcurrency(checked.store),
      maxPending: get<number>('delivery.max_pending'),
      maxAttempts: get<number>('delivery.max_attempts'),
      shutdownTimeoutMs: seconds('delivery.shutdown_timeout'),
    },
  };
}

/**
 * Chats handled at once when not configured. Each update on a Redis store waits for three answers from Redis
 * (stored, begun, committed), so it is in hand several times longer than on the file store; to keep as many
 * updates answered per second, a replica handles more chats at once (measured in BENCHMARKS.md, issue 38: below
 * 64, a webhook replica's updates queued up to `delivery.max_pending` and the service was answered 503).
 */
function defaultConcurrency(store: StoreConfig): number {
  return store.kind === 'redis' ? 64 : 32;
}

/**
 * The webhook's public URL, path and secret. A webhook.url with its own path is served at that path, as registered
 * (as Telegraf and grammY do); only a bare origin gets the default hard-to-guess path appended. Without a configured
 * secret one is generated at each start.
 */
function webhookEndpoint(settings: ResolvedSettings, token: string, secrets: Secrets) {
  const configuredSecret = settings.get<string | undefined>('webhook.secret');
  const secret = configuredSecret ?? randomBytes(24).toString('base64url');
  secrets.add(secret);
  const webhookUrl = settings.get<string | undefined>('webhook.url');
  const configuredPath = settings.get<string | undefined>('webhook.path');
  const urlPath = webhookUrl !== undefined && URL.canParse(webhookUrl) ? new URL(webhookUrl).pathname.replace(/\/+$/, '') : '';
  const path = configuredPath ?? (urlPath || `/hearsay/${createHash('sha256').update(`hearsay-webhook:${token}`).digest('hex').slice(0, 32)}`);
  const publicUrl = webhookUrl === undefined ? null : configuredPath === undefined && urlPath ? webhookUrl : joinUrlPath(webhookUrl, path);
  return { publicUrl, path, secret, secretGenerated: configuredSecret === undefined };
}

function tlsFiles(settings: ResolvedSettings): { certPath: string; keyPath: string } | null {
  const cert = settings.get<string | undefined>('webhook.tls.cert');
  const key = settings.get<string | undefined>('webhook.tls.key');
  return cert !== undefined && key !== undefined ? { certPath: cert, keyPath: key } : null;
}

/** `90d` → milliseconds; the schema guarantees the shape (a number and s, m, h or d). */
/** The `handoff:` block with its chat's id (the file check made sure a name is declared); null without one. */
function handoffOf(content: LoadedConfigFile['content'] | undefined): ServiceConfig['handoff'] {
  const block = content?.handoff;
  if (!block) return null;
  const chatId = typeof block.chat === 'number' ? block.chat : (content.chats?.[block.chat] ?? block.chat);
  return { chatId, idleMs: block.idle ? durationMs(block.idle) : null, end: block.end ?? ['done', '/done'] };
}

function durationMs(text: string): number {
  const m = /^(\d+)([smhd])$/.exec(text);
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m?.[2] ?? 'd') as 's' | 'm' | 'h' | 'd'];
  return Number(m?.[1] ?? 90) * unit;
}

/** `https://host/prefix` + `/hearsay/abc` → `https://host/prefix/hearsay/abc`. */
export function joinUrlPath(base: string, path: string): string {
  const url = new URL(base);
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  return url.toString();
}
