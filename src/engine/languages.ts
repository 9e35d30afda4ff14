// Replies by the user's language: the `languages` block of the rule files, the language a user gets (their
// stored choice, else their client's language_code without its region, else the default), and texts given
// per language (`reply: { en: …, de: … }`) compiled into one set of alternatives per language.
import type { User } from '@grammyjs/types';
import type { StateValue } from './state.js';
import { compileTemplate, type Template, type TemplateContext } from './template.js';

/** The `languages` block: the default language, every supported one, and the user variable holding a choice. */
export interface LanguageSettings {
  readonly default: string;
  readonly supported: readonly string[];
  /** The name of the user variable that holds the user's own choice (`language`: `set: { user.language: de }`). */
  readonly variable: string;
  /**
   * Set when the `languages` block is declared but broken (its one problem is reported where it is): texts
   * given per language are still compiled, but not judged against languages nobody can know.
   */
  readonly unchecked?: boolean;
}

/** The variable a user's language choice is stored in unless `languages.variable` names another. */
export const DEFAULT_LANGUAGE_VARIABLE = 'language';

/** A text given once for everyone, or per language. */
export type LocalizedSource<T> = T | { readonly [language: string]: T | undefined };

/** Texts compiled for every language: `fallback` is the default language's (or the only one). */
export interface LocalizedTemplates {
  readonly fallback: readonly Template[];
  /** Per language, when the text was given per language. */
  readonly byLanguage?: ReadonlyMap<string, readonly Template[]>;
}

/** `de-AT` → `de`: Telegram sends an IETF tag; rules name languages by their primary subtag. */
export function primaryLanguage(code: string | undefined): string | undefined {
  if (!code) return undefined;
  const primary = code.split(/[-_]/)[0]!.toLowerCase();
  return primary === '' ? undefined : primary;
}

/**
 * The language a user is answered in: their choice (the user variable) when it is supported, else their
 * client's language when supported, else the default. Undefined when the rules declare no languages.
 */
export function resolveLanguage(
  settings: LanguageSettings | undefined,
  from: Pick<User, 'language_code'> | undefined,
  userVars: Readonly<Record<string, StateValue>>,
): string | undefined {
  if (!settings) return undefined;
  const chosen = userVars[settings.variable];
  const choice = typeof chosen === 'string' ? primaryLanguage(chosen) : undefined;
  if (choice && settings.supported.includes(choice)) return choice;
  const client = primaryLanguage(from?.language_code);
  if (client && settings.supported.includes(client)) return client;
  return settings.default;
}

/** The alternatives for `language` (the default language's when it has no translation). */
export function templatesFor(texts: LocalizedTemplates, language: string | undefined): readonly Template[] {
  return (language !== undefined && texts.byLanguage?.get(language)) || texts.fallback;
}

/** Whether a value is given per language (an object of language → text) rather than once. */
export function isPerLanguage<T>(value: LocalizedSource<T>): value is { readonly [language: string]: T | undefined } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export interface LocalizeReport {
  /** An error at `path` (relative to the localized value). */
  error(path: (string | number)[], message: string): void;
  warning(path: (string | number)[], message: string): void;
}

/** A single text given once, or per language (`{ en: "Yes", de: "Ja" }`). */
export type TextSource = string | { readonly [language: string]: string | undefined };

/**
 * Compiles a single text given once or per language into one template: the default language's, carrying
 * its translations for render to pick from (see {@link compileLocalized} for what is checked). Undefined
 * when it cannot be compiled (reported).
 */
export function compileText(source: TextSource, context: TemplateContext, what: string, report: LocalizeReport): Template | undefined {
  let broken = false;
  const texts = compileLocalized(source, context, context.languages, what, {
    error: (path, message) => {
      broken = true;
      report.error(path, message);
    },
    warning: report.warning,
  });
  const main = texts?.fallback[0];
  if (broken || !main) return undefined;
  if (!texts.byLanguage) return main;
  const byLanguage = new Map([...texts.byLanguage].map(([language, templates]) => [language, templates[0]!]));
  return Object.freeze({ ...main, localized: Object.freeze({ settings: context.languages!, byLanguage }) });
}

/** The text in `language`: its translation, else the default language's text. */
export function translated(template: Template, language: string | undefined): Template {
  return (language !== undefined && template.localized?.byLanguage.get(language)) || template;
}

/** Every text of a template: the default language's and each translation (for checks of lengths and markup). */
export function allTranslations(template: Template): Template[] {
  return template.localized ? [...template.localized.byLanguage.values()] : [template];
}

