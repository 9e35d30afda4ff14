// Every failure hearsay reports, by code (the model is Fastify's FST_ERR_* registry): its message template
// (%s / %d filled in order), the exit code it ends a command with, the short label logs carry, the setting
// to look at, the hearsay_errors_total kind when it is counted, and what the operator should do.
// docs/operations.md lists the same codes; a test keeps the two equal.
import { FAILURE_EXIT_CODE, USAGE_EXIT_CODE } from './exit-codes.js';

/** The facts about one code. */
export interface ErrorSpec {
  /** Message template, util.format style: %s and %d are filled by the arguments in order. */
  readonly message: string;
  /** The exit code a command ends with when this error stops it. */
  readonly exitCode: number;
  /** Short snake_case label: the `failure` field of log lines (and, with `kind`, of metrics). */
  readonly label: string;
  /** The label of hearsay_errors_total{kind} this failure is counted under, if it is counted. */
  readonly kind?: string;
  /** The setting (as in the config file) that decides it, if one does. */
  readonly setting?: string;
  /** What the operator does about it (docs/operations.md shows it). */
  readonly action: string;
}

const started = (spec: Omit<ErrorSpec, 'exitCode'>): ErrorSpec => ({ ...spec, exitCode: FAILURE_EXIT_CODE });
/** Counted in metrics while running; never ends a command by itself. */
const counted = <K extends string>(kind: K, message: string, action: string): ErrorSpec & { kind: K } => ({
  message,
  exitCode: FAILURE_EXIT_CODE,
  label: kind,
  kind,
  action,
});

