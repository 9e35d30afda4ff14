// The outbox in Redis, shared by the replicas of one bot: effects are added by the ledger's commit script (in
// the same step as the done mark and the state), claimed by one replica at a time (its claim lives as long as
// its replica lease: a dead replica's claims come back to the others), and finished by the replica that holds
// them. Every write is one script (outbox-scripts.ts) and resolves once the server has it on disk.
import type { EffectOutbox, EffectOutcome, NewEffect, OutboxStats, StoredEffect } from '../../pipeline/outbox-port.js';
import type { StateCommit } from '../../pipeline/ports.js';
import { ReplicaFencedError } from '../../pipeline/replica-ports.js';
import {
  BEGIN_EFFECT_SCRIPT,
  CLAIM_EFFECTS_SCRIPT,
  FINISH_EFFECT_SCRIPT,
  FORGET_EFFECTS_SCRIPT,
  NEXT_DUE_SCRIPT,
  OUTBOX_STATS_SCRIPT,
} from './outbox-scripts.js';
import { script, type RedisAccess } from './redis-access.js';

const SCRIPTS = {
  claim: script(CLAIM_EFFECTS_SCRIPT),
  begin: script(BEGIN_EFFECT_SCRIPT),
  finish: script(FINISH_EFFECT_SCRIPT),
  forget: script(FORGET_EFFECTS_SCRIPT),
  nextDue: script(NEXT_DUE_SCRIPT),
  stats: script(OUTBOX_STATS_SCRIPT),
};

/** The commit script's outbox argument for a record: '' when it changes nothing in the outbox. */
export function outboxArgument(state: StateCommit | null): string {
  const effects = state?.effects ?? [];
  const cancel = state?.cancel ?? [];
  if (effects.length === 0 && cancel.length === 0) return '';
  return JSON.stringify({
    e: effects.map((effect) => ({
      id: effect.id,
      json: JSON.stringify(effect),
      at: String(effect.dueAt),
      ...(effect.orderKey !== undefined ? { k: effect.orderKey } : {}),
      ...(effect.replaceKey !== undefined ? { r: effect.replaceKey } : {}),
      ...(effect.userId !== undefined ? { u: String(effect.userId) } : {}),
    })),
    x: cancel,
  });
}

export class RedisOutbox implements EffectOutbox {
  constructor(
    private readonly store: RedisAccess,
    /** This replica's name (its lease key `replica:<owner>` keeps its claims). */
    private readonly owner: string,
  ) {}

  async claimDue(now: number, limit: number): Promise<StoredEffect[]> {
    const rows = (await this.store.runScript(SCRIPTS.claim, [], [this.owner, now, limit])) as Array<[string, string, string, number]>;
    if (rows.length > 0) await this.store.durable();
    return rows.map(([json, at, attempts, begun]) => storedEffect(json, at, attempts, begun === 1));
  }

  async beginEffect(id: string): Promise<void> {
    if ((await this.store.runScript(SCRIPTS.begin, [], [id, this.owner])) === 'fenced') throw fenced(id);
    await this.store.durable();
  }

  async finishEffect(id: string, outcome: EffectOutcome): Promise<void> {
    const retryAt = outcome.outcome === 'retry' ? outcome.retryAt : '';
    if ((await this.store.runScript(SCRIPTS.finish, [], [id, this.owner, outcome.outcome, retryAt])) === 'fenced') throw fenced(id);
    await this.store.durable();
  }

  async releaseEffect(id: string): Promise<void> {
    await this.store.runScript(SCRIPTS.finish, [], [id, this.owner, 'release', '']);
  }

  async nextDueAt(): Promise<number | null> {
    const at = (await this.store.runScript(SCRIPTS.nextDue, [], [])) as string | null;
    return at === null ? null : Number(at);
  }

  async effectsOf(userId: number): Promise<StoredEffect[]> {
    const { client } = this.store;
    const ids = await this.store.command(() => client.smembers(this.store.key(`fx:user:${userId}`)));
    if (ids.length === 0) return [];
    const [effects, at, attempts, begun] = await this.store.command(() =>
      Promise.all([
        client.hmget(this.store.key('fx'), ...ids),
        client.hmget(this.store.key('fx:at'), ...ids),
        client.hmget(this.store.key('fx:attempts'), ...ids),
        client.hmget(this.store.key('fx:begun'), ...ids),
      ]),
    );
    const out: StoredEffect[] = [];
    ids.forEach((_, i) => {
      if (effects[i]) out.push(storedEffect(effects[i]!, at[i] ?? '0', attempts[i] ?? '0', begun[i] === '1'));
    });
    return out.sort((a, b) => a.attemptAt - b.attemptAt);
  }

  async outboxStats(now: number): Promise<OutboxStats> {
    const [pending, due, oldest] = (await this.store.runScript(SCRIPTS.stats, [], [now])) as [number, number, string];
    return { pending, due, oldestDueAt: oldest === '' ? null : Number(oldest) };
  }

  /** Drops every pending effect concerning one user (a forget). */
  async forgetUser(userId: number): Promise<void> {
    await this.store.runScript(SCRIPTS.forget, [], [userId]);
    await this.store.durable();
  }
}

function storedEffect(json: string, at: string, attempts: string, begun: boolean): StoredEffect {
  const effect = JSON.parse(json) as NewEffect;
  return { ...effect, attemptAt: Number(at), attempts: Number(attempts), inDoubt: begun };
}

function fenced(id: string): ReplicaFencedError {
  return new ReplicaFencedError(`effect ${id} was taken over by another replica while this one was paused; not performed from here`);
}
