// A store that is down (StoreUnavailableError) is never a reason to drop an update: when reading the state
// fails the update stays unfinished (handled again later, nothing sent), and when the commit fails after the
// replies went out the commit waits for the store instead of running the update — and answering — twice.
import { describe, expect, it } from 'vitest';
import type { Update } from '../../src/api/types.js';
import { StoreUnavailableError } from '../../src/pipeline/ports.js';
import { testPipeline } from '../support/test-pipeline.js';

const update = (id: number): Update =>
  ({
    update_id: id,
    message: { message_id: id, date: 1, chat: { id: 5, type: 'private', first_name: 'A' }, from: { id: 5, is_bot: false, first_name: 'A' }, text: `m${id}` },
  }) as Update;

describe('the pipeline during a store outage', () => {
  it('reading the state fails: the update is neither answered nor dropped, and is handled when asked again', async () => {
    const sent: number[] = [];
    const { pipeline, ledger, committed } = testPipeline({ inbox: false, perform: async (u) => void sent.push(u.update_id) });
    const load = ledger.load.bind(ledger);
    // A networked store answers `load` asynchronously only (no in-memory `loadNow`), and that answer fails.
    Object.defineProperty(ledger, 'loadNow', { value: undefined });
    let down = true;
    ledger.load = (scope) => (down ? Promise.reject(new StoreUnavailableError('down')) : load(scope));
    await expect(pipeline.handle(update(1))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect({ sent, committed }).toEqual({ sent: [], committed: [] });
    down = false;
    await pipeline.handle(update(1));
    expect({ sent, committed }).toEqual({ sent: [1], committed: [1] });
  });

  it('the commit fails after the reply went out: it is retried until the store is back, the reply is not sent again', async () => {
    const sent: number[] = [];
    const { pipeline, ledger, committed } = testPipeline({ inbox: false, perform: async (u) => void sent.push(u.update_id) });
    const commit = ledger.commit.bind(ledger);
    let failures = 3;
    ledger.commit = (u, state) => (failures-- > 0 ? Promise.reject(new StoreUnavailableError('down')) : commit(u, state));
    await pipeline.handle(update(2));
    expect({ sent, committed, failures }).toEqual({ sent: [2], committed: [2], failures: -1 });
  });
});
