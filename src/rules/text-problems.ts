// Schema messages for a text that may be given per language (a button's text, a press's answer, an edit,
// a keyboard label, a flow's question or reply): what exactly is wrong, named by its field.

/** A value as a message names it: `a list`, `a mapping`, `text "x"`, `number 5`, `empty (null)`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'empty (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `text ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}

const LANGUAGE_CODE = /^[a-z]{2,3}$/;

/** What is wrong with `value` as the text `field` of `owner` (e.g. 'buttons[0][1].text', "rule 'poll'"). */
export function localizedTextProblem(value: unknown, field: string, owner: string): string {
  if (value === '') return `'${field}' in ${owner} must not be empty`;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const [language, text] = Object.entries(value).find(([k, v]) => !LANGUAGE_CODE.test(k) || typeof v !== 'string' || v === '') ?? [];
    if (language === undefined) return `'${field}' in ${owner} names no language: give a text, or one per language like { en: "Yes", de: "Ja" }`;
    if (!LANGUAGE_CODE.test(language))
      return `'${field}' in ${owner} has '${language}', which is not a language code (two or three lowercase letters, like en)`;
    return `'${field}.${language}' in ${owner} ${text === '' ? 'must not be empty' : `must be a text, not ${describeValue(text)}`}`;
  }
  return `'${field}' in ${owner} must be a text, or one per language like { en: "Yes", de: "Ja" }, not ${describeValue(value)}`;
}