/**
 * Compiles a text given once or per language (each a string or a list of alternatives). Per language needs
 * the `languages` block, names only supported languages and must include the default; a supported language
 * it leaves out falls back to the default, with a warning.
 */
export function compileLocalized(
  source: LocalizedSource<string | readonly string[]>,
  context: TemplateContext,
  languages: LanguageSettings | undefined,
  what: string,
  report: LocalizeReport,
): LocalizedTemplates | undefined {
  const compileAll = (value: string | readonly string[], path: (string | number)[]): Template[] => {
    const list = typeof value === 'string' ? [value] : value;
    const templates: Template[] = [];
    for (const [i, text] of list.entries()) {
      const result = compileTemplate(text, context);
      const at = typeof value === 'string' ? path : [...path, i];
      if (result.ok) templates.push(result.template);
      else for (const message of result.errors) report.error(at, `${message} (in ${what})`);
    }
    return templates;
  };
  if (!isPerLanguage(source)) return { fallback: compileAll(source, []) };
  if (!languages) {
    report.error([], `${what} is given per language, but no file declares the languages: add languages: { default: en, supported: [en, de] }`);
    return undefined;
  }
  const byLanguage = new Map<string, readonly Template[]>();
  if (languages.unchecked) {
    for (const [language, value] of Object.entries(source)) if (value !== undefined) byLanguage.set(language, compileAll(value, [language]));
    const first = byLanguage.values().next();
    return first.done ? undefined : { fallback: first.value, byLanguage };
  }
  for (const [language, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (!languages.supported.includes(language)) {
      report.error([language], `${what} has a text for '${language}', which is not among the supported languages (${languages.supported.join(', ')})`);
      continue;
    }
    byLanguage.set(language, compileAll(value, [language]));
  }
  const fallback = byLanguage.get(languages.default);
  if (!fallback) {
    report.error([], `${what} has no text in the default language '${languages.default}', which every missing translation falls back to`);
    return undefined;
  }
  const missing = languages.supported.filter((language) => !byLanguage.has(language));
  if (missing.length > 0) {
    report.warning(
      [],
      `${what} has no ${missing.map((m) => `'${m}'`).join(', ')} translation: users of ${missing.length === 1 ? 'that language' : 'those languages'} get the '${languages.default}' text`,
    );
  }
  return { fallback, byLanguage };
}

/** A text without placeholders, given once or per language: a choice's button label, a suggestion's label. */
export interface StaticText {
  /** The default language's text (or the only one). */
  readonly text: string;
  readonly byLanguage?: ReadonlyMap<string, string>;
}

/**
 * A text given once or per language, taken as written (no placeholders), checked as texts per language are:
 * the languages block must exist, languages must be supported, the default must be there (errors), and a
 * supported language left out gets the default's text (a warning). Undefined when it has errors.
 */
export function compileStaticText(source: TextSource, languages: LanguageSettings | undefined, what: string, report: LocalizeReport): StaticText | undefined {
  if (!isPerLanguage(source)) return { text: source };
  if (!languages) {
    report.error([], `${what} is given per language, but no file declares the languages: add languages: { default: en, supported: [en, de] }`);
    return undefined;
  }
  const byLanguage = new Map<string, string>();
  // A broken languages block has its own problem: the texts are taken as written, not judged against it.
  if (languages.unchecked) {
    for (const [language, text] of Object.entries(source)) if (text !== undefined) byLanguage.set(language, text);
    const first = byLanguage.values().next();
    return first.done ? undefined : { text: first.value, byLanguage };
  }
  for (const [language, text] of Object.entries(source)) {
    if (text === undefined) continue;
    if (languages.supported.includes(language)) byLanguage.set(language, text);
    else report.error([language], `${what} has a text for '${language}', which is not among the supported languages (${languages.supported.join(', ')})`);
  }
  const text = byLanguage.get(languages.default);
  if (text === undefined) {
    report.error([], `${what} has no text in the default language '${languages.default}', which every missing translation falls back to`);
    return undefined;
  }
  const missing = languages.supported.filter((language) => !byLanguage.has(language));
  if (missing.length > 0)
    report.warning([], `${what} has no ${missing.map((m) => `'${m}'`).join(', ')} translation: users of that language get the '${languages.default}' text`);
  return { text, byLanguage };
}

/** The static text in `language`: its translation, else the default language's. */
export function staticTextIn(text: StaticText, language: string | undefined): string {
  return (language !== undefined && text.byLanguage?.get(language)) || text.text;
}

/** Every language's version of a static text (each once). */
export function allStaticTexts(text: StaticText): string[] {
  return [...new Set([text.text, ...(text.byLanguage?.values() ?? [])])];
}
