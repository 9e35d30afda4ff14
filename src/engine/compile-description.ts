// A command rule's `description`: its line in the app's "/" command menu (see service/command-menu.ts). Checked
// here for what the service would refuse (setMyCommands: a command of a-z, 0-9 and _, 1 to 32 long; a description
// of 1 to 256 characters), so `check` reports it with its position instead of the bot failing to set its menu.
import type { Rule } from '../generated/rules-schema.js';
import type { RuleProblemSink } from './compile-actions.js';
import type { LanguageSettings } from './languages.js';

/** The most characters the service takes in a command's description. */
export const MAX_DESCRIPTION = 256;

/** A command's description: one text for every language, or one per language. */
export type CommandDescription = string | Readonly<Record<string, string>>;

/** The rule's description, or undefined (none, or a problem reported through `report`). */
export function compileDescription(rule: Rule, name: string, report: RuleProblemSink, languages: LanguageSettings | undefined): CommandDescription | undefined {
  if (rule.description === undefined) return undefined;
  // The schema's per-language map allows undefined values only in its type.
  const description: CommandDescription =
    typeof rule.description === 'string'
      ? rule.description
      : Object.fromEntries(Object.entries(rule.description).filter((entry): entry is [string, string] => entry[1] !== undefined));
  if (rule.command === undefined) {
    report(['description'], `description is the line of a command in the / menu; ${name} has no command: remove it`);
    return undefined;
  }
  if (rule.command !== rule.command.toLowerCase()) {
    report(['command'], `the service's command menu takes commands of lowercase letters, digits and _ only: write command: ${rule.command.toLowerCase()}`);
    return undefined;
  }
  const texts: Array<[string[], string]> =
    typeof description === 'string' ? [[[], description]] : Object.entries(description).map(([code, text]) => [[code], text]);
  let fine = true;
  for (const [path, text] of texts) {
    if ([...text].length > MAX_DESCRIPTION) {
      report(['description', ...path], `the description of /${rule.command} has ${[...text].length} characters; the service takes at most ${MAX_DESCRIPTION}`);
      fine = false;
    }
  }
  if (typeof description !== 'string' && !languages) {
    report(
      ['description'],
      `the description of /${rule.command} is given per language, but no file declares the languages: add languages: { default: en, supported: [...] }`,
    );
    return undefined;
  }
  if (typeof description !== 'string' && languages && !languages.unchecked) {
    for (const code of Object.keys(description)) {
      if (!languages.supported.includes(code)) {
        report(
          ['description', code],
          `the description of /${rule.command} is given for '${code}', which languages does not list (supported: ${languages.supported.join(', ')})`,
        );
        fine = false;
      }
    }
  }
  return fine ? description : undefined;
}
