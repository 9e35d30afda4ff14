// Moderation where an answer depends on something: the branches of a rule's `call` (the rule's own moderation
// whatever the outcome, the branch's added), a button press that calls, a flow's done branches (a captcha by
// question), and a join request answered by questions in private (the flow begins in the requester's private chat
// and its done branch approves or declines the request in the group).
import type { Message, Update } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/engine/actions.js';
import { continueDecision, type BackendResult } from '../../src/engine/backend-calls.js';
import { decide, type Decision } from '../../src/engine/decide.js';
import { toEvent, updateKindsFor, type BotEvent } from '../../src/engine/events.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { applyStateChanges, EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { message, messageEvent, pressEvent } from './messages.js';

const NOW = 1_700_000_000_000;
const GROUP = -1001;

async function load(yaml: string): Promise<{ ruleSet?: RuleSet; problems: string[] }> {
  const outcome = await withRuleDir({ 'bot.yaml': yaml }, (dir) =>
    loadRules(dir, undefined, { chats: new Set(), backends: new Set(['antispam']), configFile: 'hearsay.yaml' }),
  );
  return { ...(outcome.ruleSet ? { ruleSet: outcome.ruleSet } : {}), problems: outcome.problems.map((p) => p.message) };
}

async function ruleSetOf(yaml: string): Promise<RuleSet> {
  const { ruleSet, problems } = await load(yaml);
  expect(problems).toEqual([]);
  return ruleSet!;
}

/** The decision with its calls answered by `result`. */
function decided(event: BotEvent, ruleSet: RuleSet, state: ConversationState, result?: BackendResult): Decision {
  let decision = decide(event, ruleSet, state, { botUsername: 'kiez_bot', now: () => NOW });
  while (decision.call) decision = continueDecision(decision, result!);
  return decision;
}

/** What a decision does, in order: moderation as `method chat`, messages as `send chat: text`. */
function outline(actions: readonly Action[]): string[] {
  return actions.flatMap((a) => {
    if (a.type === 'moderate') return [`${a.method} ${a.chatId}${a.pinsReply ? ' reply' : ''}`];
    if (a.type === 'send_message') return [`send ${a.chatId}: ${a.text}${a.pinned ? ' (pinned)' : ''}`];
    return [];
  });
}

const inGroup = (text: string) => messageEvent(message(text, { chatType: 'supergroup', chatId: GROUP }));

describe('moderation in the branches of a call', () => {
  const RULES = `
rules:
  - id: check-link
    pattern: 'https?://'
    chat_types: [supergroup]
    call: { backend: antispam, get: "/check?user={{user.id}}" }
    delete: true
    on:
      ok: { reply: "Thanks, {{user.first_name}}." }
      403: { ban: { for: 1d }, reply: "{{user.first_name}} was banned for spam.", pin: reply }
      error: { restrict: { for: 1h }, reply: "Muted until a person looks." }
`;

  it('performs the rule’s deletion whatever the outcome, and the picked branch’s own moderation around its reply', async () => {
    const ruleSet = await ruleSetOf(RULES);
    const pending = decide(inGroup('see https://x.example'), ruleSet, EMPTY_STATE, { botUsername: 'kiez_bot', now: () => NOW });
    // Nothing is decided for the group before the backend has answered.
    expect(outline(pending.actions)).toEqual([]);
    expect(outline(decided(inGroup('see https://x.example'), ruleSet, EMPTY_STATE, { status: 200, body: {} }).actions)).toEqual([
      `deletemessage ${GROUP}`,
      `send ${GROUP}: Thanks, Ada.`,
    ]);
    const banned = decided(inGroup('see https://x.example'), ruleSet, EMPTY_STATE, { status: 403 });
    expect(outline(banned.actions)).toEqual([
      `deletemessage ${GROUP}`,
      `banchatmember ${GROUP}`,
      `send ${GROUP}: Ada was banned for spam. (pinned)`,
      `pinchatmessage ${GROUP} reply`,
    ]);
    expect(banned.actions.find((a) => a.type === 'moderate' && a.method === 'banchatmember')).toMatchObject({
      params: { user_id: 42, until_date: NOW / 1000 + 86_400 },
    });
    expect(outline(decided(inGroup('https://x.example'), ruleSet, EMPTY_STATE, { status: null, failure: 'timeout' }).actions)).toEqual([
      `deletemessage ${GROUP}`,
      `restrictchatmember ${GROUP}`,
      `send ${GROUP}: Muted until a person looks.`,
    ]);
  });

  it('a branch the outcome does not have still leaves the rule’s own moderation', async () => {
    const ruleSet = await ruleSetOf(`
rules:
  - id: check
    pattern: 'https?://'
    call: { backend: antispam, get: "/check" }
    delete: true
    on:
      403: { ban: true }
      error: { reply: "x" }
`);
    expect(outline(decided(inGroup('https://x.example'), ruleSet, EMPTY_STATE, { status: 200 }).actions)).toEqual([`deletemessage ${GROUP}`]);
  });

  it('a button press that calls moderates the presser after the press is answered', async () => {
    const ruleSet = await ruleSetOf(`
rules:
  - id: human
    callback: '^human$'
    call: { backend: antispam, get: "/known/{{user.id}}" }
    on:
      ok: { answer: "Welcome!", unrestrict: true, reply: "{{user.first_name}} may talk now." }
      error: { answer: "Sorry", ban: true }
`);
    const question = { message_id: 5, date: 1_700_000_000, chat: { id: GROUP, type: 'supergroup', title: 'Kiez' }, text: 'Press' } as Message;
    const press = pressEvent('human', question, { from: { id: 43, is_bot: false, first_name: 'Ben' }, id: 'q1' });
    const kinds = (result: BackendResult) => decided(press, ruleSet, EMPTY_STATE, result).actions.map((a) => (a.type === 'moderate' ? a.method : a.type));
    expect(kinds({ status: 200 })).toEqual(['answer_callback', 'restrictchatmember', 'send_message']);
    expect(kinds({ status: 404 })).toEqual(['answer_callback', 'banchatmember']);
  });
});

