// What to write instead of a value of the wrong type, for schema messages that say what was given and what
// is wanted: `keywords: thanks` → "must be a list: write [thanks]", `text: 42` → "must be a text: write "42"".

/** A YAML flow scalar for `text`: plain when YAML reads it back as that text, else double-quoted. */
function flowScalar(text: string): string {
  const plain = /^[\p{L}\p{N}_][\p{L}\p{N}_ .'!?-]*$/u.test(text) && !/^(true|false|null|yes|no|on|off|~|[-+]?\d[\d_.]*)$/i.test(text.trim());
  return plain && text.trim() === text ? text : JSON.stringify(text);
}

/** The value as a one-item YAML list: `[thanks]`, `["money back, please"]`; a placeholder list for anything else. */
export function asListHint(value: unknown): string {
  if (typeof value === 'string' && value !== '') return `[${flowScalar(value)}]`;
  if (typeof value === 'number' || typeof value === 'boolean') return `["${String(value)}"]`;
  return '[a, b]';
}

/** The value as a YAML text: `"42"` for a number or a boolean, which YAML would otherwise read as such. */
export function asTextHint(value: unknown): string | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return `"${String(value)}"`;
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') return JSON.stringify(value[0]);
  return undefined;
}
