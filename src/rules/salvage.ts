// What can still be checked in a rule that failed the schema: when its trigger and reply are of the right
// shape, its pattern and templates are compiled too, so one `hearsay check` reports all of its mistakes
// (a typo in one key should not hide an invalid regex or a wrong placeholder in the same rule).
import type { Rule } from '../generated/rules-schema.js';

const isString = (value: unknown): value is string => typeof value === 'string';
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.length > 0 && value.every(isString);

/** A schema-valid stand-in holding only the rule's checkable parts, or undefined when its shape is unclear. */
export function salvageRule(raw: unknown, index: number): Rule | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const rule = raw as Record<string, unknown>;
  // Without a usable reply the trigger can still be checked; a plain stand-in text adds no problem of its own.
  const reply = isString(rule['reply']) || isStringList(rule['reply']) ? rule['reply'] : '-';
  const triggers = (['command', 'text', 'pattern', 'keywords', 'fallback', 'callback'] as const).filter((key) => rule[key] !== undefined);
  // With no trigger or several, which placeholders a reply may use is unknown: judging it would guess.
  if (triggers.length !== 1) return undefined;
  const kind = triggers[0]!;
  const value = rule[kind];
  const base = {
    id: isString(rule['id']) ? rule['id'] : `#${index + 1}`,
    reply,
    ...(rule['case_sensitive'] === true ? { case_sensitive: true } : {}),
  };
  switch (kind) {
    case 'command':
      // The name itself may be what the schema refused (`/start`); a command rule's placeholders do not depend on it.
      return isString(value) ? ({ ...base, command: 'command' } as Rule) : undefined;
    case 'text':
    case 'pattern':
    case 'callback':
      return isString(value) ? ({ ...base, [kind]: value } as Rule) : undefined;
    case 'keywords':
      return isStringList(value) ? ({ ...base, keywords: value } as Rule) : undefined;
    case 'fallback':
      return value === true ? ({ ...base, fallback: true } as Rule) : undefined;
  }
}
