// Compiles what a rule says besides its trigger that reaches more people: its reply given once or per
// language, or a `messages` sequence (each message with its own options), and keywords given per language.
import type { IncomingLimit } from './flood-control.js';
import type { Rule, Schedule } from '../generated/rules-schema.js';
import type { SourcePosition } from '../diagnostics/problem.js';
import { compileLocalized, isPerLanguage, type LanguageSettings, type LocalizedTemplates } from './languages.js';
import { compileInlineKeyboard, compileReplyKeyboard, type KeyboardProblemSink } from './keyboards.js';
import { markupProblem } from './compile-actions.js';
import { compileMedia, UNREAD_MEDIA, type MediaLookup } from './compile-media.js';
import type { ParseMode } from './reply.js';
import type { CompiledMessage } from './rule-set.js';
import type { Template, TemplateContext } from './template.js';
import type { SuggestSettings } from './suggestions.js';
import type { TimeSettings } from './time-settings.js';

/** What the rule files declare once for the whole rule set. */
export interface RuleSetSettings {
  readonly languages?: LanguageSettings;
  /** Groups of words that mean the same. */
  readonly synonyms?: readonly (readonly string[])[];
  /** The default of every rule's `fuzzy`. */
  readonly fuzzy?: 'auto' | 'off';
  /** The default of every rule's `forms`. */
  readonly forms?: 'auto' | 'off';
  /** `suggest:` — when unsure, ask. */
  readonly suggest?: SuggestSettings;
  /** `limits.incoming`: flood control. */
  readonly incomingLimit?: IncomingLimit;
  /** How the files rules send are found (the rule loader reads them before compiling); paths are taken unread without it. */
  readonly media?: MediaLookup;
  /** `timezone:` and `hours:` (UTC and no opening hours when absent); the languages are added by the compiler. */
  readonly time?: TimeSettings;
  /** `schedules:` as written, with a way to place its problems (its paths start at the list). */
  readonly schedules?: { readonly list: readonly Schedule[]; readonly locate: (path: readonly (string | number)[]) => SourcePosition };
  /** What the configuration declares for the rules to name; checked when known (the service, `hearsay check` with a config). */
  readonly environment?: RuleEnvironment;
  /** `handoff_end`: what a user handed back to the bot by staff is told. */
  readonly handoffEnd?: Template;
}

/** The names the configuration (hearsay.yaml) declares that rules may use. */
export interface RuleEnvironment {
  /** `chats:` — where `send: { to: NAME }` may go. */
  readonly chats: ReadonlySet<string>;
  /** `backends:` — what `call: { backend: NAME }` and `notify: { backend: NAME }` may name (none when absent). */
  readonly backends?: ReadonlySet<string>;
  /** Whether the configuration has a `handoff:` block (a rule's `handoff` needs one). */
  readonly handoff?: boolean;
  /** The configuration file they come from, for the message; null when none was read. */
  readonly configFile: string | null;
}

export interface RuleTexts {
  /** The reply's alternatives in the default language (empty with `messages`). */
  readonly replies: readonly Template[];
  readonly localizedReplies?: LocalizedTemplates;
  readonly messages?: readonly CompiledMessage[];
}

type Report = (path: (string | number)[], message: string, severity?: 'error' | 'warning') => void;

/** `reply: none`: the rule answers nothing on purpose. */
export const SILENT_REPLY = 'none';

/** The 4096-character limit of one message: a longer static text is sent in several. */
const MAX_MESSAGE = 4096;

