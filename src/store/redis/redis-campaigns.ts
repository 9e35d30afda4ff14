// The campaign book in Redis, shared by every replica and by `hearsay broadcast` itself. Keys under the bot's
// prefix: `bc:ids` (zset: campaign id by when it was planned), `bc:<id>` (hash: `def` the campaign's JSON,
// `cancelled` when it was cancelled) and `bc:<id>:out` (hash: user id → that recipient's latest outcome). A
// campaign is kept until its keys' time to live (state.ttl) runs out after its last change.
import { noOutcomes, RECIPIENT_OUTCOMES, type Campaign, type CampaignBook, type CampaignRecord, type RecipientOutcome } from '../../pipeline/broadcast-port.js';
import { script } from './redis-access.js';
import type { RedisLedger } from './redis-ledger.js';

/** KEYS[1]: prefix. ARGV: id, created at, campaign JSON, ttl ms. */
const CREATE = script(`
local p = KEYS[1]
if redis.call('HSETNX', p .. 'bc:' .. ARGV[1], 'def', ARGV[3]) == 1 then
  redis.call('ZADD', p .. 'bc:ids', ARGV[2], ARGV[1])
end
redis.call('PEXPIRE', p .. 'bc:' .. ARGV[1], ARGV[4])
return 1`);

/** KEYS[1]: prefix. ARGV: id → {campaign JSON or false, cancelled or false, {user, outcome, …}}. */
const GET = script(`
local p = KEYS[1]
local h = p .. 'bc:' .. ARGV[1]
return {redis.call('HGET', h, 'def'), redis.call('HGET', h, 'cancelled'), redis.call('HGETALL', h .. ':out')}`);

/** KEYS[1]: prefix. ARGV: id, user id, outcome, ttl ms → 0 when the campaign is unknown. */
const RECORD = script(`
local p = KEYS[1]
local h = p .. 'bc:' .. ARGV[1]
if redis.call('EXISTS', h) == 0 then return 0 end
redis.call('HSET', h .. ':out', ARGV[2], ARGV[3])
redis.call('PEXPIRE', h .. ':out', ARGV[4])
redis.call('PEXPIRE', h, ARGV[4])
return 1`);

/** KEYS[1]: prefix. ARGV: id, at → 0 when the campaign is unknown. */
const CANCEL = script(`
local p = KEYS[1]
local h = p .. 'bc:' .. ARGV[1]
if redis.call('EXISTS', h) == 0 then return 0 end
redis.call('HSETNX', h, 'cancelled', ARGV[2])
return 1`);

/** KEYS[1]: prefix → every campaign id, newest first (those whose keys expired are dropped from the list). */
const LIST = script(`
local p = KEYS[1]
local ids = redis.call('ZREVRANGE', p .. 'bc:ids', 0, -1)
local live = {}
for _, id in ipairs(ids) do
  if redis.call('EXISTS', p .. 'bc:' .. id) == 1 then live[#live + 1] = id else redis.call('ZREM', p .. 'bc:ids', id) end
end
return live`);

export class RedisCampaignBook implements CampaignBook {
  constructor(
    private readonly ledger: RedisLedger,
    private readonly ttlMs: number,
  ) {}

  async create(campaign: Campaign): Promise<void> {
    await this.ledger.runScript(CREATE, [], [campaign.id, campaign.createdAt, JSON.stringify(campaign), this.ttlMs]);
    await this.ledger.durable();
  }

  async get(id: string): Promise<CampaignRecord | undefined> {
    const [def, cancelled, outcomes] = (await this.ledger.runScript(GET, [], [id])) as [string | null, string | null, string[]];
    if (typeof def !== 'string') return undefined;
    const counts = noOutcomes();
    for (let i = 1; i < outcomes.length; i += 2) {
      const outcome = outcomes[i] as RecipientOutcome;
      if (RECIPIENT_OUTCOMES.includes(outcome)) counts[outcome] += 1;
    }
    return { ...(JSON.parse(def) as Campaign), counts, ...(typeof cancelled === 'string' ? { cancelledAt: Number(cancelled) } : {}) };
  }

  async list(): Promise<CampaignRecord[]> {
    const ids = (await this.ledger.runScript(LIST, [], [])) as string[];
    const records = await Promise.all(ids.map((id) => this.get(id)));
    return records.filter((record): record is CampaignRecord => record !== undefined);
  }

  async record(id: string, userId: number, outcome: RecipientOutcome): Promise<void> {
    await this.ledger.runScript(RECORD, [], [id, userId, outcome, this.ttlMs]);
  }

  async cancel(id: string, at: number): Promise<boolean> {
    const found = Number(await this.ledger.runScript(CANCEL, [], [id, at])) === 1;
    if (found) await this.ledger.durable();
    return found;
  }
}
