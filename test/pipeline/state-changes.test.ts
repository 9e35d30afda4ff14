import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/engine/actions.js';
import { isStateChange, newEffects, splitStateChanges } from '../../src/pipeline/state-changes.js';

const send = (text: string): Action => ({ type: 'send_message', chatId: 1, text });
const set = (key: string): Action => ({ type: 'set_state', scope: 'chat', key, value: 1 }) as Action;

describe('splitStateChanges', () => {
  it('keeps each side in the order decided', () => {
    const actions = [set('a'), send('one'), { type: 'set_flow', flow: null } as unknown as Action, send('two'), set('b')];
    const { changes, effects } = splitStateChanges(actions);
    expect(changes.map((c) => c.type)).toEqual(['set_state', 'set_flow', 'set_state']);
    expect(effects).toEqual([send('one'), send('two')]);
    expect(changes.every(isStateChange)).toBe(true);
  });

  it('gives a decision without state changes back whole, with no changes', () => {
    const actions = [send('one'), { type: 'answer_callback', callbackQueryId: 'q' } as Action];
    expect(splitStateChanges(actions)).toEqual({ changes: [], effects: actions, outbox: [], cancel: [] });
    expect(splitStateChanges([])).toEqual({ changes: [], effects: [], outbox: [], cancel: [] });
  });

  it('puts effects for the outbox and cancelled replace keys beside the state changes, committed with them, never performed before', () => {
    const staff: Action = { type: 'effect', kind: 'message', payload: { method: 'sendmessage', params: { chat_id: -5, text: 'x' } }, orderKey: 'chat:-5' };
    const cancel: Action = { type: 'cancel_effects', replaceKeys: ['remind:1:2:day'] };
    const split = splitStateChanges([send('one'), staff, set('a'), cancel]);
    expect(split).toEqual({ effects: [send('one')], changes: [set('a')], outbox: [staff], cancel: ['remind:1:2:day'] });
  });
});

describe('newEffects', () => {
  const staff = { type: 'effect', kind: 'message', payload: { n: 1 }, orderKey: 'chat:-5' } as const;
  it("numbers an update's effects by position (the store adds the update), and names work no update brings by its cause", () => {
    const scope = { chatId: 7, userId: 9 };
    expect(newEffects(null, [staff, { ...staff, dueAt: 5000 }], scope, 'complaint', 1000)).toEqual([
      { id: '0', kind: 'message', payload: { n: 1 }, dueAt: 1000, orderKey: 'chat:-5', userId: 9, chatId: 7, source: 'complaint' },
      { id: '1', kind: 'message', payload: { n: 1 }, dueAt: 5000, orderKey: 'chat:-5', userId: 9, chatId: 7, source: 'complaint' },
    ]);
    expect(newEffects('t7_9_1', [staff], { chatId: null, userId: null }, null, 1000)).toEqual([
      { id: 't7_9_1.0', kind: 'message', payload: { n: 1 }, dueAt: 1000, orderKey: 'chat:-5' },
    ]);
  });
});
