// Generated from schemas/config.schema.json by scripts/generate-schema-modules.mjs; do not edit.
// Edit the schema and run `npm run build`.

export const configSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://hearsay.dev/schemas/config.schema.json",
  "title": "ConfigFile",
  "description": "The hearsay service configuration file (hearsay.yaml). Every key is optional; environment variables and command-line flags override it. The bot token is never read from this file: use BOT_TOKEN or BOT_TOKEN_FILE.",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "base_url": {
      "description": "Root of the Bot API service, without /bot<token>.",
      "type": "string",
      "pattern": "^https?://[^\\s/]+(/[^\\s]*)?$"
    },
    "rules": {
      "description": "Directory (or single file) of YAML rule files. Relative to the config file.",
      "type": "string",
      "minLength": 1
    },
    "rule_limits": {
      "title": "RuleLimitSettings",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "max_file_bytes": {
          "description": "Largest rule file in bytes, checked before the file is read.",
          "type": "integer",
          "minimum": 1024,
          "maximum": 104857600
        },
        "max_rules": {
          "description": "Most rules in all rule files together, counted before they are validated and compiled.",
          "type": "integer",
          "minimum": 1,
          "maximum": 1000000
        }
      }
    },
    "data_dir": {
      "description": "Directory for the service's state. Relative to the config file.",
      "type": "string",
      "minLength": 1
    },
    "store": {
      "description": "Where the ledger, chat state and shared rate limits live: file (the embedded store in data_dir, the default) redis://host:port/db (rediss:// for TLS) or redis-cluster://host1:port1,host2:port2 (rediss-cluster:// for TLS) shared by several replicas. Prefer HEARSAY_STORE_PASSWORD for the password.",
      "type": "string",
      "minLength": 1
    },
    "ingress": {
      "title": "IngressSettings",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "mode": {
          "description": "How updates arrive: long polling or a webhook.",
          "type": "string",
          "enum": [
            "polling",
            "webhook"
          ]
        }
      }
    },
    "polling": {
      "title": "PollingSettings",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "timeout": {
          "description": "Long-poll timeout in seconds (0-50).",
          "type": "integer",
          "minimum": 0,
          "maximum": 50
        },
        "limit": {
          "description": "Most updates fetched per getupdates call (1-100).",
          "type": "integer",
          "minimum": 1,
          "maximum": 100
        },
        "delete_webhook": {
          "description": "Delete a webhook that is still set instead of stopping with an error.",
          "type": "boolean"
        }
      }
    },
    "webhook": {
      "title": "WebhookSettings",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "url": {
          "description": "Public URL the service posts updates to (the webhook path is appended).",
          "type": "string",
          "pattern": "^https?://[^\\s/]+(/[^\\s]*)?$"
        },
        "listen": {
          "description": "host:port the webhook server binds.",
          "type": "string",
          "minLength": 1
        },
        "path": {
          "description": "URL path of the webhook endpoint; derived from a hash of the token when absent.",
          "type": "string",
          "pattern": "^/[A-Za-z0-9._~/-]*$"
        },
        "secret": {
          "description": "Secret the service sends in X-Telegram-Bot-Api-Secret-Token (1-256 of A-Z a-z 0-9 _ -). Prefer HEARSAY_WEBHOOK_SECRET.",
          "type": "string",
          "pattern": "^[A-Za-z0-9_-]{1,256}$"
        },
        "tls": {
          "title": "WebhookTlsSettings",
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "cert": {
              "description": "PEM certificate file.",
              "type": "string",
              "minLength": 1
            },
            "key": {
              "description": "PEM private key file.",
              "type": "string",
              "minLength": 1
            }
          }
        },
        "max_body_bytes": {
          "description": "Largest accepted request body in bytes.",
          "type": "integer",
          "minimum": 1024,
          "maximum": 104857600
        },
        "max_connections": {
          "description": "max_connections given to setwebhook (1-100).",
          "type": "integer",
          "minimum": 1,
          "maximum": 100
        },
        "header_timeout": {
          "description": "Seconds a client has to send the request headers; slower connections are closed.",
          "type": "number",
          "minimum": 1,
          "maximum": 300
        },
        "body_timeout": {
          "description": "Seconds a client has to send the request body after its headers; slower connections are closed.",
          "type": "number",
          "minimum": 1,
          "maximum": 300
        },
        "idle_timeout": {
          "description": "Seconds a connection may stay open between requests without sending anything before it is closed.",
          "type": "number",
          "minimum": 1,
          "maximum": 3600
        },
        "connection_limit": {
          "description": "Open connections the webhook server keeps at once; further ones are closed at once.",
          "type": "integer",
          "minimum": 1,
          "maximum": 100000
        }
      }
    },
    "admin": {
      "title": "AdminSettings",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "listen": {
          "description": "host:port of the /healthz and /metrics server in polling mode; off when absent.",
          "type": "string",
          "minLength": 1
        }
      }
    },
    "log": {
      "title": "LogSettings",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "level": {
          "description": "Log level.",
          "type": "string",
          "enum": [
            "fatal",
            "error",
            "warn",
            "info",
            "debug",
            "trace",
            "silent"
          ]
        },
        "format": {
          "description": "json lines, pretty text, or auto (pretty on a terminal).",
          "type": "string",
          "enum": [
            "auto",
            "json",
            "pretty"
          ]
        },
        "unmatched": {
          "description": "Log the text of messages only a fallback (or nothing) answered (for hearsay report). Off by default: what users write is personal data.",
          "type": "boolean"
        }
      }
    },
    "api": {
      "title": "ApiSettings",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "timeout": {
          "description": "Seconds hearsay waits for an answer to an ordinary Bot API call (long polls add their own timeout).",
          "type": "number",
          "minimum": 0.1,
          "maximum": 300
        }
      }
    },
    "rate_limits": {
      "title": "RateLimitSettings",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "enabled": {
          "description": "Keep outgoing messages within the limits below (queueing, never dropping).",
          "type": "boolean"
        },
        "per_chat_per_second": {
          "description": "Messages per second to one chat; at least one message every 100 seconds (0.01), below that a wait would be mistaken for a hang.",
          "type": "number",
          "minimum": 0.01,
          "maximum": 1000
        },
        "per_group_per_minute": {
          "description": "Messages per minute to one group (negative chat id); at least one message every 100 seconds (0.6), below that a wait would be mistaken for a hang.",
          "type": "number",
          "minimum": 0.6,
          "maximum": 100000
        },
        "overall_per_second": {
          "description": "Messages per second in all; at least one message every 100 seconds (0.01), below that a wait would be mistaken for a hang.",
          "type": "number",
          "minimum": 0.01,
          "maximum": 100000
        }
      }
    },
    "delivery": {
      "title": "DeliverySettings",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "concurrency": {
          "description": "Chats handled at the same time.",
          "type": "integer",
          "minimum": 1,
          "maximum": 1000
        },
        "max_pending": {
          "description": "Updates in hand (accepted or fetched, not handled yet): beyond it the webhook answers 503 and polling fetches no more.",
          "type": "integer",
          "minimum": 1,
          "maximum": 1000000
        },
        "max_attempts": {
          "description": "Attempts per sendmessage call before the reply is dropped.",
          "type": "integer",
          "minimum": 1,
          "maximum": 100
        },
        "shutdown_timeout": {
          "description": "Seconds a graceful stop waits for work in flight.",
          "type": "number",
          "minimum": 0,
          "maximum": 600
        }
      }
    },
    "state": {
      "title": "StateSettings",
      "description": "Conversation state: the variables of users and chats and the users' unfinished flows (see docs/rules.md).",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "ttl": {
          "description": "How long state is kept after its last change: a number and s, m, h or d (e.g. 90d, 12h). A user's or chat's variables, and a user's unfinished flow, are forgotten after that.",
          "type": "string",
          "pattern": "^[1-9][0-9]{0,5}(s|m|h|d)$"
        },
        "max_user_bytes": {
          "description": "Largest size of one user's variables (as JSON); a change that would pass it is not kept, and logged.",
          "type": "integer",
          "minimum": 1024,
          "maximum": 1048576
        }
      }
    },
    "chats": {
      "description": "Named chats the rules may send to (`send: { to: staff }`): a name, and the chat's id (groups and channels are negative) or a channel's @username. Declared here so staging and production can differ.",
      "type": "object",
      "additionalProperties": false,
      "patternProperties": {
        "^[A-Za-z][A-Za-z0-9_-]{0,63}$": {
          "anyOf": [
            {
              "type": "integer"
            },
            {
              "type": "string",
              "pattern": "^@[A-Za-z][A-Za-z0-9_]{3,31}$"
            }
          ]
        }
      }
    },
    "backends": {
      "description": "The operator's HTTP backends the rules call (`call: { backend: shop, get: /orders/{{match.num}} }`) and notify (`notify: { backend: crm, post: /events }`), by name. Declared here so staging and production can differ; `${NAME}` in the url or a header is read from the environment variable NAME (or the file named by NAME_FILE) and never logged.",
      "type": "object",
      "additionalProperties": false,
      "patternProperties": {
        "^[A-Za-z][A-Za-z0-9_-]{0,63}$": {
          "title": "BackendSettings",
          "description": "One backend: where it is, how it is authenticated, how long to wait and how often to try.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "url"
          ],
          "properties": {
            "url": {
              "description": "The base URL; a call's path is added to it (https://shop.example.com/api + /orders/4711). http:// only for loopback addresses (127.0.0.1, ::1, localhost) unless allow_http is true. May hold ${NAME} secrets.",
              "type": "string",
              "pattern": "^https?://[^\\s]+$"
            },
            "headers": {
              "description": "Headers sent with every request (Authorization: \"Bearer ${SHOP_API_TOKEN}\"). Their values never appear in logs, errors or metrics.",
              "type": "object",
              "additionalProperties": false,
              "patternProperties": {
                "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$": {
                  "type": "string",
                  "maxLength": 8192
                }
              }
            },
            "timeout": {
              "description": "How long one attempt may take, answer read to its end: a number and ms, s or m (default 5s).",
              "type": "string",
              "pattern": "^[1-9][0-9]{0,6}(ms|s|m|h|d)$"
            },
            "retries": {
              "description": "Attempts after the first when the backend does not answer (network error, timeout) or answers 5xx: for GET, and for POST, PUT, PATCH and DELETE with their Idempotency-Key (default 1).",
              "type": "integer",
              "minimum": 0,
              "maximum": 5
            },
            "allow_http": {
              "description": "Allow an http:// url that is not a loopback address (the traffic, headers included, is then readable on the way).",
              "type": "boolean"
            },
            "max_response_bytes": {
              "description": "The longest answer read (default 262144, 256 KiB); a longer one is an error.",
              "type": "integer",
              "minimum": 1024,
              "maximum": 16777216
            },
            "circuit_breaker": {
              "title": "CircuitBreakerSettings",
              "description": "After `failures` errors in a row (no answer, a timeout, 5xx, an unreadable answer), calls fail at once (the `error` branch) for `cool_down`; then one call is tried, and its success closes the circuit again.",
              "type": "object",
              "additionalProperties": false,
              "properties": {
                "failures": {
                  "description": "Errors in a row that open the circuit (default 5).",
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 1000
                },
                "cool_down": {
                  "description": "How long calls fail at once before one is tried again (default 30s).",
                  "type": "string",
                  "pattern": "^[1-9][0-9]{0,6}(ms|s|m|h|d)$"
                }
              }
            },
            "give_up_after": {
              "description": "A `notify` to this backend is retried until it is answered 2xx, and given up (logged) this long after it was due (default 24h).",
              "type": "string",
              "pattern": "^[1-9][0-9]{0,6}(ms|s|m|h|d)$"
            }
          }
        }
      }
    },
    "handoff": {
      "description": "Hand-off to a person (a rule's `handoff: true`): the staff group where customers' topics open, when the bot takes over again by itself, and what staff write to hand a customer back.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "chat"
      ],
      "properties": {
        "chat": {
          "description": "The staff group: a name declared under `chats:` (e.g. staff), or its chat id. A supergroup with topics (a forum) gets one topic per customer; a group without topics works by replies.",
          "anyOf": [
            {
              "type": "string",
              "pattern": "^[A-Za-z][A-Za-z0-9_-]{0,63}$"
            },
            {
              "type": "integer",
              "maximum": -1
            }
          ]
        },
        "idle": {
          "description": "Hand the customer back to the bot after this long without a staff message (90s, 30m, 2h, 1d); without it, only an end word does.",
          "type": "string",
          "pattern": "^[1-9][0-9]{0,5}[smhd]$"
        },
        "end": {
          "description": "What staff write in the customer's topic (or in reply to a copy of their message) to hand them back (compared like text triggers: case and spacing do not matter). Default: [done, /done].",
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "minLength": 1
          }
        }
      }
    }
  }
} as const;

