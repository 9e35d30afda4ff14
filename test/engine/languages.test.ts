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
import { message, messageEvent } from './messages.js';

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
