// Planning a campaign on a store (handleBroadcast): its recipients' effects are stored in one record with the
// campaign's entry; when the store refuses that record, the command fails and the entry says the campaign was
// stopped (cancelled, every recipient left out) instead of waiting for recipients that will never come.
import { describe, expect, it } from 'vitest';
import type { StateCommit } from '../../src/pipeline/ports.js';
import { handleBroadcast, type BroadcastStore } from '../../src/pipeline/broadcasts.js';
import { CampaignTally } from '../../src/store/campaign-tally.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const USERS = [1, 2, 3].map((userId) => ({ userId, variables: { newsletter: 'yes' } }));

function store(commit: (state: StateCommit) => Promise<unknown>): BroadcastStore & { commits: StateCommit[] } {
  const commits: StateCommit[] = [];
  return {
    commits,
    knownUsers: async () => USERS,
    commitState: async (state) => {
      commits.push(state);
      return commit(state);
    },
    campaigns: new CampaignTally(),
  };
}

const REQUEST = { op: 'broadcast', to: ['user.newsletter=yes'], message: { text: 'Sale!' }, dryRun: false } as const;

describe('planning a broadcast', () => {
  it('stores the campaign and one effect per recipient in one record', async () => {
    const shop = store(async () => true);
    const answer = await handleBroadcast(shop, REQUEST, NOW);
    expect(answer.op === 'broadcast' && answer.campaign?.total).toBe(3);
    expect(shop.commits).toHaveLength(1);
    expect(shop.commits[0]!.effects?.map((effect) => effect.id)).toEqual(
      [1, 2, 3].map((user) => `b.${(answer as { campaign: { id: string } }).campaign.id}.${user}`),
    );
  });

  it('a store that refuses the recipients fails the request and leaves the campaign cancelled, not waiting', async () => {
    const shop = store(async () => {
      throw new Error('the store is not reachable');
    });
    await expect(handleBroadcast(shop, REQUEST, NOW)).rejects.toThrow('the store is not reachable');
    const [campaign] = await shop.campaigns.list();
    expect(campaign).toMatchObject({ total: 3, cancelledAt: NOW });
  });
});
