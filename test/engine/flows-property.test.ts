// Properties of flows over random conversations with the booking bot: decide is deterministic, a user's
// position always names a step of the flow with exactly the earlier steps answered, and "Booked" is said
// only when the confirm step was answered yes, recording the date that was given.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/engine/decide.js';
import { applyStateChanges, EMPTY_STATE, MAX_VALUE_LENGTH, type ConversationState } from '../../src/engine/state.js';
import { loadRuleSet } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { BOOKING } from './booking-rules.js';
import { message, messageEvent } from './messages.js';

const WORDS = [
  '/book',
  '/help',
  'friday',
  'Friday',
  '24.12.',
  'tomorrow',
  '0',
  '4',
  '12',
  '13',
  'yes',
  'ja',
  'no',
  'maybe',
  'stop',
  'hi',
  'my name is Ada',
  '',
];

describe('flows over random conversations', () => {
  it('keep a consistent position and book only on a confirmed yes', async () => {
    const ruleSet = await withRuleDir({ 'bot.yaml': BOOKING }, (dir) => loadRuleSet(dir));
    const flow = ruleSet.flows.get('booking')!;
    const stepIds = flow.steps.map((s) => s.id);
    const text = fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 20 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.integer({ min: 0, max: 20 * 60_000 })), { maxLength: 40 }), (steps) => {
        let state: ConversationState = EMPTY_STATE;
        let now = 1_800_000_000_000;
        for (const [said, pause] of steps) {
          if (said === '') continue;
          now += pause;
          const event = messageEvent(message(said));
          const context = { botUsername: 'table_bot', now: () => now, random: () => 0 };
          const decision = decide(event, ruleSet, state, context);
          expect(decide(event, ruleSet, state, context)).toEqual(decision);
          const before = state;
          state = applyStateChanges(state, decision.actions);
          for (const action of decision.actions) {
            if (action.type === 'set_state' && typeof action.value === 'string') expect(action.value.length).toBeLessThanOrEqual(MAX_VALUE_LENGTH);
          }
          const position = state.flow;
          if (position) {
            const at = stepIds.indexOf(position.stepId);
            expect(position.flowId).toBe('booking');
            expect(at).toBeGreaterThanOrEqual(0);
            expect(Object.keys(position.values).sort()).toEqual(stepIds.slice(0, at).sort());
            // Only a during_flows answer (help) leaves the activity time where it was.
            if (position !== before.flow) expect(position.lastActivity).toBe(now);
            else expect(position.lastActivity).toBeLessThanOrEqual(now);
          }
          const booked = decision.actions.some((a) => a.type === 'send_message' && a.text.startsWith('Booked:'));
          if (booked) {
            expect(before.flow?.stepId).toBe('confirm');
            expect(['yes', 'ja', 'y']).toContain(said.trim().toLowerCase());
            expect(state.user['last_booking']).toBe(before.flow!.values['date']);
            expect(state.flow).toBeNull();
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
