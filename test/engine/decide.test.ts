// The pure engine on compiled rules: each trigger kind, commands and @usernames, case rules, Unicode
// keyword edges, conditions, first-match order across files, fallback, templates and escaping, and the
// decisions for events other than text messages.
import { describe, expect, it } from 'vitest';
import type { Message, Update } from '../../src/api/types.js';
import { compileRules } from '../../src/engine/compile.js';
import { decide, type DecideContext } from '../../src/engine/decide.js';
import { toEvent, type BotEvent } from '../../src/engine/events.js';
import { matchMessage } from '../../src/engine/match.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { EMPTY_STATE } from '../../src/engine/state.js';
import type { Rule } from '../../src/generated/rules-schema.js';
import { loadRuleSet } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { message, messageEvent, pressEvent, replyText, type MessageOptions } from './messages.js';

const BOT = 'shop_bot';
const set = (...rules: Rule[]) => compileRules(rules);
const decideOn = (event: BotEvent, ruleSet: RuleSet, context: Partial<DecideContext> = {}) =>
  decide(event, ruleSet, EMPTY_STATE, { botUsername: BOT, ...context });
const answer = (msg: Message, ruleSet: RuleSet, random?: () => number) => decideOn(messageEvent(msg), ruleSet, random ? { random } : {});
const reply = (rules: Rule[], text: string, options?: MessageOptions) => replyText(answer(message(text, options), set(...rules), () => 0));
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
    // It is an event (a hand-off relays it), but no rule answers it.
    const event = toEvent({ update_id: 1, message: message(undefined) } as Update)!;
    expect(event.kind).toBe('other_message');
    const rules = set({ id: 'f', fallback: true, reply: 'fb' });
    expect(decide(event, rules, EMPTY_STATE, { botUsername: BOT }).actions).toEqual([]);
    expect(matchMessage(message(undefined), rules, BOT)).toBeNull();
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
        expect(answer(message('hello'), rules).ruleId).toBe('kw');
        expect(answer(message('hallo'), rules).ruleId).toBe('pat');
        expect(replyText(answer(message('something else'), rules))).toBe('fallback');
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
    expect(replyText(answer(message('x'), ruleSet, () => 0))).toBe('one');
    expect(replyText(answer(message('x'), ruleSet, () => 0.5))).toBe('two');
    expect(replyText(answer(message('x'), ruleSet, () => 0.999))).toBe('three');
  });

  it('carries the sendmessage options in one send_message action', () => {
    const out = answer(
      message('x', { chatId: 77 }),
      set({ id: 'o', text: 'x', reply: 'y', parse_mode: 'HTML', reply_to_message: true, disable_notification: true }),
    );
    expect(out).toEqual({
      ruleId: 'o',
      actions: [{ type: 'send_message', chatId: 77, text: 'y', parseMode: 'HTML', replyToMessageId: 7, disableNotification: true }],
    });
    expect(answer(message('x'), set({ id: 'o', text: 'x', reply: 'y' }))).toEqual({ ruleId: 'o', actions: [{ type: 'send_message', chatId: 42, text: 'y' }] });
  });

  it('decides nothing when no rule matches', () => {
    expect(answer(message('nothing here'), set({ id: 'o', text: 'x', reply: 'y' }))).toEqual({ ruleId: null, actions: [] });
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
    // CPU time of this process (forks pool: this file alone), not wall time: a busy machine must not fail it.
    // A backtracking engine needs far more than this bound on such input; RE2 is linear in it.
    const started = process.cpuUsage();
    expect(answer(message(text), ruleSet)).toEqual({ ruleId: null, actions: [] });
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(2000);
  });
});

describe('events other than text messages', () => {
  const ruleSet = set({ id: 'fb', fallback: true, reply: 'fallback' });
  const chat = { id: -100, type: 'group' as const, title: 'The Group' };
  const user = { id: 42, is_bot: false, first_name: 'Ada' };

  it('a button press is answered with an empty answer_callback (so it stops spinning), never with a rule reply', () => {
    const press = pressEvent('buy', { message_id: 9, date: 1, chat, text: 'menu' } as Message, { from: user, id: 'cq-1', updateId: 5 });
    expect(decideOn(press, ruleSet)).toEqual({ ruleId: null, actions: [{ type: 'answer_callback', callbackQueryId: 'cq-1' }] });
  });

  it('a member joining or leaving gets no action yet, even with a fallback rule', () => {
    const joined = toEvent({ update_id: 6, message: { message_id: 10, date: 1, chat, from: user, new_chat_members: [user] } } as Update)!;
    const left = toEvent({ update_id: 7, message: { message_id: 11, date: 1, chat, from: user, left_chat_member: user } } as Update)!;
    expect([joined.kind, left.kind]).toEqual(['member_joined', 'member_left']);
    expect(decideOn(joined, ruleSet)).toEqual({ ruleId: null, actions: [] });
    expect(decideOn(left, ruleSet)).toEqual({ ruleId: null, actions: [] });
  });
});
