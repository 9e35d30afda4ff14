// The contract every update ledger (and the chat-state store that commits with it) must pass, whatever
// stands behind it: the files of today, a Redis for several replicas tomorrow. A store is reached through a
// harness that can open it again (a restart) and copy what it durably holds right now (what a crash leaves).
import { describe, expect, it } from 'vitest';
import type { Update } from '../../src/api/types.js';
import type { EffectOutbox } from '../../src/pipeline/outbox-port.js';
import type { ChatStateStore, StateChange, UpdateLedger } from '../../src/pipeline/ports.js';
import { UnstorableUpdateError } from '../../src/pipeline/ports.js';

export type Store = UpdateLedger & ChatStateStore & EffectOutbox;

export interface StoreHarness {
  /** Opens the store; every call opens the same one (what an earlier instance stored is there), after any earlier instance was closed. */
  open(): Promise<Store>;
  /**
   * A harness for a new store holding exactly what this one holds durably at this instant, as a machine crash
   * would leave it; the store in use is neither closed nor flushed.
   */
  crashCopy(): Promise<StoreHarness>;
}

const chat = { id: -100, type: 'group', title: 'G' };
const user = { id: 42, is_bot: false, first_name: 'Ada' };
const update = (id: number, text = `t${id}`, chatId = chat.id, date = 1): Update =>
  ({ update_id: id, message: { message_id: id, date, chat: { ...chat, id: chatId }, from: user, text } }) as Update;
const setUser = (key: string, value: string | number | null): StateChange => ({ type: 'set_state', scope: 'user', key, value });
const setChat = (key: string, value: string | number | null): StateChange => ({ type: 'set_state', scope: 'chat', key, value });
const here = { chatId: chat.id, userId: user.id };

