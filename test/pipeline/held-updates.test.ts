// Webhook holding at the pipeline: an update handled within the hold is acknowledged without touching the inbox;
// past the hold it is stored and acknowledged, but only up to the backlog a couple of seconds of throughput would
// clear: beyond that the service keeps the update (503), which still runs once, and a redelivery finds it handled.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Update } from '../../src/api/types.js';
import { MAX_UPDATE_DEPTH, MIN_BACKLOG } from '../../src/pipeline/held-updates.js';
import { UnstorableUpdateError } from '../../src/pipeline/ports.js';
import { testPipeline } from '../support/test-pipeline.js';

const update = (id: number, chat = id): Update =>
  ({ update_id: id, message: { message_id: id, date: 0, chat: { id: chat, type: 'private', first_name: 'U' }, text: `t${id}` } }) as Update;

describe('UpdatePipeline.receive (webhook holding)', () => {
  it('acknowledges an update handled within the hold without writing it to the inbox', async () => {
    const { pipeline, committed, dir } = testPipeline({ holdMs: 60_000 });
    expect(await pipeline.receive(update(1))).toBe('accepted');
    expect(committed).toEqual([1]);
    expect(readFileSync(join(dir, 'webhook.inbox'), 'utf8')).toBe('');
    expect(await pipeline.receive(update(1))).toBe('duplicate');
  });

  it('stores and acknowledges slow updates only up to the backlog; the next one is left with the service and still handled once', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const handled: number[] = [];
    const { pipeline, committed, dir } = testPipeline({
      holdMs: 20,
      concurrency: 100,
      perform: async (u) => {
        await held;
        handled.push(u.update_id);
      },
    });
    // All at once, so their holds run out together: nothing has finished yet, so there is no throughput to go by
    // and the backlog is the minimum.
    const ids = Array.from({ length: MIN_BACKLOG + 4 }, (_, i) => i + 1);
    const answers = await Promise.all(ids.map((id) => pipeline.receive(update(id))));
    expect(answers.filter((a) => a === 'accepted')).toHaveLength(MIN_BACKLOG);
    expect(answers.filter((a) => a === 'overloaded')).toHaveLength(4);
    const refused = ids.filter((_, i) => answers[i] === 'overloaded');
    const inbox = readFileSync(join(dir, 'webhook.inbox'), 'utf8');
    expect(inbox.match(/^a /gm)).toHaveLength(MIN_BACKLOG);
    for (const id of refused) expect(inbox).not.toContain(`"update_id":${id},`);
    release();
    await expect.poll(() => committed.length).toBe(ids.length);
    // The service sends the refused ones again: they were handled meanwhile, so they are not answered twice.
    for (const id of refused) expect(await pipeline.receive(update(id))).toBe('duplicate');
    expect(handled.sort((a, b) => a - b)).toEqual(ids);
  });

  it('refuses an update nested deeper than the inbox could ever keep, before handling anything of it', async () => {
    const { pipeline, committed } = testPipeline({ holdMs: 60_000 });
    const nested = (levels: number): unknown => {
      let value: unknown = 0;
      for (let i = 0; i < levels; i++) value = [value];
      return value;
    };
    const deep = { ...update(30), extra: nested(MAX_UPDATE_DEPTH + 1) } as unknown as Update;
    await expect(pipeline.receive(deep)).rejects.toBeInstanceOf(UnstorableUpdateError);
    expect(committed).toEqual([]);
    const fine = { ...update(31), extra: nested(MAX_UPDATE_DEPTH - 2) } as unknown as Update;
    expect(await pipeline.receive(fine)).toBe('accepted');
    expect(committed).toEqual([31]);
  });
});