/**
 * The hearsay service configuration file (hearsay.yaml). Every key is optional; environment variables and command-line flags override it. The bot token is never read from this file: use BOT_TOKEN or BOT_TOKEN_FILE.
 */
export interface ConfigFile {
  /**
   * Root of the Bot API service, without /bot<token>.
   */
  base_url?: string;
  /**
   * Directory (or single file) of YAML rule files. Relative to the config file.
   */
  rules?: string;
  rule_limits?: RuleLimitSettings;
  /**
   * Directory for the service's state. Relative to the config file.
   */
  data_dir?: string;
  /**
   * Where the ledger, chat state and shared rate limits live: file (the embedded store in data_dir, the default) redis://host:port/db (rediss:// for TLS) or redis-cluster://host1:port1,host2:port2 (rediss-cluster:// for TLS) shared by several replicas. Prefer HEARSAY_STORE_PASSWORD for the password.
   */
  store?: string;
  ingress?: IngressSettings;
  polling?: PollingSettings;
  webhook?: WebhookSettings;
  admin?: AdminSettings;
  log?: LogSettings;
  api?: ApiSettings;
  rate_limits?: RateLimitSettings;
  delivery?: DeliverySettings;
  state?: StateSettings;
  /**
   * Named chats the rules may send to (`send: { to: staff }`): a name, and the chat's id (groups and channels are negative) or a channel's @username. Declared here so staging and production can differ.
   */
  chats?: {
    /**
     * This interface was referenced by `undefined`'s JSON-Schema definition
     * via the `patternProperty` "^[A-Za-z][A-Za-z0-9_-]{0,63}$".
     */
    [k: string]: number | string | undefined;
  };
  /**
   * The operator's HTTP backends the rules call (`call: { backend: shop, get: /orders/{{match.num}} }`) and notify (`notify: { backend: crm, post: /events }`), by name. Declared here so staging and production can differ; `${NAME}` in the url or a header is read from the environment variable NAME (or the file named by NAME_FILE) and never logged.
   */
  backends?: {
    [k: string]: BackendSettings | undefined;
  };
  /**
   * Hand-off to a person (a rule's `handoff: true`): the staff group where customers' topics open, when the bot takes over again by itself, and what staff write to hand a customer back.
   */
  handoff?: {
    /**
     * The staff group: a name declared under `chats:` (e.g. staff), or its chat id. A supergroup with topics (a forum) gets one topic per customer; a group without topics works by replies.
     */
    chat: string | number;
    /**
     * Hand the customer back to the bot after this long without a staff message (90s, 30m, 2h, 1d); without it, only an end word does.
     */
    idle?: string;
    /**
     * What staff write in the customer's topic (or in reply to a copy of their message) to hand them back (compared like text triggers: case and spacing do not matter). Default: [done, /done].
     *
     * @minItems 1
     */
    end?: [string, ...string[]];
  };
}
export interface RuleLimitSettings {
  /**
   * Largest rule file in bytes, checked before the file is read.
   */
  max_file_bytes?: number;
  /**
   * Most rules in all rule files together, counted before they are validated and compiled.
   */
  max_rules?: number;
}
export interface IngressSettings {
  /**
   * How updates arrive: long polling or a webhook.
   */
  mode?: "polling" | "webhook";
}
export interface PollingSettings {
  /**
   * Long-poll timeout in seconds (0-50).
   */
  timeout?: number;
  /**
   * Most updates fetched per getupdates call (1-100).
   */
  limit?: number;
  /**
   * Delete a webhook that is still set instead of stopping with an error.
   */
  delete_webhook?: boolean;
}
export interface WebhookSettings {
  /**
   * Public URL the service posts updates to (the webhook path is appended).
   */
  url?: string;
  /**
   * host:port the webhook server binds.
   */
  listen?: string;
  /**
   * URL path of the webhook endpoint; derived from a hash of the token when absent.
   */
  path?: string;
  /**
   * Secret the service sends in X-Telegram-Bot-Api-Secret-Token (1-256 of A-Z a-z 0-9 _ -). Prefer HEARSAY_WEBHOOK_SECRET.
   */
  secret?: string;
  tls?: WebhookTlsSettings;
  /**
   * Largest accepted request body in bytes.
   */
  max_body_bytes?: number;
  /**
   * max_connections given to setwebhook (1-100).
   */
  max_connections?: number;
  /**
   * Seconds a client has to send the request headers; slower connections are closed.
   */
  header_timeout?: number;
  /**
   * Seconds a client has to send the request body after its headers; slower connections are closed.
   */
  body_timeout?: number;
  /**
   * Seconds a connection may stay open between requests without sending anything before it is closed.
   */
  idle_timeout?: number;
  /**
   * Open connections the webhook server keeps at once; further ones are closed at once.
   */
  connection_limit?: number;
}
export interface WebhookTlsSettings {
  /**
   * PEM certificate file.
   */
  cert?: string;
  /**
   * PEM private key file.
   */
  key?: string;
}
export interface AdminSettings {
  /**
   * host:port of the /healthz and /metrics server in polling mode; off when absent.
   */
  listen?: string;
}
export interface LogSettings {
  /**
   * Log level.
   */
  level?: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /**
   * json lines, pretty text, or auto (pretty on a terminal).
   */
  format?: "auto" | "json" | "pretty";
  /**
   * Log the text of messages only a fallback (or nothing) answered (for hearsay report). Off by default: what users write is personal data.
   */
  unmatched?: boolean;
}
export interface ApiSettings {
  /**
   * Seconds hearsay waits for an answer to an ordinary Bot API call (long polls add their own timeout).
   */
  timeout?: number;
}
export interface RateLimitSettings {
  /**
   * Keep outgoing messages within the limits below (queueing, never dropping).
   */
  enabled?: boolean;
  /**
   * Messages per second to one chat; at least one message every 100 seconds (0.01), below that a wait would be mistaken for a hang.
   */
  per_chat_per_second?: number;
  /**
   * Messages per minute to one group (negative chat id); at least one message every 100 seconds (0.6), below that a wait would be mistaken for a hang.
   */
  per_group_per_minute?: number;
  /**
   * Messages per second in all; at least one message every 100 seconds (0.01), below that a wait would be mistaken for a hang.
   */
  overall_per_second?: number;
}
export interface DeliverySettings {
  /**
   * Chats handled at the same time.
   */
  concurrency?: number;
  /**
   * Updates in hand (accepted or fetched, not handled yet): beyond it the webhook answers 503 and polling fetches no more.
   */
  max_pending?: number;
  /**
   * Attempts per sendmessage call before the reply is dropped.
   */
  max_attempts?: number;
  /**
   * Seconds a graceful stop waits for work in flight.
   */
  shutdown_timeout?: number;
}
/**
 * Conversation state: the variables of users and chats and the users' unfinished flows (see docs/rules.md).
 */
