// The contract every store's outbox must pass (file, Redis, memory), through the same harness as the ledger
// contract: effects are stored only with the record that decided them (a crash keeps both or neither), claimed
// by one performer, in order per order key, retried later, given up, replaced and cancelled; an attempt begun
// and never finished comes back in doubt; an operator sees and forgets a user's pending effects.
import { describe, expect, it } from 'vitest';
import type { Update } from '../../src/api/types.js';
import type { NewEffect } from '../../src/pipeline/outbox-port.js';
import type { UserRecord } from '../../src/store/records.js';
import { updateFingerprint } from '../../src/store/update-fingerprint.js';
import type { StoreHarness } from './ledger-contract.js';

const chat = { id: -100, type: 'group', title: 'G' };
const user = { id: 42, is_bot: false, first_name: 'Ada' };
const update = (id: number): Update => ({ update_id: id, message: { message_id: id, date: 1, chat, from: user, text: `t${id}` } }) as Update;
const here = { chatId: chat.id, userId: user.id };
const T0 = 1_800_000_000_000;
const effect = (id: string, extra: Partial<NewEffect> = {}): NewEffect => ({
  id,
  kind: 'message',
  payload: { method: 'sendmessage', params: { chat_id: -500, text: 'A complaint' } },
  dueAt: T0,
  userId: user.id,
  chatId: chat.id,
  ...extra,
});
const ids = (effects: readonly { id: string }[]) => effects.map((e) => e.id);
/** The id a store gives the effect at `position` among update `n`'s effects. */
const fx = (n: number, position: string) => `u${n}.${updateFingerprint(update(n))}.${position}`;

