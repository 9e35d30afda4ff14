// Compiles what a rule does beyond its own chat: `send`, messages to other chats than the one the rule answers
// in (a staff group, a named chat of the configuration, or a chat id), each a template in the user's language
// with its own parse_mode and buttons; `forward` and `copy`, the user's message itself to such chats. Decide turns them into outbox effects (src/engine/sends.ts); whether a named chat is declared is
// the configuration's business, checked where both are known (src/rules/check-references.ts).
import type { Rule, Send } from '../generated/rules-schema.js';
import type { RuleProblemSink } from './compile-actions.js';
import { markupProblem } from './compile-actions.js';
import { compileInlineKeyboard, type InlineKeyboardTemplate } from './keyboards.js';
import { allTranslations, compileText } from './languages.js';
import type { ParseMode } from './reply.js';
import type { Template, TemplateContext } from './template.js';
import type { RuleEnvironment } from './compile-reach.js';

/** One message of a rule's `send`. */
export interface CompiledSend {
  /** A chat name of the configuration's `chats:`, or a chat id. */
  readonly to: string | number;
  readonly text: Template;
  readonly parseMode?: ParseMode;
  readonly buttons: InlineKeyboardTemplate | null;
  readonly disableNotification: boolean;
  /** Where `to` was written (its path in the rule), for a problem about the chat. */
  readonly path: readonly (string | number)[];
}

/** One chat of a rule's `forward` or `copy`: the user's message goes there itself (forwardMessage / copyMessage). */
export interface CompiledRelay {
  readonly how: 'forward' | 'copy';
  /** A chat name of the configuration's `chats:`, or a chat id. */
  readonly to: string | number;
}

/** Everything a rule sends beyond its replies, in the order it is done: its `send` messages, then `forward`, then `copy`. */
export interface CompiledOutbound {
  readonly sends: readonly CompiledSend[];
  readonly relays: readonly CompiledRelay[];
}

const MAX_TEXT_LENGTH = 4096;

/** The rule's `send`, `forward` and `copy`; undefined when one cannot be compiled (reported). */
export function compileOutbound(
  rule: Rule,
  context: TemplateContext,
  name: string,
  report: RuleProblemSink,
  environment?: RuleEnvironment,
): CompiledOutbound | undefined {
  const sends = compileSends(rule, context, name, report, environment);
  const relays: CompiledRelay[] = [];
  for (const how of ['forward', 'copy'] as const) {
    const given = rule[how];
    if (given === undefined) continue;
    if (rule.callback !== undefined) report([how], `${name} answers button presses, which bring no message of the user's to ${how}: remove \`${how}\``);
    const list = Array.isArray(given) ? given : [given];
    for (const [i, to] of list.entries()) {
      const at = Array.isArray(given) ? [how, i] : [how];
      if (environment && typeof to === 'string' && !environment.chats.has(to)) report(at, undeclaredChat(to, environment));
      relays.push(Object.freeze({ how, to }));
    }
  }
  const missing = rule.handoff === true ? handoffWithoutConfig(name, environment) : undefined;
  if (missing) report(['handoff'], missing);
  return sends ? Object.freeze({ sends, relays: Object.freeze(relays) }) : undefined;
}

/** The problem of a hand-off (by `name`) when the configuration has no `handoff:` block; undefined when it has one or none was given. */
export function handoffWithoutConfig(name: string, environment: RuleEnvironment | undefined): string | undefined {
  if (!environment || environment.handoff) return undefined;
  const where = environment.configFile ?? 'the configuration (no config file was read: pass --config, or run where hearsay.yaml is)';
  return `${name} hands off to a person, but ${where} has no handoff: block; add one, e.g. handoff: { chat: staff }`;
}

/** The rule's `send` messages (empty when it has none); undefined when one cannot be compiled (reported). */
export function compileSends(
  rule: Rule,
  context: TemplateContext,
  name: string,
  report: RuleProblemSink,
  environment?: RuleEnvironment,
): readonly CompiledSend[] | undefined {
  if (rule.send === undefined) return [];
  const list: readonly Send[] = Array.isArray(rule.send) ? rule.send : [rule.send];
  const sends: CompiledSend[] = [];
  let ok = true;
  for (const [i, send] of list.entries()) {
    const path = Array.isArray(rule.send) ? ['send', i] : ['send'];
    if (environment && typeof send.to === 'string' && !environment.chats.has(send.to)) report([...path, 'to'], undeclaredChat(send.to, environment));
    const compiled = compileSend(send, path, context, name, report);
    if (compiled) sends.push(compiled);
    else ok = false;
  }
  return ok ? Object.freeze(sends) : undefined;
}

/** Why a chat name cannot be used, and what to do. */
export function undeclaredChat(name: string, environment: RuleEnvironment): string {
  const where = environment.configFile ?? 'the configuration (no config file was read: pass --config, or run where hearsay.yaml is)';
  const known = environment.chats.size > 0 ? ` (declared: ${[...environment.chats].join(', ')})` : '';
  return `chat '${name}' is not declared in ${where}: add it under chats:, e.g. chats: { ${name}: -1001234567890 }${known}`;
}

function compileSend(send: Send, path: (string | number)[], context: TemplateContext, name: string, report: RuleProblemSink): CompiledSend | undefined {
  const what = `the message ${name} sends to ${typeof send.to === 'string' ? send.to : `chat ${send.to}`}`;
  const text = compileText(send.text, context, what, {
    error: (at, message) => report([...path, 'text', ...at], message),
    warning: (at, message) => report([...path, 'text', ...at], message, 'warning'),
  });
  const buttons = send.buttons
    ? compileInlineKeyboard(send.buttons, context, name, (at, message, severity) => report([...path, 'buttons', ...at], message, severity))
    : null;
  if (!text || buttons === undefined) return undefined;
  for (const translation of allTranslations(text)) {
    if (translation.isStatic && translation.source.length > MAX_TEXT_LENGTH)
      report([...path, 'text'], `${what} is ${translation.source.length} characters; the service takes at most ${MAX_TEXT_LENGTH} in one message`, 'warning');
    const problem = send.parse_mode ? markupProblem(translation, send.parse_mode) : undefined;
    if (problem !== undefined) report([...path, 'text'], `the service would refuse ${what} (parse_mode ${send.parse_mode}): can't parse entities: ${problem}`);
  }
  return Object.freeze({
    to: send.to,
    text,
    ...(send.parse_mode ? { parseMode: send.parse_mode } : {}),
    buttons,
    disableNotification: send.disable_notification === true,
    path: [...path, 'to'],
  });
}
