// Turns Ajv errors on the config schema into messages that name the setting and say what to write.
// Values of secret settings are never echoed back.
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { nearest } from '../diagnostics/suggest.js';
import { validate } from '../generated/config-validator.js';

/**
 * The config schema's validator, generated at build time (compiling the schema at every start cost more than the
 * rest of the start-up). A config file is checked against it whole; one value from the environment or a flag is
 * checked by placing it alone in an otherwise empty document.
 */
export const validateConfigDocument: ValidateFunction = validate;

/** The schema's messages for one setting's value (`polling.timeout` = 99), each naming the setting. */
export function settingValueMessages(key: string, value: unknown): string[] {
  const document: Record<string, unknown> = {};
  const parts = key.split('.');
  let node = document;
  for (const part of parts.slice(0, -1)) node = node[part] = {} as Record<string, unknown>;
  node[parts.at(-1)!] = value;
  if (validateConfigDocument(document)) return [];
  return (validateConfigDocument.errors ?? []).map((error) => describeSchemaError(error, value, key).message);
}

const SECRET_SETTINGS = new Set(['webhook.secret']);

const PATTERN_HINTS: Record<string, string> = {
  base_url: 'must be an http:// or https:// URL, such as https://api.telegram.org',
  'webhook.url': 'must be an http:// or https:// URL, such as https://bot.example.com',
  'webhook.secret': 'must be 1 to 256 characters of A-Z a-z 0-9 _ -',
  'webhook.path': 'must start with / and contain only letters, digits and . _ ~ / -',
};

export interface DescribedError {
  /** JSON pointer to report the position of. */
  pointer: string;
  /** Report the key's position rather than the value's (unknown keys). */
  atKey: boolean;
  setting: string;
  message: string;
}

function pointerToSetting(pointer: string): string {
  return pointer.split('/').filter(Boolean).join('.');
}

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const segment of pointer.split('/').filter(Boolean)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/** Describes one Ajv error; `data` is the validated value (for "got …"). */
export function describeSchemaError(error: ErrorObject, data: unknown, settingPrefix = ''): DescribedError {
  const pointer = error.instancePath;
  const setting = settingPrefix || pointerToSetting(pointer) || '(top level)';
  const secret = SECRET_SETTINGS.has(setting);
  const got = secret ? '' : ` (got ${show(settingPrefix ? data : valueAt(data, pointer))})`;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const keyPointer = `${pointer}/${key}`;
      const fullKey = pointerToSetting(keyPointer);
      if (key === 'token' || key === 'bot_token') {
        return {
          pointer: keyPointer,
          atKey: true,
          setting: fullKey,
          message: `the bot token is never read from the config file; remove '${key}' and set BOT_TOKEN or BOT_TOKEN_FILE in the environment`,
        };
      }
      const allowed = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
      const suggestion = nearest(key, allowed);
      const where = pointer ? ` in '${pointerToSetting(pointer)}'` : '';
      const hint = suggestion ? `; did you mean '${suggestion}'?` : `; known keys: ${allowed.join(', ')}`;
      return { pointer: keyPointer, atKey: true, setting: fullKey, message: `unknown key '${key}'${where}${hint}` };
    }
    case 'type': {
      const type = String((error.params as { type: string }).type);
      const article = type === 'integer' || type === 'object' ? 'an' : 'a';
      const noun = type === 'object' ? 'mapping' : type;
      return { pointer, atKey: false, setting, message: `${setting} must be ${article === 'an' && noun === 'mapping' ? 'a' : article} ${noun}${got}` };
    }
    case 'enum': {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ');
      return { pointer, atKey: false, setting, message: `${setting} must be one of: ${allowed}${got}` };
    }
    case 'minimum':
    case 'maximum': {
      const limit = (error.params as { limit: number }).limit;
      const word = error.keyword === 'minimum' ? 'at least' : 'at most';
      return { pointer, atKey: false, setting, message: `${setting} must be ${word} ${limit}${got}` };
    }
    case 'minLength':
      return { pointer, atKey: false, setting, message: `${setting} must not be empty` };
    case 'pattern':
      return {
        pointer,
        atKey: false,
        setting,
        message: `${setting} ${PATTERN_HINTS[setting] ?? `must match ${String((error.params as { pattern: string }).pattern)}`}${got}`,
      };
    default:
      return { pointer, atKey: false, setting, message: `${setting} ${error.message ?? 'is invalid'}` };
  }
}
