// The service's Prometheus metrics, on a registry of its own (never the global one), so several
// services in one process (tests, an embedded demo) do not mix their numbers.
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { ERROR_KINDS, type ErrorKind } from '../errors/registry.js';
import { FastHistogram, LabelledFastHistogram } from './fast-histogram.js';

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly updatesReceived = new Counter({ name: 'hearsay_updates_received_total', help: 'Updates received from the service.', registers: [this.registry] });
  readonly repliesSent = new Counter({ name: 'hearsay_replies_sent_total', help: 'sendmessage calls that succeeded.', registers: [this.registry] });
  /** Successful requests by method, not yet added to `apiCalls` (see {@link ServiceMetrics.apiCallOk}). */
  private readonly okCalls = new Map<string, number>();
  readonly apiCalls = new Counter({
    name: 'hearsay_api_calls_total',
    help: 'Bot API requests (each attempt) by method and outcome: ok, or the error kind.',
    labelNames: ['method', 'outcome'] as const,
    registers: [this.registry],
    collect: () => drain(this.okCalls, (method, n) => this.apiCalls.inc({ method, outcome: 'ok' }, n)),
  });
  /** Observed on every Bot API request, so not prom-client's Histogram (see fast-histogram.ts); the text it exposes is the same. */
  readonly apiCallDuration = new LabelledFastHistogram({
    name: 'hearsay_api_call_duration_seconds',
    help: 'Time from sending a Bot API request to its answer (each attempt), by method.',
    labelName: 'method',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly errors = new Counter({ name: 'hearsay_errors_total', help: 'Errors by kind.', labelNames: ['kind'] as const, registers: [this.registry] });
  /** Observed on every update (as apiCallDuration). */
  readonly matchDuration = new FastHistogram({
    name: 'hearsay_match_duration_seconds',
    help: 'Time to match one message against the rule set.',
    buckets: [0.00001, 0.00005, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1],
    registers: [this.registry],
  });
  readonly reloads = new Counter({
    name: 'hearsay_reloads_total',
    help: 'Rule reloads by result.',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly reloadSuccess = new Gauge({
    name: 'hearsay_reload_success',
    help: '1 when the last rule reload succeeded, 0 when it failed.',
    registers: [this.registry],
  });
  readonly rulesActive = new Gauge({ name: 'hearsay_rules_active', help: 'Rules in the active rule set.', registers: [this.registry] });
  readonly storeAvailable = new Gauge({
    name: 'hearsay_store_available',
    help: '1 while the store (file or Redis) can be used, 0 during an outage.',
    registers: [this.registry],
  });
  readonly storeDataLost = new Counter({
    name: 'hearsay_store_data_lost_total',
    help: 'Times this process found the shared (Redis) store without its data: restarted empty, flushed, failed over to a server without it.',
    registers: [this.registry],
  });
  readonly pollingLeader = new Gauge({
    name: 'hearsay_polling_leader',
    help: '1 while this process polls the service (polling mode; on a Redis store, the replica holding the polling lease), else 0.',
    registers: [this.registry],
  });
  /** Hits by rule id, not yet added to `ruleHits` (see {@link ServiceMetrics.ruleHit}). */
  private readonly hits = new Map<string, number>();
  readonly ruleHits = new Counter({
    name: 'hearsay_rule_hits_total',
    help: 'Updates answered, by the rule (or flow step) that answered.',
    labelNames: ['rule'] as const,
    registers: [this.registry],
    collect: () => drain(this.hits, (rule, n) => this.ruleHits.inc({ rule }, n)),
  });
  readonly unmatched = new Counter({
    name: 'hearsay_unmatched_total',
    help: 'Text messages no ordinary rule matched: answered by a fallback rule, by nothing, or with suggestions (suggest:).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly suggestions = new Counter({
    name: 'hearsay_suggestions_total',
    help: 'Presses of suggestions (suggest:) by outcome and rule: taken (that rule answered; also counted in hearsay_rule_hits_total) or declined ("None of these", the fallback answered).',
    labelNames: ['outcome', 'rule'] as const,
    registers: [this.registry],
  });

  readonly moderation = new Counter({
    name: 'hearsay_moderation_total',
    help: "Rules' moderation calls (deletemessage, restrictchatmember, banchatmember, ...) by method and outcome: done, missing_right (the bot lacks the admin right), failed.",
    labelNames: ['method', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly botStatus = new Counter({
    name: 'hearsay_bot_status_changes_total',
    help: "Changes of the bot's own status: blocked and unblocked by a user, added to and removed from a group.",
    labelNames: ['change'] as const,
    registers: [this.registry],
  });

  readonly broadcastMessages = new Counter({
    name: 'hearsay_broadcast_messages_total',
    help: 'Broadcast recipients by campaign and outcome: sent, blocked (the user blocked the bot: marked user._blocked), failed (refused, or given up after retries), cancelled (hearsay broadcast cancel came first).',
    labelNames: ['campaign', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly effects = new Counter({
    name: 'hearsay_effects_total',
    help: 'Outbox effects (messages to other chats, backend calls, later messages) by kind and outcome: done, failed (given up), retried, late (dropped), in_doubt (an attempt a crash cut short, performed again).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly backendRequests = new Counter({
    name: 'hearsay_backend_requests_total',
    help: "Requests to the operator's backends (each attempt; a call refused by an open circuit counts once) by backend and outcome: ok (2xx), client_error (4xx), server_error (5xx), redirect, timeout, network, too_large, unsupported_type, bad_json, circuit_open.",
    labelNames: ['backend', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly backendRequestDuration = new LabelledFastHistogram({
    name: 'hearsay_backend_request_duration_seconds',
    help: 'Time from sending a request to a backend to having read its answer (each attempt), by backend.',
    labelName: 'backend',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  /** What the outbox holds when the metrics are read (set by the service; none without an outbox). */
  outboxStats: (() => Promise<{ due: number; oldestDueAt: number | null }>) | null = null;
  readonly effectsDue = new Gauge({
    name: 'hearsay_effects_due',
    help: 'Outbox effects due now and not finished (being performed or waiting).',
    registers: [this.registry],
    collect: async () => {
      const stats = await this.outboxStats?.().catch(() => null);
      this.effectsDue.set(stats?.due ?? 0);
      this.effectsOldestDue.set(stats?.oldestDueAt ? Math.max(0, (Date.now() - stats.oldestDueAt) / 1000) : 0);
    },
  });
  readonly effectsOldestDue = new Gauge({
    name: 'hearsay_effects_oldest_due_seconds',
    help: 'How long the oldest outbox effect due now has been due (0 when none is).',
    registers: [this.registry],
  });

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.reloadSuccess.set(1);
    this.storeAvailable.set(1);
    // Every kind starts at zero so dashboards see the series before the first error.
    for (const kind of ERROR_KINDS) this.errors.inc({ kind }, 0);
    for (const result of ['success', 'failure'] as const) this.reloads.inc({ result }, 0);
    for (const outcome of ['fallback', 'none', 'suggested'] as const) this.unmatched.inc({ outcome }, 0);
  }

  /** Counts one error of `kind` (hearsay_errors_total's labels are the kinds of the error registry). */
  error(kind: ErrorKind): void {
    this.errors.inc({ kind });
  }

  /**
   * Counts one update answered by `ruleId` in hearsay_rule_hits_total. Kept in a map and added when the metric is
   * read: prom-client's labelled inc (a label hash and a lookup in a dictionary of every rule's series) is a
   * measurable part of an update's CPU, a Map increment on the rule's id string is not.
   */
  ruleHit(ruleId: string): void {
    this.hits.set(ruleId, (this.hits.get(ruleId) ?? 0) + 1);
  }

  /** Counts one successful Bot API request in hearsay_api_calls_total{outcome="ok"} (added when read, as ruleHit). */
  apiCallOk(method: string): void {
    this.okCalls.set(method, (this.okCalls.get(method) ?? 0) + 1);
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** Adds every count kept in `counts` (a scrape is about to read the metric) and empties it. */
function drain(counts: Map<string, number>, add: (label: string, n: number) => void): void {
  for (const [label, n] of counts) add(label, n);
  counts.clear();
}
