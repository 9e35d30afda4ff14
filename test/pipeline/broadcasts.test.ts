// Planning a campaign on a store (handleBroadcast): its recipients' effects are stored in one record, then the
// campaign's entry. When the store refuses the record, the command fails and no campaign is kept; when the planning
// is cut short after the record (a kill -9), no entry says "sending" for recipients that never come.
import { describe, expect, it } from 'vitest';
import type { StateCommit } from '../../src/pipeline/ports.js';
import { handleBroadcast, type BroadcastStore } from '../../src/pipeline/broadcasts.js';
import { CampaignTally } from '../../src/store/campaign-tally.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const USERS = [1, 2, 3].map((userId) => ({ userId, variables: { newsletter: 'yes' } }));

function store(commit: (state: StateCommit) => Promise<unknown>, campaigns = new CampaignTally()): BroadcastStore & { commits: StateCommit[] } {
  const commits: StateCommit[] = [];
  return {
    commits,
    knownUsers: async () => USERS,
    commitState: async (state) => {
      commits.push(state);
      return commit(state);
    },
    campaigns,
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

  it('a store that refuses the recipients fails the request and keeps no campaign waiting for them', async () => {
    const shop = store(async () => {
      throw new Error('the store is not reachable');
    });
    await expect(handleBroadcast(shop, REQUEST, NOW)).rejects.toThrow('the store is not reachable');
    expect(await shop.campaigns.list()).toEqual([]);
  });

  it('cut short between the recipients and the entry: the recipients are stored, no entry says "sending"', async () => {
    // The book's write is where the process dies: everything before it is on disk, nothing after it happens.
    const book = new CampaignTally();
    book.create = async () => {
      throw new Error('killed');
    };
    const shop = store(async () => true, book);
    await expect(handleBroadcast(shop, REQUEST, NOW)).rejects.toThrow('killed');
    expect(shop.commits[0]!.effects).toHaveLength(3);
    // What the performer then does with recipients whose campaign is not kept: test/delivery/broadcast-effects.test.ts.
    expect(await book.list()).toEqual([]);
  });
});
