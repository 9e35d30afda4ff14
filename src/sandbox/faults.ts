// Fault injection and request counting, per bot and method, driven through the client API:
// fail the next N calls with a status (429 with retry_after), delay them, or reset the connection.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './api-failure.js';
import { objectBody, readPeer } from './client-routes.js';
import type { SandboxStore } from './store.js';

export interface FaultRule {
  /** Bot username (lowercase), or undefined for every bot. */
  bot?: string;
  /** Lowercase method, or undefined for every method. */
  method?: string;
  remaining: number;
  status?: number;
  retryAfter?: number;
  description?: string;
  reset?: boolean;
  delayMs?: number;
}

export type FaultAction = Omit<FaultRule, 'bot' | 'method' | 'remaining'>;

export class FaultInjector {
  private rules: FaultRule[] = [];
  private readonly counts = new Map<string, Map<string, number>>();

  add(rule: FaultRule): void {
    this.rules.push(rule);
  }

  clear(): void {
    this.rules = [];
  }

  /** Counts the call and returns the fault to apply to it, if any (each rule applies `remaining` times). */
  next(botUsername: string, method: string): FaultAction | undefined {
    const bot = botUsername.toLowerCase();
    const perBot = this.counts.get(bot) ?? new Map<string, number>();
    perBot.set(method, (perBot.get(method) ?? 0) + 1);
    this.counts.set(bot, perBot);
    const rule = this.rules.find((candidate) => candidate.remaining > 0 && (candidate.bot ?? bot) === bot && (candidate.method ?? method) === method);
    if (!rule) return undefined;
    rule.remaining--;
    if (rule.remaining === 0) this.rules = this.rules.filter((candidate) => candidate !== rule);
    const { bot: _bot, method: _method, remaining: _remaining, ...action } = rule;
    return action;
  }

  stats(botUsername: string): Record<string, number> {
    return Object.fromEntries(this.counts.get(botUsername.toLowerCase()) ?? []);
  }
}

export interface FaultRoutesOptions {
  store: SandboxStore;
  faults: FaultInjector;
}

export async function faultRoutes(app: FastifyInstance, { store, faults }: FaultRoutesOptions): Promise<void> {
  app.post('/client/faults', async (request) => {
    const body = objectBody(request.body);
    const rule = readFault(store, body);
    faults.add(rule);
    return { ok: true, result: true };
  });

  app.delete('/client/faults', async () => {
    faults.clear();
    return { ok: true, result: true };
  });

  app.get('/client/stats', async (request) => {
    const { bot } = request.query as { bot?: string };
    const peer = readPeer(store, bot);
    return { ok: true, result: { bot: peer.username, requests: faults.stats(peer.username) } };
  });
}

function readFault(store: SandboxStore, body: Record<string, unknown>): FaultRule {
  const rule: FaultRule = { remaining: 1 };
  if (body.bot !== undefined) rule.bot = readPeer(store, body.bot).username.toLowerCase();
  if (body.method !== undefined && body.method !== '*') {
    if (typeof body.method !== 'string' || !/^[A-Za-z]+$/.test(body.method)) throw badRequest('method must be a Bot API method name');
    rule.method = body.method.toLowerCase();
  }
  if (body.count !== undefined) rule.remaining = integerIn(body.count, 'count', 1, 1_000_000);
  if (body.status !== undefined) rule.status = integerIn(body.status, 'status', 400, 599);
  if (body.retry_after !== undefined) rule.retryAfter = integerIn(body.retry_after, 'retry_after', 0, 3600);
  if (body.delay_ms !== undefined) rule.delayMs = integerIn(body.delay_ms, 'delay_ms', 0, 600_000);
  if (body.description !== undefined) {
    if (typeof body.description !== 'string') throw badRequest('description must be a string');
    rule.description = body.description;
  }
  if (body.reset !== undefined) {
    if (typeof body.reset !== 'boolean') throw badRequest('reset must be true or false');
    rule.reset = body.reset;
  }
  if (rule.status === 429 && rule.retryAfter === undefined) rule.retryAfter = 1;
  if (rule.status === undefined && !rule.reset && rule.delayMs === undefined) {
    throw badRequest('a fault needs "status", "reset": true or "delay_ms"');
  }
  return rule;
}

function integerIn(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw badRequest(`${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}