/** Registers the contract's tests for the stores `createHarness` makes (a fresh, empty store each call). */
export function ledgerContract(name: string, createHarness: () => Promise<StoreHarness>): void {
  describe(`update ledger contract: ${name}`, () => {
    it('exactly once: an update counts as seen only once committed, across a restart and a crash', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      expect(await store.seen(update(1))).toBe(false);
      await store.begin(update(1));
      expect(await store.seen(update(1))).toBe(false);
      await store.commit(update(1), null);
      expect(await store.seen(update(1))).toBe(true);
      const crashed = await (await harness.crashCopy()).open();
      expect(await crashed.seen(update(1))).toBe(true);
      await crashed.close();
      await store.close();
      const reopened = await harness.open();
      expect(await reopened.seen(update(1))).toBe(true);
      expect(await reopened.seen(update(2))).toBe(false);
      await reopened.close();
    });

    it('accept: stored durably before it resolves, known the second time, id_busy for another update under a pending id, pending until committed, in arrival order', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      const accepted = await Promise.all([store.accept(update(30)), store.accept(update(10)), store.accept(update(20)), store.accept(update(10))]);
      expect(accepted).toEqual(['stored', 'stored', 'stored', 'known']);
      const crashed = await (await harness.crashCopy()).open();
      expect((await crashed.pending()).map((u) => u.update_id)).toEqual([30, 10, 20]);
      expect((await crashed.pending())[1]).toEqual(update(10));
      await crashed.close();
      // Another message under an id still pending (a new id sequence): not stored, the service must resend it.
      expect(await store.accept(update(20, 'new sequence', -300, 900))).toBe('id_busy');
      await store.commit(update(10), null);
      expect(await store.accept(update(10))).toBe('known');
      expect((await store.pending()).map((u) => u.update_id)).toEqual([30, 20]);
      await store.close();
      const reopened = await harness.open();
      expect((await reopened.pending()).map((u) => u.update_id)).toEqual([30, 20]);
      await reopened.close();
    });

    it('accept refuses an update that can never be stored, and keeps nothing of it', async () => {
      const store = await (await createHarness()).open();
      const deep: Record<string, unknown> = {};
      let inner = deep;
      for (let i = 0; i < 20_000; i++) inner = inner.x = {};
      await expect(store.accept({ update_id: 7, message: deep } as unknown as Update)).rejects.toBeInstanceOf(UnstorableUpdateError);
      expect(await store.pending()).toEqual([]);
      await store.close();
    });

    it('state: empty at first, user variables follow the user across chats, chat variables stay in their chat, null deletes', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      expect(await store.load(here)).toEqual({ user: {}, chat: {}, flow: null });
      await store.commit(update(1), { scope: here, changes: [setUser('name', 'Ada'), setChat('topic', 'shoes'), setUser('visits', 1)] });
      await store.commit(update(2, 't2', -200), { scope: { chatId: -200, userId: user.id }, changes: [setUser('visits', 2), setUser('name', null)] });
      expect(await store.load(here)).toEqual({ user: { visits: 2 }, chat: { topic: 'shoes' }, flow: null });
      expect(await store.load({ chatId: -200, userId: 7 })).toEqual({ user: {}, chat: {}, flow: null });
      expect(await store.load({ chatId: null, userId: user.id })).toEqual({ user: { visits: 2 }, chat: {}, flow: null });
      await store.close();
      const reopened = await harness.open();
      expect(await reopened.load(here)).toEqual({ user: { visits: 2 }, chat: { topic: 'shoes' }, flow: null });
      await reopened.close();
    });

    it('state: a flow position belongs to one user in one chat; an increment adds to the latest value, not the one decide read', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      const flow = { flowId: 'booking', stepId: 'date', values: { name: 'Ada' }, lastActivity: 1000 };
      await store.commit(update(1), { scope: here, changes: [{ type: 'set_flow', flow }, setUser('points', 5)] });
      expect((await store.load(here)).flow).toEqual(flow);
      expect((await store.load({ chatId: -200, userId: user.id })).flow).toBeNull();
      expect((await store.load({ chatId: chat.id, userId: 7 })).flow).toBeNull();
      // Two chats of the user decided from points = 5 at once; both increments count.
      const plusOne: StateChange = { type: 'set_state', scope: 'user', key: 'points', value: 6, increment: 1 };
      await store.commit(update(2, 't2', -200), { scope: { chatId: -200, userId: user.id }, changes: [plusOne] });
      await store.commit(update(3), { scope: here, changes: [plusOne, { type: 'set_flow', flow: null }] });
      await store.close();
      const reopened = await harness.open();
      expect(await reopened.load(here)).toEqual({ user: { points: 7 }, chat: {}, flow: null });
      await reopened.close();
    });

    it("a commit repeated after it was written (its answer lost) changes nothing: the chat's newer state stays", async () => {
      const harness = await createHarness();
      const store = await harness.open();
      const flow = { flowId: 'form', stepId: 'b', values: { a: 7 }, lastActivity: 1000 };
      const atB = { scope: here, changes: [{ type: 'set_flow', flow } as StateChange, setUser('answers', 1)] };
      await store.commit(update(1), atB);
      // The chat moved on: the next update ended the flow.
      await store.commit(update(2), { scope: here, changes: [{ type: 'set_flow', flow: null }, setUser('answers', 2)] });
      await store.commit(update(1), atB);
      expect(await store.load(here)).toEqual({ user: { answers: 2 }, chat: {}, flow: null });
      expect(await store.seen(update(1))).toBe(true);
      await store.close();
      const reopened = await harness.open();
      expect(await reopened.load(here)).toEqual({ user: { answers: 2 }, chat: {}, flow: null });
      await reopened.close();
    });

    it('commit is atomic: at any instant a crash keeps the done mark and the state change together, or neither', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      const copies: StoreHarness[] = [await harness.crashCopy()];
      const committing = store.commit(update(5), { scope: here, changes: [setUser('paid', 'yes')] });
      copies.push(await harness.crashCopy());
      await committing;
      copies.push(await harness.crashCopy());
      const outcomes: boolean[] = [];
      for (const copy of copies) {
        const crashed = await copy.open();
        const done = await crashed.seen(update(5));
        expect((await crashed.load(here)).user.paid === 'yes').toBe(done);
        outcomes.push(done);
        await crashed.close();
      }
      expect(outcomes.at(-1)).toBe(true);
      expect(outcomes[0]).toBe(false);
      await store.close();
    });

    it('in doubt: an update begun and never committed is reported by the next run, a committed one is not', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      for (const id of [3, 4]) await store.begin(update(id));
      await store.commit(update(3), null);
      const crashed = await (await harness.crashCopy()).open();
      expect(await crashed.inDoubt()).toEqual([4]);
      expect(await crashed.seen(update(4))).toBe(false);
      await crashed.close();
      await store.close();
    });

    it('confirm: updates below the offset are forgotten (one coming back is a new id sequence), later ones and the state stay', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      for (const id of [1, 2, 3, 4]) await store.commit(update(id), id === 1 ? { scope: here, changes: [setChat('k', 'v')] } : null);
      await store.confirm(3);
      expect(await store.seen(update(3))).toBe(true);
      expect(await store.seen(update(4))).toBe(true);
      await store.close();
      const reopened = await harness.open();
      expect(await reopened.seen(update(4))).toBe(true);
      // Below the confirmed offset the service never resends: such an id is a new sequence, answered.
      expect(await reopened.seen(update(1))).toBe(false);
      expect(await reopened.load(here)).toEqual({ user: {}, chat: { k: 'v' }, flow: null });
      await reopened.close();
    });

    it('confirm past stored updates (polling fetches past a busy chat): they stay pending, and are no new id sequence after a crash or a restart', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      expect(await store.accept(update(5))).toBe('stored');
      expect(await store.accept(update(6))).toBe('stored');
      await store.confirm(8);
      await store.commit(update(6), null);
      await store.commit(update(8), null);
      const crashed = await (await harness.crashCopy()).open();
      // 5 is handled from the store at the next start: not seen, and not taken for a new sequence (8 stays seen).
      // 6 may still be listed where its removal is written after its done mark (the file inbox): it is then seen.
      const pending = await crashed.pending();
      expect(pending[0]?.update_id).toBe(5);
      for (const stored of pending.slice(1)) expect([stored.update_id, await crashed.seen(stored)]).toEqual([6, true]);
      expect(await crashed.seen(update(5))).toBe(false);
      expect(await crashed.seen(update(8))).toBe(true);
      await crashed.commit(update(5), null);
      expect((await crashed.pending()).map((u) => u.update_id)).not.toContain(5);
      expect(await crashed.seen(update(8))).toBe(true);
      await crashed.close();
      // The same after a clean stop and start.
      await store.close();
      const reopened = await harness.open();
      expect((await reopened.pending()).map((u) => u.update_id)).toEqual([5]);
      expect(await reopened.seen(update(5))).toBe(false);
      expect(await reopened.seen(update(8))).toBe(true);
      await reopened.close();
    });

    it("a flow begun in another chat of the user (a join request's questions in private) is stored there, listed, and survives a restart", async () => {
      const harness = await createHarness();
      const store = await harness.open();
      const flow = { flowId: 'newcomer', stepId: 'why', values: {}, lastActivity: 1000, joinChat: chat.id };
      await store.commit(update(1), { scope: here, changes: [{ type: 'set_flow', chatId: user.id, flow }, setChat('requests', 1)] });
      expect((await store.load(here)).flow).toBeNull();
      expect((await store.load({ chatId: user.id, userId: user.id })).flow).toEqual(flow);
      expect(await store.flows()).toEqual([{ chatId: user.id, userId: user.id, position: flow }]);
      await store.close();
      const reopened = await harness.open();
      expect((await reopened.load({ chatId: user.id, userId: user.id })).flow).toEqual(flow);
      expect((await reopened.load(here)).chat).toEqual({ requests: 1 });
      await reopened.close();
    });

    it('state of no update (a flow timeout): durable on its own, across a crash; the stored flows are listed for their timers', async () => {
      const harness = await createHarness();
      const store = await harness.open();
      const flow = { flowId: 'booking', stepId: 'date', values: {}, lastActivity: 1000 };
      await store.commit(update(1), { scope: here, changes: [{ type: 'set_flow', flow }] });
      await store.commit(update(2, 't2', -200, 1), { scope: { chatId: -200, userId: 7 }, changes: [{ type: 'set_flow', flow: { ...flow, stepId: 'size' } }] });
      expect([...(await store.flows())].sort((a, b) => a.userId - b.userId)).toEqual([
        { chatId: -200, userId: 7, position: { ...flow, stepId: 'size' } },
        { chatId: chat.id, userId: user.id, position: flow },
      ]);
      await store.commitState({ scope: here, changes: [{ type: 'set_flow', flow: null }] });
      const crashed = await (await harness.crashCopy()).open();
      expect((await crashed.load(here)).flow).toBeNull();
      expect((await crashed.flows()).map((f) => f.userId)).toEqual([7]);
      await crashed.close();
      await store.close();
    });

    it("forgetUser: a user's variables and flows in every chat go, durably; chat variables and other users stay", async () => {
      const harness = await createHarness();
      const store = await harness.open();
      const flow = { flowId: 'booking', stepId: 'date', values: { x: 1 }, lastActivity: 86_400_000 };
      await store.commit(update(1), { scope: here, changes: [setUser('name', 'Ada'), setChat('topic', 'shoes'), { type: 'set_flow', flow }] });
      await store.commit(update(2, 't2', -200), { scope: { chatId: -200, userId: user.id }, changes: [{ type: 'set_flow', flow }] });
      await store.commit(update(3), { scope: { chatId: chat.id, userId: 7 }, changes: [setUser('name', 'Bob')] });
      expect(await store.userRecord(user.id)).toEqual({
        userId: user.id,
        variables: { name: 'Ada' },
        flows: expect.arrayContaining([
          { chatId: chat.id, flowId: 'booking', stepId: 'date', answers: { x: 1 }, lastActivity: '1970-01-02T00:00:00.000Z' },
          { chatId: -200, flowId: 'booking', stepId: 'date', answers: { x: 1 }, lastActivity: '1970-01-02T00:00:00.000Z' },
        ]),
        effects: [],
      });
      await store.forgetUser(user.id);
      const crashed = await (await harness.crashCopy()).open();
      expect(await crashed.load(here)).toEqual({ user: {}, chat: { topic: 'shoes' }, flow: null });
      expect(await crashed.userRecord(user.id)).toEqual({ userId: user.id, variables: null, flows: [], effects: [] });
      expect((await crashed.load({ chatId: chat.id, userId: 7 })).user).toEqual({ name: 'Bob' });
      await crashed.close();
      await store.close();
    });

    it("member variables: kept per user and chat (another member's too), increments added at commit, listed and forgotten with the user", async () => {
      const harness = await createHarness();
      const store = await harness.open();
      const member = (key: string, value: number, extra: { increment?: number; userId?: number } = {}): StateChange => ({
        type: 'set_state',
        scope: 'member',
        key,
        value,
        ...extra,
      });
      await store.commit(update(1), { scope: here, changes: [member('warnings', 1, { increment: 1 }), member('joined_at', 100, { userId: 7 })] });
      await store.commit(update(2), { scope: here, changes: [member('warnings', 1, { increment: 1 })] });
      await store.commit(update(3, 't3', -200), { scope: { chatId: -200, userId: user.id }, changes: [member('warnings', 1, { increment: 1 })] });
      expect((await store.load(here)).member).toEqual({ warnings: 2 });
      expect((await store.load({ chatId: -200, userId: user.id })).member).toEqual({ warnings: 1 });
      expect((await store.load({ chatId: chat.id, userId: 7 })).member).toEqual({ joined_at: 100 });
      expect((await store.load({ chatId: chat.id, userId: 7 })).user).toEqual({});
      const record = (await store.userRecord(user.id)) as { members?: { chatId: number; variables: unknown }[] };
      expect(record.members).toEqual(
        expect.arrayContaining([
          { chatId: chat.id, variables: { warnings: 2 } },
          { chatId: -200, variables: { warnings: 1 } },
        ]),
      );
      await store.forgetUser(user.id);
      const crashed = await (await harness.crashCopy()).open();
      expect((await crashed.load(here)).member).toBeUndefined();
      expect((await crashed.load({ chatId: -200, userId: user.id })).member).toBeUndefined();
      expect((await crashed.load({ chatId: chat.id, userId: 7 })).member).toEqual({ joined_at: 100 });
      await crashed.close();
      await store.close();
    });

    it('id-sequence restarts: a known id carrying another message is new, and the old sequence is forgotten; a true redelivery is not', async () => {
      const store = await (await createHarness()).open();
      for (const id of [1, 2, 3]) await store.commit(update(id, `old ${id}`, chat.id, 100), { scope: here, changes: [setUser('n', id)] });
      expect(await store.seen(update(2, 'old 2', chat.id, 100))).toBe(true);
      expect(await store.seen(update(2, 'new', -300, 500))).toBe(false);
      expect(await store.seen(update(3, 'old 3', chat.id, 100))).toBe(false);
      expect(await store.load(here)).toEqual({ user: { n: 3 }, chat: {}, flow: null });
      await store.close();
    });

    it('seenNow and loadNow, where a store offers them, answer exactly as seen and load do', async () => {
      const store = await (await createHarness()).open();
      const { seenNow, loadNow } = store;
      if (!seenNow && !loadNow) return store.close();
      await store.commit(update(1), { scope: here, changes: [setUser('name', 'Ada'), setChat('topic', 'shoes')] });
      await store.begin(update(2));
      for (const probe of [update(1), update(2), update(1, 'another message', -300, 7)]) {
        if (seenNow) expect(seenNow.call(store, probe)).toBe(await store.seen(probe));
      }
      for (const scope of [here, { chatId: -200, userId: user.id }, { chatId: chat.id, userId: null }, { chatId: null, userId: null }]) {
        if (loadNow) expect(loadNow.call(store, scope)).toEqual(await store.load(scope));
      }
      await store.close();
    });
  });
}
