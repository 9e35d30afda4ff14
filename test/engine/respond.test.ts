// The pure engine on compiled rules: each trigger kind, commands and @usernames, case rules, Unicode
// keyword edges, conditions, first-match order across files, fallback, templates and escaping.
import { describe, expect, it } from 'vitest';
import { compileRules } from '../../src/engine/compile.js';
import { matchMessage, respond } from '../../src/engine/respond.js';
import type { Rule } from '../../src/generated/rules-schema.js';
import { loadRuleSet } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { message, type MessageOptions } from './messages.js';

const BOT = 'shop_bot';
const set = (...rules: Rule[]) => compileRules(rules);
const reply = (rules: Rule[], text: string, options?: MessageOptions) => respond(message(text, options), set(...rules), BOT, () => 0)?.text ?? null;
const winner = (rules: Rule[], text: string, options?: MessageOptions) => matchMessage(message(text, options), set(...rules), BOT)?.rule.id ?? null;

describe('commands', () => {
  const rules: Rule[] = [
    { id: 'start', command: 'start', reply: 'welcome ({{args}})' },
    { id: 'echo', text: '/start@other_bot', reply: 'never' },
  ];
  it('answers /name, /name@ourbot (any case) and passes arguments', () => {
    expect(reply(rules, '/start')).toBe('welcome ()');
    expect(reply(rules, '/START@Shop_Bot')).toBe('welcome ()');
    expect(reply(rules, '/start@shop_bot  now  please ')).toBe('welcome (now  please)');
    expect(reply(rules, '/start\nline two')).toBe('welcome (line two)');
  });
  it('ignores a command addressed to another bot, and near-misses', () => {
    expect(reply(rules, '/start@other_bot')).toBeNull();
    expect(reply(rules, '/starts')).toBeNull();
    expect(reply(rules, 'start')).toBeNull();
    expect(reply(rules, '/start-now')).toBeNull();
  });
  it('prefers the bot_command entity at offset 0', () => {
    const entities = [{ type: 'bot_command' as const, offset: 0, length: 15 }];
    expect(reply(rules, '/start@shop_bot x', { entities })).toBe('welcome (x)');
  });
});

describe('text, pattern and keywords', () => {
  it('text compares the whole normalised message, case-insensitively unless case_sensitive', () => {
    const rules: Rule[] = [
      { id: 'ping', text: 'Ping  Pong', reply: 'pong' },
      { id: 'Exact', text: 'ABC', case_sensitive: true, reply: 'exact' },
    ];
    expect(reply(rules, '  ping \t pong ')).toBe('pong');
    expect(reply(rules, 'ＰＩＮＧ pong')).toBe('pong'); // full-width letters, NFKC
    expect(reply(rules, 'ping pong!')).toBeNull();
    expect(reply(rules, 'ABC')).toBe('exact');
    expect(reply(rules, 'abc')).toBeNull();
  });

  it('case folding goes beyond ASCII (ß = ss, Cyrillic, final sigma)', () => {
    expect(reply([{ id: 's', text: 'STRASSE', reply: 'ok' }], 'straße')).toBe('ok');
    expect(reply([{ id: 'c', text: 'ПРИВЕТ', reply: 'ok' }], 'привет')).toBe('ok');
    expect(reply([{ id: 'g', text: 'ΟΔΟΣ', reply: 'ok' }], 'οδος')).toBe('ok');
  });

  it('pattern searches anywhere, case-insensitively unless case_sensitive, with captures', () => {
    const rules: Rule[] = [
      { id: 'order', pattern: 'order\\s+(?<num>\\d+)', reply: '#{{match.num}} / {{match.1}} / {{match.0}}' },
      { id: 'Upper', pattern: '^LOUD$', case_sensitive: true, reply: 'loud' },
    ];
    expect(reply(rules, 'where is ORDER  42?')).toBe('#42 / 42 / ORDER  42');
    expect(reply(rules, 'LOUD')).toBe('loud');
    expect(reply(rules, 'loud')).toBeNull();
  });

  it('keywords match whole words and phrases with Unicode word edges', () => {
    const rules: Rule[] = [{ id: 'k', keywords: ['refund', 'money back', 'café', 'возврат', '退款', '#help'], reply: 'yes' }];
    for (const hit of ['I want a REFUND!', 'refund', 'my money   back please', 'un café?', 'Нужен возврат.', '退款', '(#help)', 'refund退款 refund']) {
      expect(winner(rules, hit), hit).toBe('k');
    }
    for (const miss of ['refunds', 'prefund', 'moneyback', 'cafés', 'caféine', 'возврата', '我要退款', 'refund退款', 'x#helpme', 'money, back']) {
      expect(winner(rules, miss), miss).toBeNull();
    }
  });

  it('a message without text gets no answer, not even from the fallback', () => {
    expect(respond(message(undefined), set({ id: 'f', fallback: true, reply: 'fb' }), BOT)).toBeNull();
  });
});