/** Compiles the rule's `reply` or `messages`, reporting every problem at its path inside the rule. */
export function compileRuleTexts(
  rule: Rule,
  context: TemplateContext,
  languages: LanguageSettings | undefined,
  name: string,
  report: Report,
  mediaLookup?: MediaLookup,
): RuleTexts {
  if (rule.messages !== undefined) {
    if (rule.reply !== undefined) report(['messages'], `${name} has both reply and messages: give one (messages sends each of its entries in order)`);
    const messages: CompiledMessage[] = [];
    for (const [i, entry] of rule.messages.entries()) {
      const item = typeof entry === 'string' ? { reply: entry } : entry;
      const base = typeof entry === 'string' ? ['messages', i] : ['messages', i, 'reply'];
      const texts = item.reply === undefined ? null : localized(item.reply, base, context, languages, `message ${i + 1} of ${name}`, report);
      if (texts && item.parse_mode) checkMarkup(texts, item.reply!, base, item.parse_mode, `message ${i + 1}`, name, report);
      const media = compileMedia(item, context, {
        name: `message ${i + 1} of ${name}`,
        report: (path, message, severity) => report(['messages', i, ...path], message, severity),
        lookup: mediaLookup ?? UNREAD_MEDIA,
        parseMode: item.parse_mode,
      });
      const at =
        (key: string): KeyboardProblemSink =>
        (path, message, severity) =>
          report(['messages', i, key, ...path], message, severity);
      const buttons = 'buttons' in item && item.buttons ? compileInlineKeyboard(item.buttons, context, `message ${i + 1} of ${name}`, at('buttons')) : null;
      const keyboard = 'keyboard' in item && item.keyboard ? compileReplyKeyboard(item.keyboard, context, `message ${i + 1} of ${name}`, at('keyboard')) : null;
      if ('buttons' in item && item.buttons && 'keyboard' in item && item.keyboard)
        report(['messages', i, 'keyboard'], `message ${i + 1} of ${name} has both \`buttons\` and \`keyboard\`, but a message carries one of them: keep one`);
      if (media?.media.kind === 'album' && (buttons || keyboard) && !texts)
        report(
          ['messages', i, buttons ? 'buttons' : 'keyboard'],
          `message ${i + 1} of ${name} is an album, which carries no buttons or keyboard: give it a reply to carry them`,
        );
      if (texts === undefined || media === undefined || buttons === undefined || keyboard === undefined) continue;
      messages.push(
        Object.freeze({
          texts,
          media,
          buttons,
          keyboard,
          ...(item.parse_mode ? { parseMode: item.parse_mode } : {}),
          replyToMessage: item.reply_to_message === true,
          disableNotification: item.disable_notification === true,
        }),
      );
    }
    return { replies: Object.freeze([]), messages: Object.freeze(messages) };
  }
  // No reply (a rule that only sends, forwards or copies) or `reply: none`: the rule is silent on purpose.
  if (rule.reply === undefined || rule.reply === SILENT_REPLY) return { replies: Object.freeze([]) };
  const texts = localized(rule.reply, ['reply'], context, languages, `the reply of ${name}`, report);
  if (!texts) return { replies: Object.freeze([]) };
  if (rule.parse_mode) checkMarkup(texts, rule.reply, ['reply'], rule.parse_mode, 'the reply', name, report);
  return { replies: Object.freeze([...texts.fallback]), ...(texts.byLanguage ? { localizedReplies: texts } : {}) };
}

/**
 * Reports each text (every alternative, in every language) whose markup the service would refuse under
 * `parseMode`, at its own path: what `markupProblem` finds, so no send ever fails with "can't parse entities".
 */
function checkMarkup(
  texts: LocalizedTemplates,
  source: NonNullable<Rule['reply']>,
  base: (string | number)[],
  parseMode: ParseMode,
  what: string,
  name: string,
  report: Report,
): void {
  const check = (templates: readonly Template[], shape: unknown, at: (string | number)[], language?: string) => {
    const list = Array.isArray(shape);
    templates.forEach((template, i) => {
      const problem = markupProblem(template, parseMode);
      if (problem === undefined) return;
      const label = `${language ? `the '${language}' text of ` : ''}${list && templates.length > 1 ? `${what.replace(/^the /, '')} alternative #${i + 1}` : what}`;
      report(list ? [...at, i] : at, `the service would refuse ${label} of ${name} (parse_mode ${parseMode}): can't parse entities: ${problem}`);
    });
  };
  if (!texts.byLanguage || !isPerLanguage(source)) return check(texts.fallback, source, base);
  for (const [language, templates] of texts.byLanguage) check(templates, source[language], [...base, language], language);
}

function localized(
  source: NonNullable<Rule['reply']>,
  base: (string | number)[],
  context: TemplateContext,
  languages: LanguageSettings | undefined,
  what: string,
  report: Report,
): LocalizedTemplates | undefined {
  const texts = compileLocalized(source, context, languages, what, {
    error: (path, message) => report([...base, ...path], message),
    warning: (path, message) => report([...base, ...path], message, 'warning'),
  });
  for (const template of [...(texts?.fallback ?? []), ...[...(texts?.byLanguage?.values() ?? [])].flat()]) {
    if (template.isStatic && template.source.length > MAX_MESSAGE) {
      report(
        base,
        `${what} is ${template.source.length} characters; the service refuses more than ${MAX_MESSAGE}, so it will be sent in several messages`,
        'warning',
      );
    }
  }
  return texts;
}

/** Every keyword of a rule with its path under `keywords`: a list, or lists per language (all of them match). */
export function keywordSources(keywords: NonNullable<Rule['keywords']>): { keyword: string; path: (string | number)[] }[] {
  if (!isPerLanguage(keywords)) return keywords.map((keyword, i) => ({ keyword, path: [i] }));
  return Object.entries(keywords).flatMap(([language, list]) => (list ?? []).map((keyword, i) => ({ keyword, path: [language, i] })));
}