describe('moderation in a flow’s done branches', () => {
  it('a captcha by question: the right answer lifts the restriction, a wrong one bans, in the flow’s group', async () => {
    const ruleSet = await ruleSetOf(`
flows:
  - id: captcha
    start: { command: verify, chat_types: [supergroup] }
    steps:
      - id: sum
        ask: "What is 3 + 4?"
    done:
      - when: { flow.sum: "7" }
        unrestrict: true
        reply: "Welcome, {{user.first_name}}!"
        pin: reply
      - ban: { for: 1d }
        reply: "Wrong."
`);
    let state = EMPTY_STATE;
    const say = (text: string) => {
      const decision = decided(inGroup(text), ruleSet, state);
      state = applyStateChanges(state, decision.actions);
      return outline(decision.actions);
    };
    expect(say('/verify')).toEqual([`send ${GROUP}: What is 3 + 4?`]);
    expect(say('7')).toEqual([`restrictchatmember ${GROUP}`, `send ${GROUP}: Welcome, Ada! (pinned)`, `pinchatmessage ${GROUP} reply`]);
    say('/verify');
    expect(say('8')).toEqual([`banchatmember ${GROUP}`, `send ${GROUP}: Wrong.`]);
  });

  it('the checker refuses what a done branch cannot do', async () => {
    const { problems } = await load(`
flows:
  - id: quiz
    start: { command: quiz }
    steps: [{ id: a, ask: "?" }]
    done:
      - when: { flow.a: "x" }
        approve: true
        reply: "x"
      - pin: message
`);
    expect(problems).toEqual([
      "`approve` answers a join request, and done branch #1 of flow 'quiz' is not in a flow that `event: join_request` starts: remove it",
      "done branch #2 of flow 'quiz' has no message of its own to pin: write `pin: reply`",
    ]);
  });
});

describe('a join request answered by questions in private', () => {
  const JOIN = `
flows:
  - id: newcomer
    start: { event: join_request }
    timeout: { after: 1d, reply: "No answer; an admin will look at your request." }
    steps:
      - id: why
        ask: "Hi {{user.first_name}}! Why do you want to join Kiez Coders?"
      - id: rules
        ask: "Do you accept our rules (no spam, be kind)?"
        accept: { choice: { "yes": [yes, ja], "no": [no, nein] } }
    done:
      - when: { flow.rules: "yes" }
        approve: true
        set: { user.joined_because: "{{flow.why}}" }
        reply: "Welcome in!"
      - decline: true
        reply: "Sorry, the group is only for those who accept its rules."
`;
  const requestEvent = () =>
    toEvent({
      update_id: 4,
      chat_join_request: {
        chat: { id: GROUP, type: 'supergroup', title: 'Kiez Coders' },
        from: { id: 42, is_bot: false, first_name: 'Ada' },
        user_chat_id: 42,
        date: 1_700_000_000,
      },
    } as unknown as Update)!;

  it('asks in the private chat, remembers the group, and approves or declines there by the answers', async () => {
    const ruleSet = await ruleSetOf(JOIN);
    expect(updateKindsFor(ruleSet)).toContain('chat_join_request');
    const started = decided(requestEvent(), ruleSet, EMPTY_STATE);
    expect(started.ruleId).toBe('newcomer');
    expect(outline(started.actions)).toEqual(['send 42: Hi Ada! Why do you want to join Kiez Coders?']);
    const setFlow = started.actions.find((a) => a.type === 'set_flow');
    expect(setFlow).toEqual({ type: 'set_flow', chatId: 42, flow: { flowId: 'newcomer', stepId: 'why', values: {}, lastActivity: NOW, joinChat: GROUP } });
    // The join request's own chat (the group) keeps no flow: the position is the private chat's.
    expect(applyStateChanges(EMPTY_STATE, started.actions).flow).toBeNull();
    for (const [answer, expected] of [
      ['yes', [`approvechatjoinrequest ${GROUP}`, 'send 42: Welcome in!']],
      ['no', [`declinechatjoinrequest ${GROUP}`, 'send 42: Sorry, the group is only for those who accept its rules.']],
    ] as const) {
      let state: ConversationState = { ...EMPTY_STATE, flow: (setFlow as { flow: ConversationState['flow'] }).flow };
      const say = (text: string) => {
        const decision = decided(messageEvent(message(text)), ruleSet, state);
        state = applyStateChanges(state, decision.actions);
        return decision;
      };
      expect(outline(say('I write Go').actions)).toEqual(['send 42: Do you accept our rules (no spam, be kind)?']);
      const done = say(answer);
      expect(outline(done.actions)).toEqual(expected);
      expect(done.actions.find((a) => a.type === 'moderate')).toMatchObject({ params: { user_id: 42 } });
      expect(state.flow).toBeNull();
    }
  });

  it('check: approve and decline belong to a flow a join request starts', async () => {
    const { problems } = await load(JOIN);
    expect(problems).toEqual([]);
  });
});
