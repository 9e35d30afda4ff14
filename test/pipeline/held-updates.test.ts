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
    const ids = Array.from({ length: MIN_BACKLOG + 1 }, (_, i) => i + 1);
    const answers = await Promise.all(ids.slice(0, MIN_BACKLOG).map((id) => pipeline.receive(update(id))));
    expect(answers).toEqual(ids.slice(0, MIN_BACKLOG).map(() => 'accepted'));
    // Nothing has finished yet, so there is no throughput to go by: the backlog is the minimum.
    expect(await pipeline.receive(update(MIN_BACKLOG + 1))).toBe('overloaded');
    const inbox = readFileSync(join(dir, 'webhook.inbox'), 'utf8');
    expect(inbox.match(/^a /gm)).toHaveLength(MIN_BACKLOG);
    expect(inbox).not.toContain(`"update_id":${MIN_BACKLOG + 1},`);
    release();
    await expect.poll(() => committed.length).toBe(MIN_BACKLOG + 1);
    // The service sends the refused one again: it was handled meanwhile, so it is not answered twice.
    expect(await pipeline.receive(update(MIN_BACKLOG + 1))).toBe('duplicate');
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
