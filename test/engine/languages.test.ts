// Replies by the user's language, through rule files as an operator writes them: the languages block, the
// user's choice (a variable) over their client's language_code (region stripped) over the default, texts and
// keywords per language, `lang` on a rule, and what check says about missing or stray translations.
import type { Message } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/engine/decide.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { message, messageEvent, pressEvent } from './messages.js';

const SHOP = `
languages: { default: en, supported: [en, de] }
rules:
  - id: newsletter
    keywords: { en: [newsletter, unsubscribe], de: [Newsletter, abbestellen] }
    reply: { en: "Unsubscribe with the link in any newsletter.", de: "Abmelden können Sie sich über den Link im Newsletter." }
  - id: greet
    text: hi
    reply: { en: ["Hello!", "Hi there!"], de: "Hallo!" }
  - id: gutschein
    keywords: [gutschein]
    lang: [de]
    reply: "Gutscheine gibt es an der Kasse."
  - id: lang-de
    text: Deutsch
    set: { user.language: de }
    reply: { en: "German it is.", de: "Alles klar, Deutsch." }
  - id: help
    fallback: true
    reply: { en: "Sorry, I did not get that.", de: "Das habe ich nicht verstanden." }
`;

async function load(yaml: string): Promise<{ ruleSet?: RuleSet; problems: string[] }> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) => {
    const outcome = await loadRules(dir);
    return { ...(outcome.ruleSet ? { ruleSet: outcome.ruleSet } : {}), problems: outcome.problems.map((p) => p.format('bot.yaml')) };
  });
}

function texts(ruleSet: RuleSet, text: string, languageCode: string | undefined, state: ConversationState = EMPTY_STATE): string[] {
  const msg = message(text);
  const from = { ...msg.from!, ...(languageCode ? { language_code: languageCode } : {}) };
  const decision = decide(messageEvent({ ...msg, from } as Message), ruleSet, state, { botUsername: 'shop_bot', random: () => 0 });
  return decision.actions.flatMap((action) => (action.type === 'send_message' ? [action.text] : []));
}