export const ERRORS = {
  // Settings: wrong before anything starts.
  HS_ERR_CONFIG_INVALID: {
    message: '%s',
    exitCode: USAGE_EXIT_CODE,
    label: 'config',
    action:
      'Each line names the setting and where the wrong value came from (file:line:column, environment variable or option): correct it. Restarting alone will not help.',
  },

  // Start-up: `hearsay run` ends with exit code 1 and nothing was started.
  HS_ERR_RULES_INVALID: started({
    message: 'the rules in %s have problems; nothing was started',
    label: 'rules',
    setting: 'rules',
    action: 'Fix the problems printed above the message (path:line:column: message); `hearsay check` shows them without starting.',
  }),
  HS_ERR_RULES_MISSING: started({
    message: 'the rule path %s does not exist',
    label: 'rules',
    setting: 'rules',
    action: 'Point `rules` (HEARSAY_RULES, --rules) at a rule file or folder, or create it.',
  }),
  HS_ERR_RULES_UNREADABLE: started({
    message: 'cannot load the rules: %s',
    label: 'rules',
    setting: 'rules',
    action: 'Make the rule files readable by the user hearsay runs as.',
  }),
  HS_ERR_RULE_PROBLEMS: started({
    message: '%d problem%s in the rules:\n%s%s',
    label: 'rules',
    setting: 'rules',
    action: 'Rules given to the engine directly (not through `hearsay run`) have problems; each is listed with its position.',
  }),
  HS_ERR_TOKEN_REFUSED: started({
    message: "the token was rejected (401 Unauthorized); check %s: it must be the bot's current token, as the bot-creation assistant gave it",
    label: 'unauthorized',
    action: "Set the bot's current token in BOT_TOKEN or the file named by BOT_TOKEN_FILE.",
  }),
  HS_ERR_API_UNREACHABLE: started({
    message: 'cannot reach the Bot API at %s: %s',
    label: 'unreachable',
    setting: 'base_url',
    action: 'Check BASE_URL and that the service is reachable from this machine; start-up calls are tried three times within ten seconds first.',
  }),
  HS_ERR_INSTANCE_LOCKED: started({
    message: '@%s: another hearsay instance is already running for this bot with this data directory (%s; lock file %s); %s',
    label: 'locked',
    setting: 'data_dir',
    action:
      'Stop the other instance, or give this one its own data_dir. A lock whose owner cannot be alive is taken over by itself: at once when it is from this host (the process gone, exited, its pid reused or this very pid), after 30 s without renewal when it is from another host or container.',
  }),
  HS_ERR_STATE_LOCK_FAILED: started({
    message: 'cannot lock the service state in %s: %s; check data_dir (HEARSAY_DATA_DIR)',
    label: 'state',
    setting: 'data_dir',
    action: 'Make data_dir a writable directory on a local file system.',
  }),
  HS_ERR_STATE_OPEN_FAILED: started({
    message: 'cannot open the service state in %s: %s; check data_dir (HEARSAY_DATA_DIR)',
    label: 'state',
    setting: 'data_dir',
    action: 'Make data_dir and its files readable and writable by the user hearsay runs as.',
  }),
  HS_ERR_STORE_OPEN_FAILED: started({
    message: '%s; check store (HEARSAY_STORE) and the store password',
    label: 'state',
    setting: 'store',
    action: 'The Redis store named by `store` could not be opened (the message says why): check its address, that it runs, and the password.',
  }),
  HS_ERR_LISTEN_FAILED: started({
    message: '%s',
    label: 'listen_failed',
    setting: 'webhook.listen',
    action: 'The message says why (port in use, privileged port, unknown address) and which setting chooses the address.',
  }),
  HS_ERR_ADMIN_LISTEN_FAILED: started({
    message: 'admin server: %s',
    label: 'ingress',
    setting: 'admin.listen',
    action: 'The message says why and which setting chooses the address.',
  }),
  HS_ERR_SET_WEBHOOK_FAILED: started({
    message: 'the service refused the webhook URL %s: %s',
    label: 'set_webhook_failed',
    setting: 'webhook.url',
    action: 'Use a public https URL the service accepts (the message quotes its refusal).',
  }),

  // While running: the service stops taking updates, stops, and `hearsay run` exits 1.
  HS_ERR_TOKEN_REVOKED: started({
    message:
      "the token was rejected (401 Unauthorized): it was revoked (a new one was generated) or is wrong; set the bot's current token in %s and start again. Updates not answered yet are kept and answered then",
    label: 'unauthorized',
    action: "Set the bot's current token and start again; nothing that was not answered is lost.",
  }),
  HS_ERR_SANDBOX_RESTARTED: started({
    message:
      'the sandbox at %s restarted and no longer knows this bot (@%s): create it again with BotMaker and start hearsay with its new token, or use `hearsay start` without a token for the demo',
    label: 'sandbox_restarted',
    action: 'The local sandbox keeps its bots in memory only: create the bot again (BotMaker) and run hearsay with the new token.',
  }),
  HS_ERR_WEBHOOK_ACTIVE: started({
    message:
      'a webhook is set for this bot, so polling is refused (409 Conflict). Delete the webhook (deletewebhook), set polling.delete_webhook: true (HEARSAY_POLLING_DELETE_WEBHOOK=true) to let hearsay delete it, or run with --mode webhook',
    label: 'webhook_active',
    setting: 'polling.delete_webhook',
    action: 'Delete the webhook, let hearsay delete it (polling.delete_webhook: true), or run in webhook mode.',
  }),
  HS_ERR_OTHER_INSTANCE: started({
    message:
      'another instance is polling with the same token (409 Conflict: terminated by other getUpdates request); make sure only one hearsay (or other bot program) runs with this token',
    label: 'other_instance',
    action: 'Stop the other program polling with this token.',
  }),

  // The service's state files.
  HS_ERR_STATE_IO: started({
    message: '%s %s%s',
    label: 'state',
    setting: 'data_dir',
    action: 'A read or write of a state file failed (the system code is in parentheses): free disk space, fix permissions.',
  }),
  HS_ERR_STATE_CLOSED: started({
    message: '%s is closed',
    label: 'state',
    action: 'A write came after the stop closed the state files; it is a bug to report.',
  }),
  HS_ERR_UPDATE_UNSTORABLE: started({
    message: 'update %d cannot be stored: %s',
    label: 'webhook_invalid',
    action: 'The service is told 400 for an update that cannot be written as one line; nothing to do unless it repeats.',
  }),

  // The embedded demo (`hearsay start`).
  HS_ERR_DEMO_BOT_REFUSED: started({
    message: 'the assistant did not create @%s: %s',
    label: 'bot',
    action: 'The sandbox assistant refused the demo bot; its answer is quoted.',
  }),
  HS_ERR_DEMO_USERNAMES_TAKEN: started({
    message: 'every demo username is taken (%s … %s)',
    label: 'bot',
    action: 'Start with a fresh sandbox data directory.',
  }),
  HS_ERR_DEMO_NO_ANSWER: started({
    message: "the assistant did not answer '%s'",
    label: 'bot',
    action: 'The sandbox assistant is not answering; start again.',
  }),
  HS_ERR_DEMO_SANDBOX_REFUSED: started({
    message: 'the sandbox refused %s %s: %s',
    label: 'bot',
    action: 'The embedded sandbox refused a request while creating the demo bot; its reason is quoted.',
  }),
  HS_ERR_DEMO_NO_RULES: started({
    message: "there is no rule folder at %s; create one with '%s init', or point --rules at your rules",
    label: 'rules',
    setting: 'rules',
    action: 'Create a rule folder (`hearsay init`) or point --rules at yours; without --rules and without ./rules the demo uses its built-in rules.',
  }),
  HS_ERR_DEMO_LISTEN: started({ message: '%s', label: 'listen', action: 'The message says why the page could not listen; choose another --port or --host.' }),

  // Counted in hearsay_errors_total{kind} while running (a call is retried or a reply dropped; nothing stops).
  HS_ERR_API_RATE_LIMITED: counted(
    'rate_limited',
    '%s failed: 429 Too Many Requests',
    'None: hearsay waits exactly retry_after. Many of them: lower rate_limits.',
  ),
  HS_ERR_API_SERVER_ERROR: counted(
    'server_error',
    '%s failed: the service answered 5xx',
    'None: retried with backoff. Persistent: the service or a proxy in front of it is down.',
  ),
  HS_ERR_API_NETWORK: counted('network', '%s failed: network error %s', 'None: retried with backoff. Persistent: check the network path to BASE_URL.'),
  HS_ERR_API_TIMEOUT: counted(
    'timeout',
    '%s failed: no answer within %d ms',
    'None: retried. Frequent: raise api.timeout above the service’s normal answer time.',
  ),
  HS_ERR_API_REJECTED: counted(
    'rejected',
    '%s failed: %d %s',
    'The service refused one request (400, 403: e.g. the user blocked the bot); the reply is dropped, the chat goes on.',
  ),
  HS_ERR_API_UNAUTHORIZED: counted('unauthorized', '%s failed: 401 Unauthorized', 'See HS_ERR_TOKEN_REVOKED.'),
  HS_ERR_API_CONFLICT: counted('conflict', '%s failed: 409 Conflict', 'See HS_ERR_WEBHOOK_ACTIVE and HS_ERR_OTHER_INSTANCE.'),
  HS_ERR_API_HTTP: counted('http', '%s failed: HTTP %d without a Bot API answer', 'Something other than the Bot API answered (a proxy page): check BASE_URL.'),
  HS_ERR_REPLY_DROPPED: counted('reply_dropped', 'reply dropped', 'The log line says why (refused, last attempt, retry_after too long).'),
  HS_ERR_HANDLER_FAILED: counted(
    'handler_failed',
    'handling update %d failed: %s',
    'A bug: the update is logged as handled so it cannot block its chat; report it with the log line.',
  ),
  HS_ERR_WEBHOOK_UNAUTHORIZED: counted(
    'webhook_unauthorized',
    'a webhook request without the right secret token',
    'Someone other than the service posts to the webhook path; nothing to do unless webhook.secret leaked.',
  ),
  HS_ERR_WEBHOOK_INVALID: counted('webhook_invalid', 'a webhook request that is not an update', 'Answered 400; nothing to do unless it repeats.'),
  HS_ERR_WEBHOOK_OVERLOADED: counted(
    'webhook_overloaded',
    'too many webhook updates in flight',
    'Answered 503 (the service retries); raise delivery.max_pending or the capacity behind it (delivery.concurrency, replicas). Logged at most once every 10 s, with how many were refused since.',
  ),
  HS_ERR_STORE_UNAVAILABLE: counted(
    'store_unavailable',
    'the Redis store is unavailable (%s)',
    'Updates wait (webhook 503, polling unconfirmed) and resume by themselves once Redis is back; check the Redis server and store (HEARSAY_STORE).',
  ),
  HS_ERR_UNKNOWN: counted('unknown', '%s', 'A failure of no known kind; the log line has it.'),
} as const satisfies Record<string, ErrorSpec>;

/** A registered error code. */
export type ErrorCode = keyof typeof ERRORS;

/** A label of hearsay_errors_total{kind}. */
export type ErrorKind = { [C in ErrorCode]: (typeof ERRORS)[C] extends { kind: infer K extends string } ? K : never }[ErrorCode];

/** Every label of hearsay_errors_total{kind}, in registry order. */
export const ERROR_KINDS: readonly ErrorKind[] = Object.values(ERRORS as Record<string, ErrorSpec>).flatMap((spec) =>
  spec.kind ? [spec.kind as ErrorKind] : [],
);

/** The code whose metric kind is `kind`. */
export function codeOfKind(kind: string): ErrorCode | undefined {
  return (Object.keys(ERRORS) as ErrorCode[]).find((code) => (ERRORS[code] as ErrorSpec).kind === kind);
}
