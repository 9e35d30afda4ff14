// Flows started by several triggers (a list under `start:`), with `lang` and `mentioned` on a start, and
// choice options labelled per language: through decide(), with the state threaded as a store commits it.
import type { Message } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import type { SendMessageAction } from '../../src/engine/actions.js';
import { decide, type Decision } from '../../src/engine/decide.js';
import type { BotEvent } from '../../src/engine/events.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { applyStateChanges, EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { message, messageEvent, pressEvent, type MessageOptions } from './messages.js';

const FLOW = `
languages: { default: en, supported: [en, de] }
rules:
  - id: hello
    text: hello
    reply: Hi
flows:
  - id: booking
    start:
      - { command: book }
      - { keywords: [reserve, table], lang: [en] }
      - { keywords: [reservieren], lang: [de], examples: [Tisch reservieren] }
      - { text: book, mentioned: true, chat_types: [group] }
    steps:
      - id: confirm
        ask: { en: "Book it?", de: "Buchen?" }
        accept:
          choice:
            "yes": { words: [y, ok], label: { en: "Yes", de: "Ja" } }
            "no": { words: [n], label: { en: "No", de: "Nein" } }
            later: [maybe]
    done:
      - reply: "{{flow.confirm}}"
`;

class Conversation {
  state: ConversationState = EMPTY_STATE;
  constructor(
    readonly ruleSet: RuleSet,
    readonly language: string,
    readonly options: MessageOptions = {},
  ) {}
  decide(event: BotEvent): Decision {
    const decision = decide(event, this.ruleSet, this.state, { botUsername: 'table_bot', now: () => 0, random: () => 0 });
    this.state = applyStateChanges(this.state, decision.actions);
    return decision;
  }
  say(text: string, extra: Partial<Message> = {}): Decision {
    const msg = message(text, this.options);
    return this.decide(messageEvent({ ...msg, ...extra, from: { ...msg.from!, language_code: this.language } } as Message));
  }
  press(data: string): Decision {
    const chat = { id: 42, type: 'private', first_name: 'Ada' };
    const question = { message_id: 50, date: 1, chat, text: 'q' } as unknown as Message;
    const from = { id: 42, is_bot: false, first_name: 'Ada', language_code: this.language };
    return this.decide(pressEvent(data, question, { from }));
  }
}

const sends = (d: Decision) => d.actions.filter((a): a is SendMessageAction => a.type === 'send_message');

async function load(yaml = FLOW): Promise<RuleSet> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) => {
    const outcome = await loadRules(dir);
    if (!outcome.ruleSet) throw new Error(outcome.problems.map((p) => p.format('bot.yaml')).join('\n'));
    return outcome.ruleSet;
  });
}

describe('a flow with several starts', () => {
  it('starts from any of them, each with its own conditions (lang, mentioned)', async () => {
    const ruleSet = await load();
    expect(new Conversation(ruleSet, 'en').say('/book').ruleId).toBe('booking');
    expect(new Conversation(ruleSet, 'en').say('reserve a table').ruleId).toBe('booking');
    expect(new Conversation(ruleSet, 'de').say('reserve a table').ruleId).toBe(null);
    expect(new Conversation(ruleSet, 'de').say('Tisch reservieren').ruleId).toBe('booking');
    expect(new Conversation(ruleSet, 'en').say('Tisch reservieren').ruleId).toBe(null);
    const group = { chatType: 'group' as const };
    expect(new Conversation(ruleSet, 'en', group).say('book').ruleId).toBe(null);
    const mention = { entities: [{ type: 'mention' as const, offset: 5, length: 10 }] };
    expect(new Conversation(ruleSet, 'en', group).say('book @table_bot', mention).ruleId).toBe('booking');
  });

  it('is checked like rules: examples of a start, one trigger per start, positions in the list', async () => {
    const bad = FLOW.replace('{ text: book, mentioned: true, chat_types: [group] }', '{ text: book, command: b }').replace(
      'examples: [Tisch reservieren]',
      'examples: [Tisch bitte]',
    );
    const problems = await withRuleDir({ 'bot.yaml': bad }, async (dir) => (await loadRules(dir)).problems.map((p) => p.format('bot.yaml')));
    expect(problems).toEqual([expect.stringMatching(/^bot\.yaml:13:11: start #4 of flow 'booking' has 2 triggers \(command, text\): keep one$/)]);
    const unreached = FLOW.replace('examples: [Tisch reservieren]', 'examples: [Tisch bitte]');
    const warnings = await withRuleDir({ 'bot.yaml': unreached }, async (dir) => (await loadRules(dir)).problems.map((p) => p.format('bot.yaml')));
    expect(warnings).toEqual([`bot.yaml:12:59: warning: example "Tisch bitte" does not start flow 'booking': no rule matches it`]);
  });
});

describe('choice options with labels', () => {
  it("label the buttons in the user's language (the key where there is none); typing a label chooses too", async () => {
    const ruleSet = await load();
    const de = new Conversation(ruleSet, 'de');
    const question = sends(de.say('/book'))[0]!;
    expect(question.text).toBe('Buchen?');
    expect(question.replyMarkup).toEqual({
      inline_keyboard: [
        [
          { text: 'Ja', callback_data: 'booking#confirm:0' },
          { text: 'Nein', callback_data: 'booking#confirm:1' },
          { text: 'later', callback_data: 'booking#confirm:2' },
        ],
      ],
    });
    expect(sends(de.say('Ja!'))[0]!.text).toBe('yes');
    const en = new Conversation(ruleSet, 'en');
    expect((sends(en.say('/book'))[0]!.replyMarkup as { inline_keyboard: { text: string }[][] }).inline_keyboard[0]!.map((b) => b.text)).toEqual([
      'Yes',
      'No',
      'later',
    ]);
    expect(sends(en.say('nein'))[0]!.text).toBe('no');
    const pressed = new Conversation(ruleSet, 'en');
    pressed.say('/book');
    expect(sends(pressed.press('booking#confirm:1'))[0]!.text).toBe('no');
  });

  it('a label needs the languages block and a text in the default language; one that chooses another option is refused', async () => {
    const problems = async (yaml: string) => withRuleDir({ 'bot.yaml': yaml }, async (dir) => (await loadRules(dir)).problems.map((p) => p.format('bot.yaml')));
    expect(await problems(FLOW.replace('label: { en: "No", de: "Nein" }', 'label: { de: "Nein" }'))).toEqual([
      expect.stringMatching(/^bot\.yaml:\d+:\d+: the label of option 'no' of step 'confirm' of flow 'booking' has no text in the default language 'en'/),
    ]);
    expect(await problems(FLOW.replace('label: { en: "No", de: "Nein" }', 'label: { en: "Maybe", de: "Nein" }'))).toEqual([
      "bot.yaml:21:21: choice word \"maybe\" in step 'confirm' of flow 'booking' already chooses 'no'; a word can choose one option only",
    ]);
  });
});