describe('languages', () => {
  it("answers in the user's client language (region stripped), else the default, whatever words the message uses", async () => {
    const { ruleSet, problems } = await load(SHOP);
    expect(problems).toEqual([]);
    expect(texts(ruleSet!, 'Newsletter', 'de-AT')).toEqual(['Abmelden können Sie sich über den Link im Newsletter.']);
    expect(texts(ruleSet!, 'Newsletter', 'en-GB')).toEqual(['Unsubscribe with the link in any newsletter.']);
    // Keywords of every language match; the reply follows the user, not the words.
    expect(texts(ruleSet!, 'how do I unsubscribe?', 'de')).toEqual(['Abmelden können Sie sich über den Link im Newsletter.']);
    expect(texts(ruleSet!, 'bitte abbestellen', 'en')).toEqual(['Unsubscribe with the link in any newsletter.']);
    // An unsupported language or none at all gets the default.
    expect(texts(ruleSet!, 'hi', 'fr')).toEqual(['Hello!']);
    expect(texts(ruleSet!, 'hi', undefined)).toEqual(['Hello!']);
    expect(texts(ruleSet!, 'hi', 'DE')).toEqual(['Hallo!']);
    expect(texts(ruleSet!, 'was?', 'de')).toEqual(['Das habe ich nicht verstanden.']);
  });

  it("the user's stored choice (user.language) wins over the client's language, and set stores it", async () => {
    const { ruleSet } = await load(SHOP);
    const msg = message('Deutsch');
    const decision = decide(messageEvent({ ...msg, from: { ...msg.from!, language_code: 'en' } } as Message), ruleSet!, EMPTY_STATE, { botUsername: 'b' });
    // The reply is rendered after the rule's set: the new choice already applies.
    expect(decision.actions).toEqual([
      { type: 'set_state', scope: 'user', key: 'language', value: 'de' },
      expect.objectContaining({ type: 'send_message', text: 'Alles klar, Deutsch.' }),
    ]);
    const chosen: ConversationState = { ...EMPTY_STATE, user: { language: 'de' } };
    expect(texts(ruleSet!, 'hi', 'en', chosen)).toEqual(['Hallo!']);
    // A stored choice that is not supported is ignored.
    expect(texts(ruleSet!, 'hi', 'en', { ...EMPTY_STATE, user: { language: 'fr' } })).toEqual(['Hello!']);
  });

  it('lang limits a rule to users of those languages; the others reach the next rule', async () => {
    const { ruleSet } = await load(SHOP);
    expect(texts(ruleSet!, 'Gutschein?', 'de')).toEqual(['Gutscheine gibt es an der Kasse.']);
    expect(texts(ruleSet!, 'Gutschein?', 'en')).toEqual(['Sorry, I did not get that.']);
  });

  it('check warns about a missing translation (the default is sent) and refuses stray or impossible ones', async () => {
    const missing = await load('languages: { default: en, supported: [en, de, fr] }\nrules:\n  - id: hi\n    text: hi\n    reply: { en: Hello, de: Hallo }\n');
    expect(missing.problems).toEqual(["bot.yaml:5:12: warning: the reply of rule 'hi' has no 'fr' translation: users of that language get the 'en' text"]);
    expect(texts(missing.ruleSet!, 'hi', 'fr')).toEqual(['Hello']);
    const stray = await load('languages: { default: en, supported: [en] }\nrules:\n  - id: hi\n    text: hi\n    reply: { en: Hello, es: Hola }\n');
    expect(stray.problems).toEqual(["bot.yaml:5:29: the reply of rule 'hi' has a text for 'es', which is not among the supported languages (en)"]);
    const noDefault = await load('languages: { default: en, supported: [en, de] }\nrules:\n  - id: hi\n    text: hi\n    reply: { de: Hallo }\n');
    expect(noDefault.problems).toEqual([
      "bot.yaml:5:12: the reply of rule 'hi' has no text in the default language 'en', which every missing translation falls back to",
    ]);
    const undeclared = await load('rules:\n  - id: hi\n    text: hi\n    reply: { en: Hello }\n');
    expect(undeclared.problems[0]).toContain("the reply of rule 'hi' is given per language, but no file declares the languages");
  });

  it('every text may be given per language: buttons, keyboard labels, a press answer and edit, a flow question, retry and cancel', async () => {
    const { ruleSet, problems } = await load(`
languages: { default: en, supported: [en, de] }
rules:
  - id: menu
    command: menu
    reply: { en: "Menu", de: "Menü" }
    buttons: [[{ text: { en: "Opening hours", de: "Öffnungszeiten" }, data: hours }]]
  - id: language
    command: language
    reply: { en: "Your language?", de: "Ihre Sprache?" }
    keyboard: [[{ en: "German", de: "Deutsch" }, "English"]]
  - id: hours
    callback: hours
    answer: { en: "Open 9 to 5", de: "Geöffnet 9 bis 17 Uhr" }
    edit: { en: "Hours: 9 to 5", de: "Zeiten: 9 bis 17 Uhr" }
  - id: thanks
    callback: thanks
    reply: { en: "Thank you!", de: "Danke!" }
  - id: choose-de
    callback: lang-de
    set: { user.language: de }
    answer: { en: "English it stays", de: "Jetzt auf Deutsch" }
flows:
  - id: order
    start: { command: order }
    cancel: { keywords: [stop], reply: { en: "Cancelled.", de: "Abgebrochen." } }
    steps:
      - id: count
        ask: { en: "How many?", de: "Wie viele?" }
        accept: { number: { min: 1, max: 9 } }
        retry: { en: "A number from 1 to 9, please.", de: "Bitte eine Zahl von 1 bis 9." }
    done:
      - reply: { en: "Ordered {{flow.count}}.", de: "{{flow.count}} bestellt." }
`);
    expect(problems).toEqual([]);
    const command = (text: string, languageCode: string, state: ConversationState = EMPTY_STATE) => {
      const msg = message(text, { entities: [{ type: 'bot_command', offset: 0, length: text.length }] });
      return decide(messageEvent({ ...msg, from: { ...msg.from!, language_code: languageCode } } as Message), ruleSet!, state, { botUsername: 'b' });
    };
    const sent = (decision: ReturnType<typeof decide>) => decision.actions.find((a) => a.type === 'send_message');
    expect(sent(command('/menu', 'de'))).toMatchObject({
      text: 'Menü',
      replyMarkup: { inline_keyboard: [[{ text: 'Öffnungszeiten', callback_data: 'hours' }]] },
    });
    expect(sent(command('/menu', 'en'))).toMatchObject({
      text: 'Menu',
      replyMarkup: { inline_keyboard: [[{ text: 'Opening hours', callback_data: 'hours' }]] },
    });
    expect(sent(command('/language', 'de'))).toMatchObject({ replyMarkup: { keyboard: [[{ text: 'Deutsch' }, { text: 'English' }]] } });

    const press = (data: string, languageCode: string, state: ConversationState = EMPTY_STATE) => {
      const msg = message('Menu');
      const from = { ...msg.from!, language_code: languageCode };
      const event = pressEvent(data, { ...msg, date: 1, from: { id: 1, is_bot: true, first_name: 'B' } }, { from, id: 'q1' });
      return decide(event, ruleSet!, state, { botUsername: 'b' });
    };
    expect(press('hours', 'de').actions).toEqual([
      { type: 'answer_callback', callbackQueryId: 'q1', text: 'Geöffnet 9 bis 17 Uhr' },
      expect.objectContaining({ type: 'edit_message_text', text: 'Zeiten: 9 bis 17 Uhr' }),
    ]);
    expect(press('hours', 'en').actions[0]).toMatchObject({ text: 'Open 9 to 5' });
    expect(press('thanks', 'de').actions.find((a) => a.type === 'send_message')).toMatchObject({ text: 'Danke!' });
    // A press that stores the choice: the choice wins over the client's language at once, and afterwards.
    expect(press('lang-de', 'en').actions).toEqual([
      { type: 'set_state', scope: 'user', key: 'language', value: 'de' },
      { type: 'answer_callback', callbackQueryId: 'q1', text: 'Jetzt auf Deutsch' },
    ]);
    expect(press('hours', 'en', { ...EMPTY_STATE, user: { language: 'de' } }).actions[0]).toMatchObject({ text: 'Geöffnet 9 bis 17 Uhr' });

    expect(sent(command('/order', 'de'))).toMatchObject({ text: 'Wie viele?' });
    const inFlow = (text: string, languageCode: string) => {
      const started = command('/order', languageCode);
      const flow = started.actions.find((a) => a.type === 'set_flow');
      const state = { ...EMPTY_STATE, flow: flow && flow.type === 'set_flow' ? flow.flow : null };
      return texts(ruleSet!, text, languageCode, state);
    };
    expect(inFlow('zwölf', 'de')).toEqual(['Bitte eine Zahl von 1 bis 9.']);
    expect(inFlow('twelve', 'en')).toEqual(['A number from 1 to 9, please.']);
    expect(inFlow('stop', 'de')).toEqual(['Abgebrochen.']);
    expect(inFlow('3', 'de')).toEqual(['3 bestellt.']);
  });

  it('a during_flows rule answers a user inside a flow in their language, and keeps its lang condition', async () => {
    const { ruleSet, problems } = await load(`
languages: { default: en, supported: [en, de] }
rules:
  - id: help
    text: help
    during_flows: true
    reply: { en: "Answer the question, or say stop.", de: "Beantworten Sie die Frage, oder sagen Sie stop." }
  - id: hilfe
    text: hilfe
    during_flows: true
    lang: [de]
    reply: "Nur auf Deutsch."
flows:
  - id: order
    start: { text: order }
    steps:
      - id: count
        ask: { en: "How many?", de: "Wie viele?" }
`);
    expect(problems).toEqual([]);
    const inFlow: ConversationState = { ...EMPTY_STATE, flow: { flowId: 'order', stepId: 'count', values: {}, lastActivity: Date.now() } };
    expect(texts(ruleSet!, 'help', 'de', inFlow)).toEqual(['Beantworten Sie die Frage, oder sagen Sie stop.']);
    expect(texts(ruleSet!, 'help', 'en', inFlow)).toEqual(['Answer the question, or say stop.']);
    expect(texts(ruleSet!, 'hilfe', 'de', inFlow)).toEqual(['Nur auf Deutsch.']);
    // Not a German user: hilfe is no during_flows answer for them, so it answers the step (which takes any text).
    expect(texts(ruleSet!, 'hilfe', 'en', inFlow)).not.toContain('Nur auf Deutsch.');
  });

  it('a text per language that leaves out a supported language falls back to the default, with a warning at its position', async () => {
    const { ruleSet, problems } = await load(`
languages: { default: en, supported: [en, de] }
rules:
  - id: menu
    command: menu
    reply: "Menu"
    buttons: [[{ text: { en: "Help" }, url: "https://example.com/help" }]]
`);
    expect(problems).toEqual([
      "bot.yaml:7:24: warning: the text of button \"Help\" of rule 'menu' has no 'de' translation: users of that language get the 'en' text",
    ]);
    const msg = message('/menu', { entities: [{ type: 'bot_command', offset: 0, length: 5 }] });
    const decision = decide(messageEvent({ ...msg, from: { ...msg.from!, language_code: 'de' } } as Message), ruleSet!, EMPTY_STATE, { botUsername: 'b' });
    expect(decision.actions[0]).toMatchObject({ replyMarkup: { inline_keyboard: [[{ text: 'Help' }]] } });
  });

  it('languages is declared once: a second file declaring it is an error naming the first', async () => {
    const outcome = await withRuleDir(
      {
        'a.yaml': 'languages: { default: en, supported: [en] }\n',
        'b.yaml': 'languages: { default: de, supported: [de] }\nrules:\n  - id: x\n    text: x\n    reply: y\n',
      },
      async (dir) => (await loadRules(dir)).problems.map((p) => p.message),
    );
    expect(outcome).toEqual([expect.stringMatching(/^languages is declared twice: already at .*a\.yaml:1:1; declare it once, in one file$/)]);
  });
});
