// The performer of a campaign's recipients (broadcastPerformer) when the book does not keep the campaign: the
// recipients are stored before the entry (pipeline/broadcasts.ts), so a replica may claim one in the moment
// between (tried again soon, then sent), and a planning cut short leaves recipients with no entry at all (given
// up once the grace is over, nothing sent).
import { describe, expect, it } from 'vitest';
import { broadcastPerformer, PLANNING_GRACE_MS } from '../../src/delivery/broadcast-effects.js';
import { createLogger } from '../../src/log/logger.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { recipientEffect } from '../../src/pipeline/broadcasts.js';
import type { Campaign } from '../../src/pipeline/broadcast-port.js';
import type { StoredEffect } from '../../src/pipeline/outbox-port.js';
import { CampaignTally } from '../../src/store/campaign-tally.js';
import { FakeBotApi } from './fake-bot-api.js';

const PLANNED = Date.parse('2026-11-27T12:00:00Z');
const CAMPAIGN: Campaign = { id: '20261127-abc123', text: 'Winter sale', audience: ['all'], total: 1, createdAt: PLANNED };

function setUp(now: () => number) {
  const api = new FakeBotApi();
  const campaigns = new CampaignTally();
  const performer = broadcastPerformer({
    api,
    campaigns,
    commitState: async () => true,
    metrics: new ServiceMetrics({ processMetrics: false }),
    logger: createLogger({ level: 'silent' }),
    now,
  });
  const effect = { ...recipientEffect(CAMPAIGN, 42), attempts: 0 } as unknown as StoredEffect;
  const perform = () => performer.perform(effect, new AbortController().signal);
  return { api, campaigns, performer, perform };
}

describe('a recipient whose campaign the book does not keep', () => {
  it("is tried again (after the outbox's back-off) while the entry may still be on its way, and sent once it is there", async () => {
    let clock = PLANNED + 5;
    const { api, campaigns, performer, perform } = setUp(() => clock);
    const early = await perform();
    expect(early).toEqual({ outcome: 'retry', reason: `campaign ${CAMPAIGN.id} is being planned` });
    expect(api.sent).toHaveLength(0);
    await campaigns.create(CAMPAIGN);
    clock += 1000;
    expect(await perform()).toEqual({ outcome: 'done' });
    expect(api.sent.map((params) => params.text)).toEqual(['Winter sale']);
    expect((await campaigns.get(CAMPAIGN.id))?.counts.sent).toBe(1);
    performer.close();
  });

  it('is given up unsent once the grace is over: the planning was cut short', async () => {
    const { api, performer, perform } = setUp(() => PLANNED + PLANNING_GRACE_MS);
    const attempt = await perform();
    expect(attempt).toMatchObject({ outcome: 'failed' });
    expect((attempt as { reason: string }).reason).toContain('its planning was cut short');
    expect((attempt as { reason: string }).reason).toContain('nothing was sent');
    expect(api.sent).toHaveLength(0);
    performer.close();
  });
});
