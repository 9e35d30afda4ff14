// Media where a rule's answer depends on something: the branches of a backend call (a rule's `on`, a done
// branch's `on`) send a photo or a document like a rule does, and `pin: reply` pins a rule's photo. Written as
// an operator writes them, through the rule loader and decide().
import { describe, expect, it } from 'vitest';
import type { SendMediaAction } from '../../src/engine/actions.js';
import { continueDecision } from '../../src/engine/backend-calls.js';
import { decide, type Decision } from '../../src/engine/decide.js';
import type { RuleSet } from '../../src/engine/rule-set.js';
import { applyStateChanges, EMPTY_STATE, type ConversationState } from '../../src/engine/state.js';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { message, messageEvent } from './messages.js';

const environment = { chats: new Set<string>(), backends: new Set(['shop']), configFile: 'hearsay.yaml' };
const context = { botUsername: 'shop_bot', random: () => 0 };
const LABEL_ID = 'BQACAgIAAxkBAAIBreturn-label';

async function load(yaml: string) {
  return withRuleDir({ 'bot.yaml': yaml }, (dir) => loadRules(dir, undefined, environment));
}

async function ruleSetOf(yaml: string): Promise<RuleSet> {
  const outcome = await load(yaml);
  expect(outcome.problems.map((p) => p.format())).toEqual([]);
  return outcome.ruleSet!;
}

const sent = (decision: Decision) =>
  decision.actions.flatMap((a) =>
    a.type === 'send_message' ? [a.text] : a.type === 'send_media' ? [`[${a.media.kind}] ${(a as SendMediaAction).caption ?? ''}`.trim()] : [],
  );

describe('media in the branches of a call', () => {
  it("a rule's ok branch sends a document with a caption read from the answer; its error branch a text", async () => {
    const ruleSet = await ruleSetOf(`
rules:
  - id: label
    pattern: 'label\\s+(?<num>\\d+)'
    call: { backend: shop, get: "/returns/{{match.num}}" }
    on:
      ok:
        reply: "Here is your label."
        document: ${LABEL_ID}
        caption: "Return {{result.id}}: print it and stick it on the parcel."
      error: { reply: "No label yet, sorry." }
`);
    const asked = decide(messageEvent(message('label 42')), ruleSet, EMPTY_STATE, context);
    const ok = continueDecision(asked, { status: 200, body: { id: 'R-42' } });
    expect(sent(ok)).toEqual(['Here is your label.', '[document] Return R-42: print it and stick it on the parcel.']);
    const media = ok.actions.find((a): a is SendMediaAction => a.type === 'send_media')!;
    expect(media.media).toEqual({ kind: 'document', source: { kind: 'file_id', fileId: LABEL_ID } });
    expect(sent(continueDecision(asked, { status: 503 }))).toEqual(['No label yet, sorry.']);
  });

  it("a done branch's call answers with a photo in the branch its outcome picks", async () => {
    const ruleSet = await ruleSetOf(`
flows:
  - id: table
    start: { command: table }
    steps:
      - id: size
        ask: "How many people?"
        accept: { number: { min: 1, max: 8 } }
    done:
      - call: { backend: shop, post: "/bookings", body: { size: "{{flow.size}}" } }
        on:
          ok:
            reply: "Booked, reference {{result.reference}}."
            photo: https://shop.example/floor-plan.png
            caption: "Your table for {{flow.size}} is marked."
          error: { reply: "Please call us." }
`);
    let state: ConversationState = EMPTY_STATE;
    const step = (text: string) => {
      const decision = decide(messageEvent(message(text)), ruleSet, state, { ...context, now: () => 1_000 });
      state = applyStateChanges(state, decision.actions);
      return decision;
    };
    step('/table');
    const asked = step('4');
    const ok = continueDecision(asked, { status: 201, body: { reference: 'T-7' } });
    expect(sent(ok)).toEqual(['Booked, reference T-7.', '[photo] Your table for 4 is marked.']);
    expect(ok.actions.find((a) => a.type === 'send_media')).toMatchObject({
      media: { kind: 'photo', source: { kind: 'url', url: 'https://shop.example/floor-plan.png' } },
    });
    expect(sent(continueDecision(asked, { status: null, failure: 'timeout' }))).toEqual(['Please call us.']);
  });

  it('check: media next to a call belongs in its branches', async () => {
    const outcome = await load(`
rules:
  - id: label
    command: label
    photo: https://shop.example/a.png
    call: { backend: shop, get: "/labels" }
    on: { ok: { reply: "ok" }, error: { reply: "no" } }
flows:
  - id: f
    start: { command: f }
    steps: [{ id: a, ask: "a?" }]
    done:
      - document: https://shop.example/b.pdf
        call: { backend: shop, get: "/b" }
        on: { ok: { reply: "ok" }, error: { reply: "no" } }
`);
    const found = outcome.problems.map((p) => p.format()).join('\n');
    expect(found).toContain("rule 'label' calls a backend, so what it says depends on the outcome: move `photo` into the branches of `on`");
    expect(found).toContain('calls a backend, so its reply depends on the outcome: move `document` into the branches of `on`');
  });
});

describe('pin: reply with media', () => {
  it("pins a rule's photo: the photo is marked, the pin follows it; a photo is a reply for the check", async () => {
    const ruleSet = await ruleSetOf(`
rules:
  - id: rules-card
    command: rules
    photo: https://shop.example/house-rules.png
    caption: "Our house rules"
    pin: reply
`);
    const group = messageEvent(message('/rules', { chatType: 'supergroup', chatId: -1001, entities: [{ type: 'bot_command', offset: 0, length: 6 }] }));
    const actions = decide(group, ruleSet, EMPTY_STATE, context).actions;
    expect(actions.map((a) => a.type)).toEqual(['send_media', 'moderate']);
    expect(actions[0]).toMatchObject({ type: 'send_media', caption: 'Our house rules', pinned: true });
    expect(actions[1]).toMatchObject({ method: 'pinchatmessage', pinsReply: true });
  });
});
