// Renders a precompiled reply template for one message, escaping every inserted value for the
// chosen parse mode (the rule author's own markup in the literal parts is left alone).
import type { Message } from '@grammyjs/types';
import type { JsonValue } from './actions.js';
import type { BackendResult } from './backend-calls.js';
import type { ParseMode } from './reply.js';
import { valueIn, type StateValue } from './state.js';
import { resolveLanguage, translated } from './languages.js';
import { messageFieldValue } from './message-media.js';
import type { Template, TemplateVariable } from './template.js';
import { topicOf } from './topics.js';
import { timeText } from './render-time.js';

export interface RenderValues {
  message: Message;
  /** The command's argument string, for command rules. */
  args?: string;
  /** Pattern captures by number and by name (null for a group that did not take part). */
  captures?: ReadonlyMap<number | string, string | null>;
  /** The variables of the user, the chat and the member, as they are after the rule's `set`. */
  vars?: {
    readonly user: Readonly<Record<string, StateValue>>;
    readonly chat: Readonly<Record<string, StateValue>>;
    readonly member?: Readonly<Record<string, StateValue>>;
  };
  /** The current flow's answers, by step id. */
  flow?: Readonly<Record<string, StateValue>>;
  /** The JSON answers of the flow's steps a backend call accepted, by step id ({{flow.STEP.PATH}}). */
  flowResults?: Readonly<Record<string, JsonValue>>;
  /** In a branch of a call's `on`: what the backend answered ({{result.PATH}}, {{result.status_code}}). */
  result?: BackendResult;
  /** In the call of a flow step's accept: the answer being checked ({{answer}}). */
  answer?: string;
  /**
   * The user's topic in the hand-off's staff group, for {{handoff.topic_link}}: its link, or `pending` when the
   * topic is not known yet and the text is an outbox effect that fills it in once it is (TOPIC_LINK_PENDING).
   */
  topicLink?: string | 'pending';
  /** The moment the text is written (ms since the epoch; the decision's clock): {{now.*}}, {{hours.*}}; Date.now() when absent. */
  now?: number;
  /** Writes the text in this language instead of the user's (a reminder is rendered for each language, and sent in the one they have then). */
  language?: string;
}

/** Stands in a rendered text for {{handoff.topic_link}} until the topic is known (see RenderValues.topicLink). */
export const TOPIC_LINK_PENDING = '\u2063handoff.topic_link\u2063';

/**
 * The template's text for these values, with every placeholder filled and escaped for `parseMode`. A text
 * given per language is rendered in the language of the user it answers (`message.from`, with their
 * variables as they are now: a `set` of the language choice applies at once).
 */
export function render(template: Template, values: RenderValues, parseMode?: ParseMode): string {
  const chosen = template.localized
    ? translated(template, values.language ?? resolveLanguage(template.localized.settings, values.message.from, values.vars?.user ?? {}))
    : template;
  let out = '';
  for (const part of chosen.parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    // The link of a topic not opened yet is filled in (escaped) when the effect is performed.
    if (part.kind === 'handoff_topic_link' && values.topicLink === 'pending') {
      out += TOPIC_LINK_PENDING;
      continue;
    }
    const value = valueOf(part, values);
    out += escapeFor(value === '' && part.otherwise !== undefined ? part.otherwise : value, parseMode);
  }
  return out;
}

/** The template's text with each inserted value passed through `escape` (a URL path's or query's percent-encoding). */
export function renderEscaped(template: Template, values: RenderValues, escape: (value: string) => string): string {
  let out = '';
  for (const part of template.parts) out += typeof part === 'string' ? part : escape(valueOf(part, values));
  return out;
}

/** Picks one alternative; `random` returns a number in [0, 1) like Math.random. */
export function pickTemplate(templates: readonly Template[], random: () => number): Template {
  if (templates.length === 1) return templates[0]!;
  const i = Math.min(templates.length - 1, Math.max(0, Math.floor(random() * templates.length)));
  return templates[i]!;
}

function valueOf(variable: TemplateVariable, values: RenderValues): string {
  const { message, args, captures, vars, flow } = values;
  switch (variable.kind) {
    case 'message':
      return messageFieldValue(message, variable.field);
    case 'user.first_name':
      return message.from?.first_name ?? '';
    case 'user.last_name':
      return message.from?.last_name ?? '';
    case 'user.username':
      return message.from?.username ?? '';
    case 'user.id':
      return message.from ? String(message.from.id) : '';
    case 'chat.id':
      return String(message.chat.id);
    case 'chat.type':
      return message.chat.type;
    case 'chat.title':
      return 'title' in message.chat && typeof message.chat.title === 'string' ? message.chat.title : '';
    case 'message.topic':
      return String(topicOf(message) ?? '');
    case 'text':
      // A photo's (or a document's) caption is its text.
      return message.text ?? message.caption ?? '';
    case 'args':
      return args ?? '';
    case 'match':
      return captures?.get(variable.group) ?? '';
    case 'var':
      return String(valueIn(vars?.[variable.scope], variable.key) ?? '');
    case 'flow':
      if (variable.path) return jsonText(jsonAt(values.flowResults?.[variable.key], variable.path));
      if (variable.as === 'date') return timeText({ ...variable, as: 'date', time: variable.time! }, values);
      return String(valueIn(flow, variable.key) ?? '');
    case 'now':
    case 'hours':
      return timeText(variable, values);
    case 'result':
      return jsonText(jsonAt(values.result?.body, variable.path));
    case 'result_status':
      return values.result?.status != null ? String(values.result.status) : '';
    case 'answer':
      return values.answer ?? '';
    case 'handoff_topic_link':
      return values.topicLink === undefined || values.topicLink === 'pending' ? '' : values.topicLink;
  }
}

/** The value at a path of keys and array indexes in a JSON answer; undefined where the path leads nowhere. */
export function jsonAt(value: JsonValue | undefined, path: readonly string[]): JsonValue | undefined {
  let at = value;
  for (const key of path) {
    if (Array.isArray(at)) at = /^\d+$/.test(key) ? at[Number(key)] : undefined;
    else if (typeof at === 'object' && at !== null) at = Object.hasOwn(at, key) ? at[key] : undefined;
    else return undefined;
  }
  return at;
}

/** A JSON value as a template shows it: a text as it is, a number or boolean as written, nothing for null or missing, an object or list as JSON. */
function jsonText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c]!);
}

/** MarkdownV2 reserved characters (and the backslash itself) get a backslash before them. */
export function escapeMarkdownV2(value: string): string {
  return value.replace(/[_*[\]()~`>#+\-=|{}.!\\]/g, (c) => `\\${c}`);
}

/** A value escaped for the text's parse mode. */
export function escapeFor(value: string, parseMode?: ParseMode): string {
  if (parseMode === 'HTML') return escapeHtml(value);
  if (parseMode === 'MarkdownV2') return escapeMarkdownV2(value);
  return value;
}