describe('order, conditions and fallback', () => {
  it('first match in file order wins across files in name order; fallback only when nothing matched', async () => {
    await withRuleDir(
      {
        '20-later.yaml': 'rules:\n  - id: later-text\n    text: hello\n    reply: later\n  - id: fb\n    fallback: true\n    reply: fallback\n',
        '10-first.yaml': "rules:\n  - id: kw\n    keywords: [hello]\n    reply: keyword\n  - id: pat\n    pattern: 'h.llo'\n    reply: pattern\n",
      },
      async (dir) => {
        const rules = await loadRuleSet(dir);
        expect(rules.rules.map((r) => r.id)).toEqual(['kw', 'pat', 'later-text', 'fb']);
        expect(respond(message('hello'), rules, BOT)?.ruleId).toBe('kw');
        expect(respond(message('hallo'), rules, BOT)?.ruleId).toBe('pat');
        expect(respond(message('something else'), rules, BOT)?.text).toBe('fallback');
      },
    );
  });

  it('a rule whose condition fails does not win; the next candidate may', () => {
    const rules: Rule[] = [
      { id: 'private-only', text: 'hi', chat_types: ['private'], reply: 'p' },
      { id: 'vip-chat', text: 'hi', chats: [-5], reply: 'vip' },
      { id: 'group-fb', fallback: true, chat_types: ['group', 'supergroup'], reply: 'gfb' },
      { id: 'fb', fallback: true, reply: 'fb' },
    ];
    expect(winner(rules, 'hi')).toBe('private-only');
    expect(winner(rules, 'hi', { chatType: 'group', chatId: -5 })).toBe('vip-chat');
    expect(winner(rules, 'hi', { chatType: 'group', chatId: -6 })).toBe('group-fb');
    expect(winner(rules, 'hi', { chatType: 'channel', chatId: -6 })).toBe('fb');
  });
});

describe('replies', () => {
  it('renders user and chat variables; missing optional values are empty', () => {
    const rules: Rule[] = [
      { id: 'who', text: 'who', reply: '[{{user.first_name}}|{{ user.last_name }}|{{user.username}}|{{user.id}}|{{chat.id}}|{{chat.type}}|{{text}}]' },
    ];
    expect(reply(rules, 'WHO ', { username: 'ada_l' })).toBe('[Ada||ada_l|42|42|private|WHO ]');
    expect(reply(rules, 'who', { noUser: true, chatType: 'channel', chatId: -9 })).toBe('[||||-9|channel|who]');
  });

  it("escapes inserted values for HTML and MarkdownV2, not the author's markup", () => {
    expect(reply([{ id: 'h', text: 'x', parse_mode: 'HTML', reply: '<b>{{user.first_name}}</b>' }], 'x', { firstName: 'A & <i>"B"</i>' })).toBe(
      '<b>A &amp; &lt;i&gt;&quot;B&quot;&lt;/i&gt;</b>',
    );
    expect(reply([{ id: 'm', text: 'x', parse_mode: 'MarkdownV2', reply: '*{{user.first_name}}*' }], 'x', { firstName: 'a_b*c[d](e).f!' })).toBe(
      '*a\\_b\\*c\\[d\\]\\(e\\)\\.f\\!*',
    );
  });

  it('picks one alternative with the injected random function', () => {
    const ruleSet = set({ id: 'r', text: 'x', reply: ['one', 'two', 'three'] });
    expect(respond(message('x'), ruleSet, BOT, () => 0)?.text).toBe('one');
    expect(respond(message('x'), ruleSet, BOT, () => 0.5)?.text).toBe('two');
    expect(respond(message('x'), ruleSet, BOT, () => 0.999)?.text).toBe('three');
  });

  it('carries the sendmessage options', () => {
    const out = respond(
      message('x', { chatId: 77 }),
      set({ id: 'o', text: 'x', reply: 'y', parse_mode: 'HTML', reply_to_message: true, disable_notification: true }),
      BOT,
    );
    expect(out).toEqual({ ruleId: 'o', chatId: 77, text: 'y', parseMode: 'HTML', replyToMessageId: 7, disableNotification: true });
    expect(respond(message('x'), set({ id: 'o', text: 'x', reply: 'y' }), BOT)).toEqual({ ruleId: 'o', chatId: 42, text: 'y' });
  });

  it('a template never reaches beyond the documented variables', () => {
    expect(() => compileRules([{ id: 't', text: 'x', reply: '{{constructor.name}}' }])).toThrow(/unknown placeholder/);
    expect(() => compileRules([{ id: 't', pattern: '(?<constructor>x)', reply: '{{match.toString}}' }])).toThrow(/no group named 'toString'/);
    // A value that looks like a template is inserted literally, never expanded.
    expect(reply([{ id: 'e', text: '{{user.id}}', reply: 'you said {{text}}' }], '{{user.id}}')).toBe('you said {{user.id}}');
  });
});

describe('catastrophic patterns (hang detector, not a benchmark)', () => {
  it('classic backtracking killers finish quickly on a 100 KB message', () => {
    const ruleSet = set(
      { id: 'a', pattern: '(a+)+$', reply: 'a' },
      { id: 'b', pattern: '(a|aa)+$', reply: 'b' },
      { id: 'c', pattern: '(.*a){20}$', reply: 'c' },
    );
    const text = `${'a'.repeat(100_000)}!`;
    const started = Date.now();
    expect(respond(message(text), ruleSet, BOT)).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
