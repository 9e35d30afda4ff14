import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/engine/actions.js';
import { isStateChange, splitStateChanges } from '../../src/pipeline/state-changes.js';

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
    expect(splitStateChanges(actions)).toEqual({ changes: [], effects: actions });
    expect(splitStateChanges([])).toEqual({ changes: [], effects: [] });
  });
});
