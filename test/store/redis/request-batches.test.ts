// Gathering a step's requests: what is asked for before the batch goes is sent in one call, each caller getting
// its own answer; another key (a new fencing token) sends what was gathered first; a failed call fails each caller.
// The pacer holds a batch while an earlier request is unanswered, so that the next one carries what gathered meanwhile.
import { describe, expect, it } from 'vitest';
import { setImmediate as nextPass } from 'node:timers/promises';
import { RequestBatches, RequestPacer } from '../../../src/store/redis/request-batches.js';

/** A batcher whose sends are recorded, gathered until `release()` runs the scheduled send. */
function recorded(answer: (key: string, item: number) => string | undefined = (key, item) => `${key}:${item * 10}`) {
  const sent: Array<{ key: string; items: number[] }> = [];
  const scheduled: Array<() => void> = [];
  const batches = new RequestBatches<number, string>(
    async (key, items) => {
      sent.push({ key, items: [...items] });
      if (items.includes(-1)) throw new Error('the store failed');
      return items.map((item) => answer(key, item)).filter((a): a is string => a !== undefined);
    },
    (send) => scheduled.push(send),
    'missing',
  );
  const release = () => scheduled.splice(0).forEach((send) => send());
  return { batches, sent, release };
}

describe('RequestBatches', () => {
  it('what is asked for before the batch goes is sent in one call, each caller getting its own answer', async () => {
    const { batches, sent, release } = recorded();
    const answers = Promise.all([1, 2, 3].map((item) => batches.run('', item)));
    expect(sent).toEqual([]);
    release();
    expect(await answers).toEqual([':10', ':20', ':30']);
    expect(sent).toEqual([{ key: '', items: [1, 2, 3] }]);
    // The next one starts a new batch.
    const next = batches.run('', 4);
    release();
    expect(await next).toBe(':40');
    expect(sent).toHaveLength(2);
  });

  it('another key sends what was gathered under the first at once; the two never share a call', async () => {
    const { batches, sent, release } = recorded();
    const first = batches.run('token-1', 1);
    const second = batches.run('token-2', 2);
    expect(sent).toEqual([{ key: 'token-1', items: [1] }]);
    release();
    expect(await Promise.all([first, second])).toEqual(['token-1:10', 'token-2:20']);
    expect(sent).toEqual([
      { key: 'token-1', items: [1] },
      { key: 'token-2', items: [2] },
    ]);
  });

  it('a failed call fails each of its callers; an answer the call left out is the one given for missing', async () => {
    const { batches, release } = recorded((_, item) => (item === 3 ? undefined : String(item)));
    const failed = [batches.run('', 1), batches.run('', -1)];
    release();
    for (const call of failed) await expect(call).rejects.toThrow('the store failed');
    const short = [batches.run('', 2), batches.run('', 3)];
    release();
    expect(await Promise.all(short)).toEqual(['2', 'missing']);
  });

  describe('RequestPacer', () => {
    /** Batches of one step under a pacer, each call's request tracked by it and answered when the test says. */
    function paced() {
      const pacer = new RequestPacer();
      const sent: number[][] = [];
      const answers: Array<{ answer: () => void; fail: () => void }> = [];
      const batches = new RequestBatches<number, string>(
        (_, items) => {
          sent.push([...items]);
          const request = new Promise<string[]>((resolve, reject) =>
            answers.push({ answer: () => resolve(items.map(String)), fail: () => reject(new Error('the store failed')) }),
          );
          return pacer.track(request);
        },
        pacer.gather,
        'missing',
      );
      return { batches, sent, answers };
    }

    it('with nothing unanswered a batch goes once the event loop has run what it had', async () => {
      const { batches, sent, answers } = paced();
      const first = batches.run('', 1);
      expect(sent).toEqual([]);
      await nextPass();
      expect(sent).toEqual([[1]]);
      answers[0]!.answer();
      expect(await first).toBe('1');
    });

    it('a batch waits while an earlier request is unanswered, then goes with everything gathered meanwhile, after an answer or a failure', async () => {
      const { batches, sent, answers } = paced();
      const first = batches.run('', 1);
      await nextPass();
      const later = [batches.run('', 2)];
      await nextPass();
      later.push(batches.run('', 3));
      await nextPass();
      await nextPass();
      expect(sent).toEqual([[1]]);
      answers[0]!.fail();
      await expect(first).rejects.toThrow('the store failed');
      await nextPass();
      expect(sent).toEqual([[1], [2, 3]]);
      answers[1]!.answer();
      expect(await Promise.all(later)).toEqual(['2', '3']);
    });
  });
});
