// Why the bot answered what it did, for one handled update: the rule or flow step that answered (and where it is
// written), how it matched, the variables and flow position it changed, the backend calls it made and the time it
// took. Built from the engine's decision and the update's state changes: the data the `update handled` log line
// shows, told to the sandbox's chat page (the "why" under each answer) and to `hearsay chat --why`.
import type { Decision } from '../engine/decide-types.js';
import type { CompiledRule, RuleSet } from '../engine/rule-set.js';
import type { StateValue } from '../engine/state.js';
import type { StateChange } from './ports.js';

/**
 * How the answer was found: by the answering rule's trigger (`command`, `text`, `keyword`, `pattern`, a button's
 * `callback`, a member `event`), as the `fallback` when no rule matched, by a `flow` (a step's answer, its end,
 * a cancel or a timeout), or `none` when nothing answered.
 */
export type MatchKind = 'command' | 'text' | 'keyword' | 'pattern' | 'callback' | 'event' | 'fallback' | 'flow' | 'none';

/** The parts of a flow an answer can come from (see Decision.ruleId). */
export type FlowPart = 'start' | 'step' | 'done' | 'cancel' | 'timeout' | 'ended';

/** A call to a backend a rule made while answering: which backend, the request, and its status or failure. */
export interface BackendCall {
  readonly backend: string;
  /** `GET /orders/{{match.num}}`: the method and the path as the rule writes it (no values, no secrets). */
  readonly request: string;
  /** The HTTP status; null when none came (see `failure`). */
  readonly status: number | null;
  readonly failure?: string;
}

export interface Explanation {
  /** The rule's id, or the flow part (`booking`, `booking#date`, `booking#done` …, see Decision.ruleId); null when nothing answered. */
  readonly rule: string | null;
  /** Where the rule or flow is written. */
  readonly file?: string;
  readonly line?: number;
  readonly match: MatchKind;
  /** What a flow did: started (by its start's trigger, in `match`), took a step's answer or asked again, ended, was cancelled, timed out, or was left after a reload. */
  readonly flow?: { readonly id: string; readonly part: FlowPart; readonly step?: string };
  /** The keyword or phrase found, for `keyword`. */
  readonly keyword?: string;
  /** The typos corrected before the rule matched (`fuzzy`), each word as written and as corrected. */
  readonly corrected?: ReadonlyArray<{ readonly from: string; readonly to: string }>;
  /** Another form of a word matched (stems of this language). */
  readonly forms?: string;
  /** Pressed among the suggestions for what the user wrote (`declined`: "None of these"). */
  readonly suggestion?: { readonly text: string; readonly declined: boolean };
  /** For a message no rule matched: the rules offered as suggestions, best first. */
  readonly suggested?: readonly string[];
  /** `when_contested`: the rule that matched by its keywords and was offered among rules closer to the message. */
  readonly contested?: string;
  /** The variables (`user.name`, `chat.mode`) and the flow position (`flow`, as `booking#size`) the update changed, in order; null removes. */
  readonly changed: readonly { readonly name: string; readonly value: StateValue | null }[];
  /** The backend calls made while answering, in order. */
  readonly backend: readonly BackendCall[];
  /** From the start of the update's turn to its commit, in milliseconds (the log line's duration_ms). */
  readonly ms: number;
}

/** The rules and flows of each rule set by id, made the first time one of its answers is explained. */
const byId = new WeakMap<RuleSet, ReadonlyMap<string, CompiledRule>>();

function ruleById(ruleSet: RuleSet, id: string): CompiledRule | undefined {
  let rules = byId.get(ruleSet);
  if (!rules) {
    rules = new Map([...ruleSet.rules, ...ruleSet.callbacks].map((rule) => [rule.id, rule]));
    byId.set(ruleSet, rules);
  }
  return rules.get(id);
}

const KIND_OF_TRIGGER: Readonly<Record<CompiledRule['trigger']['kind'], MatchKind>> = {
  command: 'command',
  text: 'text',
  pattern: 'pattern',
  keywords: 'keyword',
  fallback: 'fallback',
  callback: 'callback',
  event: 'event',
  // A photo, a location … a user sent: an event of its own kind (`event: photo`).
  media: 'event',
};

/** The variables and flow position `changes` set, by name; hearsay's own bookkeeping (`chat._member_changes`) left out. */
export function changedNames(changes: readonly StateChange[]): Explanation['changed'] {
  return changes.flatMap((change) => {
    if (change.type === 'set_flow') return [{ name: 'flow', value: change.flow ? `${change.flow.flowId}#${change.flow.stepId}` : null }];
    return change.key.startsWith('_') ? [] : [{ name: `${change.scope}.${change.key}`, value: change.value }];
  });
}

/** How the rule was reached when not by its words as written (see Decision.via), as the explanation's fields. */
function viaParts(via: Decision['via']): Pick<Explanation, 'corrected' | 'forms' | 'suggestion'> {
  if (via?.kind === 'corrected') return { corrected: via.corrections };
  if (via?.kind === 'forms') return { forms: via.language };
  if (via?.kind === 'suggested') return { suggestion: { text: via.text, declined: via.declined === true } };
  return {};
}

/** The explanation of one decision; `ms` is how long the update took. */
export function explain(
  decision: Pick<Decision, 'ruleId' | 'keyword' | 'via' | 'suggested' | 'contested' | 'calls'>,
  changes: readonly StateChange[],
  ruleSet: RuleSet,
  ms: number,
): Explanation {
  const changed = changedNames(changes);
  const backend = (decision.calls ?? []).map((call) => ({
    backend: call.backend,
    request: `${call.method} ${call.template}`,
    status: call.status,
    ...(call.failure ? { failure: call.failure } : {}),
  }));
  const base = { changed, backend, ms: Math.round(ms * 10) / 10 };
  const id = decision.ruleId;
  if (id === null)
    return {
      rule: null,
      match: 'none',
      ...base,
      ...(decision.suggested ? { suggested: decision.suggested } : {}),
      ...(decision.contested ? { contested: decision.contested } : {}),
    };
  const rule = ruleById(ruleSet, id);
  const keyword = {
    ...(decision.keyword !== undefined ? { keyword: decision.keyword } : {}),
    ...viaParts(decision.via),
  };
  const [flowId, suffix] = id.split('#') as [string, string | undefined];
  const flow = ruleSet.flows.get(flowId);
  if (rule && suffix === undefined) {
    const match = KIND_OF_TRIGGER[rule.trigger.kind];
    // A flow's start is told as the flow, where it is written.
    const started = rule.startsFlow !== undefined ? { flow: { id: rule.startsFlow, part: 'start' as const } } : {};
    const where = flow && rule.startsFlow !== undefined ? flow : rule;
    return { rule: id, file: where.file, line: where.line, match, ...started, ...keyword, ...base };
  }
  // What a flow did: a step (answered or asked again), done, cancel, timeout, or left after a reload.
  const part: FlowPart = suffix === 'done' || suffix === 'cancel' || suffix === 'timeout' || suffix === 'ended' ? suffix : 'step';
  const where = flow ? { file: flow.file, line: flow.line } : {};
  return { rule: id, ...where, match: 'flow', flow: { id: flowId, part, ...(part === 'step' && suffix ? { step: suffix } : {}) }, ...keyword, ...base };
}
