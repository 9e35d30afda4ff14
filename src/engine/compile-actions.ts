// Compiles what a rule does besides its reply: `buttons`, `keyboard`, and for a button press `answer`,
// `alert` and `edit`; checks that they fit together and the trigger, and that the formatted texts (reply and
// edit with parse_mode) are markup the service parses, so it never answers 400 "can't parse entities".
import type { Rule } from '../generated/rules-schema.js';
import { parseHtml } from '../markup/html.js';
import { parseMarkdownV2 } from '../markup/markdown-v2.js';
import { EntityParseError } from '../markup/parsed-text.js';
import { compileInlineKeyboard, compileReplyKeyboard } from './keyboards.js';
import type { ParseMode } from './reply.js';
import type { CompiledRule } from './rule-set.js';
import { allTranslations, compileText, type TextSource } from './languages.js';
import type { Template, TemplateContext } from './template.js';

const MEDIA_KEYS = ['photo', 'document', 'video', 'audio', 'voice', 'animation', 'sticker', 'location', 'contact', 'album'] as const;

/** The longest notification answerCallbackQuery takes, and the longest text a message (or an edit) may have. */
export const MAX_ANSWER_LENGTH = 200;
const MAX_TEXT_LENGTH = 4096;

/** Reports a problem at a path inside the rule. */
export type RuleProblemSink = (path: (string | number)[], message: string, severity?: 'error' | 'warning') => void;

type RuleActions = Pick<CompiledRule, 'buttons' | 'keyboard' | 'answer' | 'alert' | 'edit'>;

/**
 * Why the service would refuse `template` sent with `parseMode`, in its words after "can't parse entities: ",
 * or undefined when it parses. Each placeholder stands for a plain word: inserted values are escaped for the
 * mode, so only the template's own markup can be wrong.
 */
export function markupProblem(template: Template, parseMode: ParseMode): string | undefined {
  const text = template.parts.map((part) => (typeof part === 'string' ? part : 'x')).join('');
  const parse = parseMode === 'HTML' ? parseHtml : parseMarkdownV2;
  const problem = parseError(parse, text);
  if (problem === undefined || !problem.startsWith('Character ') || !template.isStatic) return problem;
  // The service names the character but not where it is: the shortest start of the text that fails the same way ends with it.
  let low = 1;
  let high = text.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (parseError(parse, text.slice(0, mid)) === problem) high = mid;
    else low = mid + 1;
  }
  return `${problem} (character ${low} of the text: ${JSON.stringify(text.slice(Math.max(0, low - 12), low + 8))})`;
}

function parseError(parse: (text: string) => unknown, text: string): string | undefined {
  try {
    parse(text);
    return undefined;
  } catch (error) {
    if (error instanceof EntityParseError) return error.message;
    throw error;
  }
}

/** Compiles the rule's keyboards, answer and edit; undefined when one of their templates is broken (reported). */
export function compileRuleActions(rule: Rule, context: TemplateContext, name: string, report: RuleProblemSink): RuleActions | undefined {
  const isCallback = rule.callback !== undefined;
  let ok = true;
  for (const key of ['answer', 'alert', 'edit'] as const) {
    if (rule[key] !== undefined && !isCallback)
      report([key], `\`${key}\` is for button presses, but ${name} answers messages: give it a \`callback:\` trigger, or remove \`${key}\``);
  }
  const template = (source: TextSource | undefined, key: string): Template | null => {
    if (source === undefined) return null;
    const result = compileText(source, context, `the ${key} of ${name}`, {
      error: (at, message) => report([key, ...at], message),
      warning: (at, message) => report([key, ...at], message, 'warning'),
    });
    if (!result) ok = false;
    return result ?? null;
  };
  const longest = (t: Template | null) => Math.max(0, ...(t ? allTranslations(t) : []).filter((x) => x.isStatic).map((x) => x.source.length));
  const answer = template(rule.answer, 'answer');
  if (longest(answer) > MAX_ANSWER_LENGTH)
    report(['answer'], `the answer of ${name} is ${longest(answer)} characters; the service shows at most ${MAX_ANSWER_LENGTH}`);
  if (rule.alert === true && rule.answer === undefined) report(['alert'], `\`alert\` in ${name} has no \`answer\` to show: add one`, 'warning');
  const edit = template(rule.edit, 'edit');
  if (longest(edit) > MAX_TEXT_LENGTH)
    report(['edit'], `the edit of ${name} is ${longest(edit)} characters; the service takes at most ${MAX_TEXT_LENGTH} in one message`);

  const buttons = rule.buttons
    ? compileInlineKeyboard(rule.buttons, context, name, (path, message, severity) => report(['buttons', ...path], message, severity))
    : null;
  const keyboard = rule.keyboard
    ? compileReplyKeyboard(rule.keyboard, context, name, (path, message, severity) => report(['keyboard', ...path], message, severity))
    : null;
  if (buttons === undefined || keyboard === undefined) ok = false;
  const media = MEDIA_KEYS.find((key) => rule[key] !== undefined);
  const hasReply = rule.reply !== undefined || rule.messages !== undefined || media !== undefined;
  if (media === 'album' && rule.reply === undefined && (rule.buttons || rule.keyboard) && rule.edit === undefined)
    report([rule.buttons ? 'buttons' : 'keyboard'], `${name} sends an album, which carries no buttons or keyboard: add a reply to carry them`);
  if (rule.buttons && rule.keyboard && rule.edit === undefined)
    report(
      ['keyboard'],
      `${name} has both \`buttons\` and \`keyboard\`, but a message carries one of them: keep one (with \`edit\`, the buttons go on the edited message)`,
    );
  if (rule.keyboard && !hasReply) report(['keyboard'], `a \`keyboard\` goes with a new message, and ${name} has no \`reply\`: add one`);
  if (rule.buttons && !hasReply && rule.edit === undefined) report(['buttons'], `the \`buttons\` of ${name} need a message: add a \`reply\` (or an \`edit\`)`);

  if (rule.parse_mode) {
    const mode = rule.parse_mode;
    const check = (t: Template | null, path: (string | number)[], what: string) => {
      const problem = t ? markupProblem(t, mode) : undefined;
      if (problem !== undefined) report(path, `the service would refuse ${what} of ${name} (parse_mode ${mode}): can't parse entities: ${problem}`);
    };
    // The reply's markup is checked where it is compiled (compile-reach.ts), in every language.
    if (edit) for (const t of allTranslations(edit)) check(t, edit.localized ? ['edit', languageOf(edit, t)] : ['edit'], 'the edit');
  }
  if (!ok) return undefined;
  return { buttons: buttons ?? null, keyboard: keyboard ?? null, answer, alert: rule.alert === true, edit };
}

/** The language of one of a localized template's translations. */
function languageOf(template: Template, translation: Template): string {
  for (const [language, t] of template.localized?.byLanguage ?? []) if (t === translation) return language;
  return '';
}
