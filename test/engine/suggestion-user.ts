// A user talking to rules with `suggest:` through decide(), for the suggestion tests: the state threaded from
// decision to decision as a store commits it, messages and presses of suggestion buttons, and the offer's parts.
import type { InlineKeyboardMarkup, Message, Update } from '@grammyjs/types';
import type { SendMessageAction } from '../../src/engine/actions.js';
import { decide, type Decision } from '../../src/engine/decide.js';
import type { DecideContext } from '../../src/engine/decide-types.js';
import { toEvent } from '../../src/engine/events.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { applyStateChanges, EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { message, messageEvent, type MessageOptions } from './messages.js';

export async function load(yaml: string): Promise<RuleSet> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) => {
    const outcome = await loadRules(dir);
    if (!outcome.ruleSet) throw new Error(outcome.problems.map((p) => p.format('bot.yaml')).join('\n'));
    return outcome.ruleSet;
  });
}

/** One user talking to the bot, the state threaded from decision to decision as a store commits it. */
export class User {
  state: ConversationState = EMPTY_STATE;
  private messageId = 10;
  constructor(
    readonly ruleSet: RuleSet,
    readonly language = 'en',
    readonly options: MessageOptions = {},
    /** More of the decide context (a hand-off's staff chat). */
    readonly context: Partial<DecideContext> = {},
  ) {}
  private decide(event: Parameters<typeof decide>[0]): Decision {
    const decision = decide(event, this.ruleSet, this.state, { botUsername: 'shop_bot', now: () => 0, random: () => 0, ...this.context });
    this.state = applyStateChanges(this.state, decision.actions);
    return decision;
  }
  say(text: string): Decision {
    const msg = message(text, this.options);
    this.messageId++;
    return this.decide(messageEvent({ ...msg, message_id: this.messageId, from: { ...msg.from!, language_code: this.language } } as Message));
  }
  press(data: string, user = 42): Decision {
    const chat = { id: 42, type: 'private', first_name: 'Ada' };
    const held = { message_id: 500, date: 1, chat, text: 'offer' } as unknown as Message;
    const from = { id: user, is_bot: false, first_name: 'Ada', language_code: this.language };
    return this.decide(toEvent({ update_id: 9, callback_query: { id: 'cq', from, chat_instance: 'c', data, message: held } } as Update)!);
  }
}

export const sends = (d: Decision) => d.actions.filter((a): a is SendMessageAction => a.type === 'send_message');
export const buttons = (d: Decision) =>
  (sends(d)[0]!.replyMarkup as InlineKeyboardMarkup).inline_keyboard.map((row) => row.map((b) => [b.text, (b as { callback_data?: string }).callback_data]));
