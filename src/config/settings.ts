// The one table of every service setting: where it lives in the file, its environment variable, its flag
// and its default. The loader, the `run` command's options and docs/configuration.md all follow it
// (tests hold docs/configuration.md and hearsay.example.yaml to it).

export type SettingKind = 'string' | 'integer' | 'number' | 'boolean' | 'listen' | 'path' | 'url' | 'enum';

export interface SettingSpec {
  /** Dotted key in the config file, e.g. `polling.timeout`. */
  key: string;
  env: string;
  /** Long flag of `hearsay run`, or null when the setting must not appear on a command line (secrets). */
  flag: string | null;
  kind: SettingKind;
  /**
   * The default, written as in an environment variable (`30`, `true`, `127.0.0.1:8080`): the one place defaults
   * live — the loader reads it as it reads the variable, the flags' help and docs/configuration.md show it.
   * `undefined` when there is none.
   */
  defaultText?: string;
  /** `defaultText` only describes a default worked out at load time (from the token, at random). */
  computedDefault?: true;
  meaning: string;
}

export const SETTINGS: readonly SettingSpec[] = [
  { key: 'base_url', env: 'BASE_URL', flag: '--base-url', kind: 'url', defaultText: 'https://api.telegram.org', meaning: 'Root of the Bot API service.' },
  { key: 'rules', env: 'HEARSAY_RULES', flag: '--rules', kind: 'path', defaultText: 'rules', meaning: 'Rule directory (or one rule file).' },
  {
    key: 'rule_limits.max_file_bytes',
    env: 'HEARSAY_RULE_LIMITS_MAX_FILE_BYTES',
    flag: '--rule-limits-max-file-bytes',
    kind: 'integer',
    defaultText: '1048576',
    meaning: 'Largest rule file in bytes, checked before it is read; a larger file is a rule problem.',
  },
  {
    key: 'rule_limits.max_rules',
    env: 'HEARSAY_RULE_LIMITS_MAX_RULES',
    flag: '--rule-limits-max-rules',
    kind: 'integer',
    defaultText: '20000',
    meaning: 'Most rules in all files together, counted before they are validated and compiled.',
  },
  { key: 'data_dir', env: 'HEARSAY_DATA_DIR', flag: '--data-dir', kind: 'path', defaultText: '.hearsay-data', meaning: 'Directory for the service state.' },
  {
    key: 'store',
    env: 'HEARSAY_STORE',
    flag: '--store',
    kind: 'url',
    defaultText: 'file',
    meaning:
      'Where the ledger, chat state and shared rate limits live: `file` (in `data_dir`, one instance) or `redis://host:port/db` (`rediss://` for TLS) shared by replicas; the password goes in `HEARSAY_STORE_PASSWORD` or `HEARSAY_STORE_PASSWORD_FILE`.',
  },
  { key: 'ingress.mode', env: 'HEARSAY_MODE', flag: '--mode', kind: 'enum', defaultText: 'polling', meaning: '`polling` or `webhook`.' },
  {
    key: 'polling.timeout',
    env: 'HEARSAY_POLLING_TIMEOUT',
    flag: '--polling-timeout',
    kind: 'integer',
    defaultText: '30',
    meaning: 'Long-poll timeout in seconds (0–50).',
  },
  {
    key: 'polling.limit',
    env: 'HEARSAY_POLLING_LIMIT',
    flag: '--polling-limit',
    kind: 'integer',
    defaultText: '100',
    meaning: 'Updates per getupdates call (1–100).',
  },
  {
    key: 'polling.delete_webhook',
    env: 'HEARSAY_POLLING_DELETE_WEBHOOK',
    flag: '--polling-delete-webhook',
    kind: 'boolean',
    defaultText: 'false',
    meaning: 'Delete a webhook that is still set instead of stopping with an error.',
  },
  {
    key: 'webhook.url',
    env: 'HEARSAY_WEBHOOK_URL',
    flag: '--webhook-url',
    kind: 'url',
    meaning: 'Public URL given to setwebhook; the webhook path is appended. Required in webhook mode.',
  },
  {
    key: 'webhook.listen',
    env: 'HEARSAY_WEBHOOK_LISTEN',
    flag: '--webhook-listen',
    kind: 'listen',
    defaultText: '127.0.0.1:8080',
    meaning: '`host:port` the webhook server binds.',
  },
  {
    key: 'webhook.path',
    env: 'HEARSAY_WEBHOOK_PATH',
    flag: '--webhook-path',
    kind: 'string',
    defaultText: '/hearsay/<hash of the token>',
    computedDefault: true,
    meaning: 'Path of the webhook endpoint.',
  },
  {
    key: 'webhook.secret',
    env: 'HEARSAY_WEBHOOK_SECRET',
    flag: null,
    kind: 'string',
    defaultText: 'random at each start',
    computedDefault: true,
    meaning: 'Secret checked in X-Telegram-Bot-Api-Secret-Token (1–256 of `A-Z a-z 0-9 _ -`).',
  },
  {
    key: 'webhook.tls.cert',
    env: 'HEARSAY_WEBHOOK_TLS_CERT',
    flag: '--webhook-tls-cert',
    kind: 'path',
    meaning: 'PEM certificate: serve HTTPS directly (with `webhook.tls.key`).',
  },
  { key: 'webhook.tls.key', env: 'HEARSAY_WEBHOOK_TLS_KEY', flag: '--webhook-tls-key', kind: 'path', meaning: 'PEM private key for `webhook.tls.cert`.' },
  {
    key: 'webhook.max_body_bytes',
    env: 'HEARSAY_WEBHOOK_MAX_BODY_BYTES',
    flag: '--webhook-max-body-bytes',
    kind: 'integer',
    defaultText: '1048576',
    meaning: 'Largest request body; larger ones get 413.',
  },
  {
    key: 'webhook.max_connections',
    env: 'HEARSAY_WEBHOOK_MAX_CONNECTIONS',
    flag: '--webhook-max-connections',
    kind: 'integer',
    defaultText: '40',
    meaning: '`max_connections` given to setwebhook (1–100).',
  },
  {
    key: 'webhook.header_timeout',
    env: 'HEARSAY_WEBHOOK_HEADER_TIMEOUT',
    flag: '--webhook-header-timeout',
    kind: 'number',
    defaultText: '10',
    meaning: 'Seconds a client has to send the request headers; slower connections are closed (1–300).',
  },
  {
    key: 'webhook.body_timeout',
    env: 'HEARSAY_WEBHOOK_BODY_TIMEOUT',
    flag: '--webhook-body-timeout',
    kind: 'number',
    defaultText: '20',
    meaning: 'Seconds a client has to send the body after its headers; slower connections are closed (1–300).',
  },
  {
    key: 'webhook.idle_timeout',
    env: 'HEARSAY_WEBHOOK_IDLE_TIMEOUT',
    flag: '--webhook-idle-timeout',
    kind: 'number',
    defaultText: '30',
    meaning: 'Seconds a connection may stay open between requests without sending anything before it is closed (1–3600).',
  },
  {
    key: 'webhook.connection_limit',
    env: 'HEARSAY_WEBHOOK_CONNECTION_LIMIT',
    flag: '--webhook-connection-limit',
    kind: 'integer',
    defaultText: '200',
    meaning: 'Open connections the webhook server keeps at once; further ones are closed at once (1–100000).',
  },
  {
    key: 'admin.listen',
    env: 'HEARSAY_ADMIN_LISTEN',
    flag: '--admin-listen',
    kind: 'listen',
    meaning: '`host:port` of /healthz and /metrics in polling mode; off when unset.',
  },
  {
    key: 'log.level',
    env: 'HEARSAY_LOG_LEVEL',
    flag: '--log-level',
    kind: 'enum',
    defaultText: 'info',
    meaning: 'fatal, error, warn, info, debug, trace or silent.',
  },
  {
    key: 'log.format',
    env: 'HEARSAY_LOG_FORMAT',
    flag: '--log-format',
    kind: 'enum',
    defaultText: 'auto',
    meaning: '`json`, `pretty`, or `auto` (pretty on a terminal).',
  },
  {
    key: 'log.unmatched',
    env: 'HEARSAY_LOG_UNMATCHED',
    flag: '--log-unmatched',
    kind: 'boolean',
    defaultText: 'false',
    meaning: 'Log the text of messages only a fallback (or nothing) answered, for `hearsay report`; see docs/operations.md on privacy.',
  },
  {
    key: 'delivery.concurrency',
    env: 'HEARSAY_DELIVERY_CONCURRENCY',
    flag: '--delivery-concurrency',
    kind: 'integer',
    defaultText: '32 (64 on a Redis store)',
    computedDefault: true,
    meaning: 'Chats handled at the same time.',
  },
  {
    key: 'delivery.max_pending',
    env: 'HEARSAY_DELIVERY_MAX_PENDING',
    flag: '--delivery-max-pending',
    kind: 'integer',
    defaultText: '1000',
    meaning: 'Updates in hand (accepted or fetched, not handled yet): beyond it the webhook answers 503 and polling fetches no more.',
  },
  {
    key: 'delivery.max_attempts',
    env: 'HEARSAY_DELIVERY_MAX_ATTEMPTS',
    flag: '--delivery-max-attempts',
    kind: 'integer',
    defaultText: '5',
    meaning: 'Attempts per sendmessage before a reply is dropped.',
  },
  {
    key: 'delivery.shutdown_timeout',
    env: 'HEARSAY_DELIVERY_SHUTDOWN_TIMEOUT',
    flag: '--delivery-shutdown-timeout',
    kind: 'number',
    defaultText: '10',
    meaning: 'Seconds a graceful stop waits for work in flight.',
  },
  {
    key: 'api.timeout',
    env: 'HEARSAY_API_TIMEOUT',
    flag: '--api-timeout',
    kind: 'number',
    defaultText: '10',
    meaning: 'Seconds to wait for the answer to a Bot API call before retrying it (long polls add their own timeout).',
  },
  {
    key: 'rate_limits.enabled',
    env: 'HEARSAY_RATE_LIMITS_ENABLED',
    flag: '--rate-limits-enabled',
    kind: 'boolean',
    defaultText: 'true',
    meaning: 'Keep outgoing messages within the limits below, queueing (never dropping) what would exceed them.',
  },
  {
    key: 'rate_limits.per_chat_per_second',
    env: 'HEARSAY_RATE_LIMITS_PER_CHAT_PER_SECOND',
    flag: '--rate-limits-per-chat-per-second',
    kind: 'number',
    defaultText: '1',
    meaning: 'Messages per second to one chat (at least 0.01).',
  },
  {
    key: 'rate_limits.per_group_per_minute',
    env: 'HEARSAY_RATE_LIMITS_PER_GROUP_PER_MINUTE',
    flag: '--rate-limits-per-group-per-minute',
    kind: 'number',
    defaultText: '20',
    meaning: 'Messages per minute to one group (negative chat id; at least 0.6).',
  },
  {
    key: 'rate_limits.overall_per_second',
    env: 'HEARSAY_RATE_LIMITS_OVERALL_PER_SECOND',
    flag: '--rate-limits-overall-per-second',
    kind: 'number',
    defaultText: '30',
    meaning: 'Messages per second in all (at least 0.01).',
  },
  {
    key: 'state.ttl',
    env: 'HEARSAY_STATE_TTL',
    flag: '--state-ttl',
    kind: 'string',
    defaultText: '90d',
    meaning: "How long a user's or chat's variables, and a user's unfinished flow, are kept after their last change: a number and s, m, h or d.",
  },
  {
    key: 'state.max_user_bytes',
    env: 'HEARSAY_STATE_MAX_USER_BYTES',
    flag: '--state-max-user-bytes',
    kind: 'integer',
    defaultText: '16384',
    meaning: "Largest size of one user's variables (as JSON, 1024–1048576); a change that would pass it is not kept, and logged.",
  },
];