export interface StateSettings {
  /**
   * How long state is kept after its last change: a number and s, m, h or d (e.g. 90d, 12h). A user's or chat's variables, and a user's unfinished flow, are forgotten after that.
   */
  ttl?: string;
  /**
   * Largest size of one user's variables (as JSON); a change that would pass it is not kept, and logged.
   */
  max_user_bytes?: number;
}
/**
 * One backend: where it is, how it is authenticated, how long to wait and how often to try.
 *
 * This interface was referenced by `undefined`'s JSON-Schema definition
 * via the `patternProperty` "^[A-Za-z][A-Za-z0-9_-]{0,63}$".
 */
export interface BackendSettings {
  /**
   * The base URL; a call's path is added to it (https://shop.example.com/api + /orders/4711). http:// only for loopback addresses (127.0.0.1, ::1, localhost) unless allow_http is true. May hold ${NAME} secrets.
   */
  url: string;
  /**
   * Headers sent with every request (Authorization: "Bearer ${SHOP_API_TOKEN}"). Their values never appear in logs, errors or metrics.
   */
  headers?: {
    /**
     * This interface was referenced by `undefined`'s JSON-Schema definition
     * via the `patternProperty` "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$".
     */
    [k: string]: string | undefined;
  };
  /**
   * How long one attempt may take, answer read to its end: a number and ms, s or m (default 5s).
   */
  timeout?: string;
  /**
   * Attempts after the first when the backend does not answer (network error, timeout) or answers 5xx: for GET, and for POST, PUT, PATCH and DELETE with their Idempotency-Key (default 1).
   */
  retries?: number;
  /**
   * Allow an http:// url that is not a loopback address (the traffic, headers included, is then readable on the way).
   */
  allow_http?: boolean;
  /**
   * The longest answer read (default 262144, 256 KiB); a longer one is an error.
   */
  max_response_bytes?: number;
  circuit_breaker?: CircuitBreakerSettings;
  /**
   * A `notify` to this backend is retried until it is answered 2xx, and given up (logged) this long after it was due (default 24h).
   */
  give_up_after?: string;
}
/**
 * After `failures` errors in a row (no answer, a timeout, 5xx, an unreadable answer), calls fail at once (the `error` branch) for `cool_down`; then one call is tried, and its success closes the circuit again.
 */
export interface CircuitBreakerSettings {
  /**
   * Errors in a row that open the circuit (default 5).
   */
  failures?: number;
  /**
   * How long calls fail at once before one is tried again (default 30s).
   */
  cool_down?: string;
}