/** Registers the outbox contract's tests for the stores `createHarness` makes (a fresh, empty store each call). */
export function outboxContract(name: string, createHarness: () => Promise<StoreHarness>): void {
  describe(`outbox contract: ${name}`, () => {
    it("effects are stored with their update's done mark, atomically across a crash, and claimed once due", async () => {
      const harness = await createHarness();
      const store = await harness.open();
      const before = await harness.crashCopy();
      await store.commit(update(1), { scope: here, changes: [], effects: [effect('0'), effect('1', { dueAt: T0 + 60_000 })] });
      const after = await harness.crashCopy();
      for (const [copy, expected] of [
        [before, false],
        [after, true],
      ] as const) {
        const crashed = await copy.open();
        expect(await crashed.seen(update(1))).toBe(expected);
        expect(ids(await crashed.claimDue(T0 + 120_000, 10))).toEqual(expected ? [fx(1, '0'), fx(1, '1')] : []);
        await crashed.close();
      }
      expect(ids(await store.claimDue(T0 - 1, 10))).toEqual([]);
      expect(await store.claimDue(T0, 10)).toEqual([{ ...effect(fx(1, '0')), attemptAt: T0, attempts: 0, inDoubt: false }]);
      // Claimed: handed to nobody else, and not again.
      expect(await store.claimDue(T0 + 120_000, 10)).toMatchObject([{ id: fx(1, '1') }]);
      expect(await store.claimDue(T0 + 120_000, 10)).toEqual([]);
      await store.close();
    });

    it('a repeated commit adds nothing twice; state of no update carries effects too, durably', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      // In a commit an effect's id is its position: the store derives the whole id from the update.
      const record = { scope: here, changes: [], effects: [effect('0')] };
      await store.commit(update(2), record);
      await store.commit(update(2), record);
      await store.commitState({ scope: here, changes: [], effects: [effect('t.-100.42.0')] });
      const crashed = await (await harness.crashCopy()).open();
      expect(ids(await crashed.claimDue(T0, 10))).toEqual([fx(2, '0'), 't.-100.42.0']);
      await crashed.close();
      await store.close();
    });

    it('done and failed take an effect out; retry keeps it for its time; a release makes it claimable at once', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      await store.commit(update(3), { scope: here, changes: [], effects: ['a', 'b', 'c', 'd'].map((x) => effect(x)) });
      expect(ids(await store.claimDue(T0, 10))).toEqual([fx(3, 'a'), fx(3, 'b'), fx(3, 'c'), fx(3, 'd')]);
      for (const id of [fx(3, 'a'), fx(3, 'b'), fx(3, 'c')]) await store.beginEffect(id);
      await store.finishEffect(fx(3, 'a'), { outcome: 'done' });
      await store.finishEffect(fx(3, 'b'), { outcome: 'failed', reason: 'Forbidden: bot was kicked from the group chat' });
      await store.finishEffect(fx(3, 'c'), { outcome: 'retry', retryAt: T0 + 5000, reason: 'timeout' });
      await store.releaseEffect(fx(3, 'd'));
      expect(await store.claimDue(T0 + 4999, 10)).toEqual([{ ...effect(fx(3, 'd')), attemptAt: T0, attempts: 0, inDoubt: false }]);
      expect(await store.nextDueAt()).toBe(T0 + 5000);
      await store.close();
      const reopened = await harness.open();
      expect(await reopened.claimDue(T0 + 5000, 10)).toEqual([
        { ...effect(fx(3, 'd')), attemptAt: T0, attempts: 0, inDoubt: false },
        { ...effect(fx(3, 'c')), attemptAt: T0 + 5000, attempts: 1, inDoubt: false },
      ]);
      await reopened.close();
    });

    it('one order key: one effect at a time, in order; a retry keeps its place ahead of the rest', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      const staff = { orderKey: 'chat:-500' };
      await store.commit(update(4), { scope: here, changes: [], effects: [effect('0', staff), effect('1', staff), effect('other')] });
      await store.commit(update(5), { scope: here, changes: [], effects: [effect('0', staff)] });
      expect(ids(await store.claimDue(T0, 10))).toEqual([fx(4, '0'), fx(4, 'other')]);
      expect(await store.claimDue(T0, 10)).toEqual([]);
      await store.beginEffect(fx(4, '0'));
      await store.finishEffect(fx(4, '0'), { outcome: 'retry', retryAt: T0 + 1000, reason: '429' });
      // u4.1 is due, but u4.0 (waiting for its retry) still comes first in its key.
      expect(await store.claimDue(T0 + 500, 10)).toEqual([]);
      expect(await store.nextDueAt()).toBe(T0 + 1000);
      expect(ids(await store.claimDue(T0 + 1000, 10))).toEqual([fx(4, '0')]);
      await store.finishEffect(fx(4, '0'), { outcome: 'done' });
      expect(ids(await store.claimDue(T0 + 1000, 10))).toEqual([fx(4, '1')]);
      await store.finishEffect(fx(4, '1'), { outcome: 'done' });
      expect(ids(await store.claimDue(T0 + 1000, 10))).toEqual([fx(5, '0')]);
      await store.close();
    });

    it('an attempt begun and never finished comes back in doubt after a crash; a claim never begun comes back clean', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      await store.commit(update(6), { scope: here, changes: [], effects: [effect('0'), effect('1')] });
      expect(ids(await store.claimDue(T0, 10))).toEqual([fx(6, '0'), fx(6, '1')]);
      await store.beginEffect(fx(6, '0'));
      const crashed = await (await harness.crashCopy()).open();
      expect(await crashed.claimDue(T0, 10)).toEqual([
        { ...effect(fx(6, '0')), attemptAt: T0, attempts: 1, inDoubt: true },
        { ...effect(fx(6, '1')), attemptAt: T0, attempts: 0, inDoubt: false },
      ]);
      await crashed.beginEffect(fx(6, '0'));
      await crashed.finishEffect(fx(6, '0'), { outcome: 'done' });
      // u6.1 is being performed (claimed): still pending, and due since T0.
      expect(await crashed.outboxStats(T0)).toEqual({ pending: 1, due: 1, oldestDueAt: T0 });
      await crashed.close();
      await store.close();
    });

    it('a replace key drops the pending effect it replaces; a cancel drops it in the same record', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      const remind = { replaceKey: 'remind:-100:42:booking-day' };
      await store.commit(update(7), { scope: here, changes: [], effects: [effect('0', { ...remind, dueAt: T0 + 10_000 })] });
      await store.commit(update(8), { scope: here, changes: [], effects: [effect('0', { ...remind, dueAt: T0 + 20_000 })] });
      expect(ids(await store.effectsOf(user.id))).toEqual([fx(8, '0')]);
      await store.commit(update(9), { scope: here, changes: [], cancel: ['remind:-100:42:booking-day'] });
      const crashed = await (await harness.crashCopy()).open();
      expect(await crashed.claimDue(T0 + 60_000, 10)).toEqual([]);
      expect(await crashed.nextDueAt()).toBeNull();
      await crashed.close();
      await store.close();
    });

    it("an operator sees a user's pending effects, soonest first, and forgetting the user drops them durably", async () => {
      const harness = await createHarness();
      const store = await harness.open();
      await store.commit(update(10), {
        scope: here,
        changes: [{ type: 'set_state', scope: 'user', key: 'name', value: 'Ada' }],
        effects: [effect('later', { dueAt: T0 + 9000 }), effect('soon'), effect('bob', { userId: 7 })],
      });
      expect(ids(await store.effectsOf(user.id))).toEqual([fx(10, 'soon'), fx(10, 'later')]);
      expect(ids(((await store.userRecord(user.id)) as UserRecord).effects)).toEqual([fx(10, 'soon'), fx(10, 'later')]);
      expect(await store.outboxStats(T0)).toEqual({ pending: 3, due: 2, oldestDueAt: T0 });
      const forgotten = (await store.forgetUser(user.id)) as UserRecord;
      expect(ids(forgotten.effects)).toEqual([fx(10, 'soon'), fx(10, 'later')]);
      const crashed = await (await harness.crashCopy()).open();
      expect(await crashed.effectsOf(user.id)).toEqual([]);
      expect(ids(await crashed.claimDue(T0 + 9000, 10))).toEqual([fx(10, 'bob')]);
      await crashed.close();
      await store.close();
    });
  });
}
