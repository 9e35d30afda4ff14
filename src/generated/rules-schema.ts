// Generated from schemas/rules.schema.json by scripts/generate-schema-modules.mjs; do not edit.
// Edit the schema and run `npm run build`.

export const rulesSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://hearsay.dev/schemas/rules.schema.json",
  "title": "RuleFile",
  "description": "A hearsay rule file: a list of rules tried in order; the first match answers. Reference: docs/rules.md.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "rules"
  ],
  "properties": {
    "rules": {
      "description": "The rules of this file, tried in this order (files are tried in name order).",
      "type": "array",
      "items": {
        "$ref": "#/$defs/rule"
      }
    }
  },
  "$defs": {
    "rule": {
      "title": "Rule",
      "description": "One rule: an id, exactly one trigger (command, text, pattern, keywords or fallback) and a reply.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "id",
        "reply"
      ],
      "oneOf": [
        {
          "required": [
            "command"
          ]
        },
        {
          "required": [
            "text"
          ]
        },
        {
          "required": [
            "pattern"
          ]
        },
        {
          "required": [
            "keywords"
          ]
        },
        {
          "required": [
            "fallback"
          ]
        }
      ],
      "properties": {
        "id": {
          "description": "A name unique across all rule files (letters, digits, '_', '-', '.'); shown in logs and metrics.",
          "type": "string",
          "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
        },
        "command": {
          "description": "Trigger: a command name without the slash, e.g. 'start' answers /start, /start@yourbot and /start with arguments.",
          "type": "string",
          "pattern": "^[A-Za-z0-9_]{1,32}$"
        },
        "text": {
          "description": "Trigger: the whole message, compared after normalisation (case-insensitive unless case_sensitive).",
          "type": "string",
          "minLength": 1
        },
        "pattern": {
          "description": "Trigger: a regular expression in RE2 syntax (linear time), searched anywhere in the message; named groups (?<name>...) fill {{match.name}}.",
          "type": "string",
          "minLength": 1
        },
        "keywords": {
          "description": "Trigger: any of these words or phrases, as whole words (Unicode letters and digits mark word edges).",
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "minLength": 1
          }
        },
        "fallback": {
          "description": "Trigger: answers only when no other rule matched.",
          "const": true
        },
        "reply": {
          "title": "Reply",
          "description": "The text to send, or a list of alternatives of which one is picked at random. Placeholders: {{user.first_name}}, {{text}}, {{args}}, {{match.1}} ... (see docs/rules.md).",
          "anyOf": [
            {
              "type": "string",
              "minLength": 1
            },
            {
              "type": "array",
              "minItems": 1,
              "items": {
                "type": "string",
                "minLength": 1
              }
            }
          ]
        },
        "chat_types": {
          "description": "Condition: answer only in these kinds of chat.",
          "type": "array",
          "minItems": 1,
          "uniqueItems": true,
          "items": {
            "title": "ChatType",
            "enum": [
              "private",
              "group",
              "supergroup",
              "channel"
            ]
          }
        },
        "chats": {
          "description": "Condition: answer only in these chats (chat ids; groups are negative).",
          "type": "array",
          "minItems": 1,
          "uniqueItems": true,
          "items": {
            "type": "integer"
          }
        },
        "case_sensitive": {
          "description": "Compare text, keywords and pattern with case (default false). Commands always ignore case.",
          "type": "boolean"
        },
        "parse_mode": {
          "title": "ParseMode",
          "description": "Send the reply as HTML or MarkdownV2; inserted values are escaped. Default: plain text.",
          "enum": [
            "HTML",
            "MarkdownV2"
          ]
        },
        "reply_to_message": {
          "description": "Send the answer as a reply to the triggering message.",
          "type": "boolean"
        },
        "disable_notification": {
          "description": "Send the answer silently.",
          "type": "boolean"
        },
        "examples": {
          "description": "Sample messages that must reach this rule; `hearsay check` warns when an earlier rule catches one.",
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "minLength": 1
          }
        }
      }
    }
  }
} as const;

/**
 * One rule: an id, exactly one trigger (command, text, pattern, keywords or fallback) and a reply.
 */
export type Rule = Rule1 & Rule2;
export type Rule1 = {
  [k: string]: unknown | undefined;
};
/**
 * The text to send, or a list of alternatives of which one is picked at random. Placeholders: {{user.first_name}}, {{text}}, {{args}}, {{match.1}} ... (see docs/rules.md).
 */
export type Reply = string | [string, ...string[]];
export type ChatType = "private" | "group" | "supergroup" | "channel";
/**
 * Send the reply as HTML or MarkdownV2; inserted values are escaped. Default: plain text.
 */
export type ParseMode = "HTML" | "MarkdownV2";

/**
 * A hearsay rule file: a list of rules tried in order; the first match answers. Reference: docs/rules.md.
 */
export interface RuleFile {
  /**
   * The rules of this file, tried in this order (files are tried in name order).
   */
  rules: Rule[];
}
export interface Rule2 {
  /**
   * A name unique across all rule files (letters, digits, '_', '-', '.'); shown in logs and metrics.
   */
  id: string;
  /**
   * Trigger: a command name without the slash, e.g. 'start' answers /start, /start@yourbot and /start with arguments.
   */
  command?: string;
  /**
   * Trigger: the whole message, compared after normalisation (case-insensitive unless case_sensitive).
   */
  text?: string;
  /**
   * Trigger: a regular expression in RE2 syntax (linear time), searched anywhere in the message; named groups (?<name>...) fill {{match.name}}.
   */
  pattern?: string;
  /**
   * Trigger: any of these words or phrases, as whole words (Unicode letters and digits mark word edges).
   *
   * @minItems 1
   */
  keywords?: [string, ...string[]];
  /**
   * Trigger: answers only when no other rule matched.
   */
  fallback?: true;
  reply: Reply;
  /**
   * Condition: answer only in these kinds of chat.
   *
   * @minItems 1
   */
  chat_types?: [ChatType, ...ChatType[]];
  /**
   * Condition: answer only in these chats (chat ids; groups are negative).
   *
   * @minItems 1
   */
  chats?: [number, ...number[]];
  /**
   * Compare text, keywords and pattern with case (default false). Commands always ignore case.
   */
  case_sensitive?: boolean;
  parse_mode?: ParseMode;
  /**
   * Send the answer as a reply to the triggering message.
   */
  reply_to_message?: boolean;
  /**
   * Send the answer silently.
   */
  disable_notification?: boolean;
  /**
   * Sample messages that must reach this rule; `hearsay check` warns when an earlier rule catches one.
   *
   * @minItems 1
   */
  examples?: [string, ...string[]];
}
