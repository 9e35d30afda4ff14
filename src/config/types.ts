// The resolved service configuration: every layer merged, every value checked and typed.
// `startService` takes this; programmatic callers (e.g. an embedded demo) can build one with loadConfig.

import type { StoreConfig } from './store.js';

export type { RedisStoreConfig, StoreConfig } from './store.js';
export type IngressMode = 'polling' | 'webhook';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type LogFormat = 'auto' | 'json' | 'pretty';

export interface ListenAddress {
  host: string;
  port: number;
}

export interface ServiceConfig {
  /** Never logged; registered with the process secrets as soon as it is read. */
  token: string;
  /** The environment variable the token came from (BOT_TOKEN, or the file named by BOT_TOKEN_FILE). */
  tokenSource: 'BOT_TOKEN' | 'BOT_TOKEN_FILE';
  baseUrl: string;
  /** Absolute path of the rule directory or file. */
  rulesPath: string;
  /** Bounds on what a rule load takes in (file size before reading, rule count before compiling). */
  ruleLimits: { maxFileBytes: number; maxRules: number };
  dataDir: string;
  /** Whether data_dir was given on purpose (config file, environment or flag), even with the default's value. */
  dataDirChosen: boolean;
  /** Where the ledger, chat state and shared rate limits live (the file store in `dataDir` by default). */
  store: StoreConfig;
  mode: IngressMode;
  /** The config file that was read, if any. */
  configFile: string | null;
  /** `unmatched`: log the text of messages that only a fallback (or nothing) answered. */
  log: { level: LogLevel; format: LogFormat; unmatched: boolean };
  polling: { timeoutSeconds: number; limit: number; deleteWebhook: boolean };
  webhook: {
    /** The public URL given to setwebhook (configured URL + path); null when not configured. */
    publicUrl: string | null;
    listen: ListenAddress;
    path: string;
    /** Never logged; generated at start when not configured. */
    secret: string;
    secretGenerated: boolean;
    tls: { certPath: string; keyPath: string } | null;
    maxBodyBytes: number;
    maxConnections: number;
    /** How long slow clients may take and how many connections stay open at once. */
    connections: WebhookConnectionLimits;
  };
  admin: { listen: ListenAddress | null };
  api: { timeoutMs: number };
  /** null when `rate_limits.enabled` is false. */
  rateLimits: { perChatPerSecond: number; perGroupPerMinute: number; overallPerSecond: number } | null;
  delivery: { concurrency: number; maxPending: number; maxAttempts: number; shutdownTimeoutMs: number };
  /** Conversation state: kept this long after its last change; one user's variables at most this large (JSON bytes). */
  state: { ttlMs: number; maxUserBytes: number };
  /** `chats:` of the config file: named chats the rules may send to (chat id, or a channel's @username). */
  chats: Readonly<Record<string, number | string>>;
  /** `backends:` of the config file: the operator's HTTP services the rules call, by name, secrets filled in. */
  backends: Readonly<Record<string, BackendSettings>>;
  /** `handoff:` of the config file (its chat resolved through `chats`); null when hand-off is not configured. */
  handoff: { chatId: number | string; idleMs: number | null; end: readonly string[] } | null;
}

/** One backend of `backends:` (see src/config/backends.ts), its `${NAME}` secrets filled in: never log it whole. */
export interface BackendSettings {
  readonly name: string;
  /** The base URL, without a trailing slash; a call's path is added to it. */
  readonly url: string;
  /** Sent with every request; every value is a registered secret. */
  readonly headers: Readonly<Record<string, string>>;
  /** One attempt, answer read to its end. */
  readonly timeoutMs: number;
  /** Attempts after the first on no answer, a timeout or a 5xx. */
  readonly retries: number;
  readonly maxResponseBytes: number;
  readonly circuitBreaker: { readonly failures: number; readonly coolDownMs: number };
  /** A notify is given up this long after it was due. */
  readonly giveUpAfterMs: number;
}

/** Bounds on the webhook server's connections, so slow or idle clients cannot pile up. */
export interface WebhookConnectionLimits {
  /** Time to receive the request headers. */
  headerTimeoutMs: number;
  /** Time to receive the body once the headers are in. */
  bodyTimeoutMs: number;
  /** Time a connection may stay silent (between requests or mid-request). */
  idleTimeoutMs: number;
  /** Open connections at once; more are closed on arrival. */
  limit: number;
}
