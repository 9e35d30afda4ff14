// Generated from schemas/rules.schema.json by scripts/generate-schema-modules.mjs; do not edit.
// Edit the schema and run `npm run build`.

export const rulesSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://hearsay.dev/schemas/rules.schema.json",
  "title": "RuleFile",
  "description": "A hearsay rule file: a list of rules tried in order (the first match answers) and the flows (multi-step conversations) started by a trigger. Reference: docs/rules.md.",
  "type": "object",
  "additionalProperties": false,
  "anyOf": [
    {
      "required": [
        "rules"
      ]
    },
    {
      "required": [
        "flows"
      ]
    },
    {
      "required": [
        "languages"
      ]
    },
    {
      "required": [
        "synonyms"
      ]
    },
    {
      "required": [
        "fuzzy"
      ]
    },
    {
      "required": [
        "forms"
      ]
    },
    {
      "required": [
        "suggest"
      ]
    },
    {
      "required": [
        "handoff_end"
      ]
    },
    {
      "required": [
        "limits"
      ]
    },
    {
      "required": [
        "timezone"
      ]
    },
    {
      "required": [
        "hours"
      ]
    },
    {
      "required": [
        "schedules"
      ]
    }
  ],
  "properties": {
    "rules": {
      "description": "The rules of this file, tried in this order (files are tried in name order).",
      "type": "array",
      "items": {
        "$ref": "#/$defs/rule"
      }
    },
    "flows": {
      "description": "Multi-step conversations: each is started by a trigger, asks its steps in order and ends with `done`. Flow starts are tried after the rules of the same file.",
      "type": "array",
      "items": {
        "$ref": "#/$defs/flow"
      }
    },
    "languages": {
      "title": "Languages",
      "description": "The languages the bot answers in (declare once, in any file): a user gets their stored choice (the user variable `language` by default), else their client's language (de-AT counts as de), else the default.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "default",
        "supported"
      ],
      "properties": {
        "default": {
          "$ref": "#/$defs/languageCode"
        },
        "supported": {
          "type": "array",
          "minItems": 1,
          "uniqueItems": true,
          "items": {
            "$ref": "#/$defs/languageCode"
          }
        },
        "variable": {
          "description": "The user variable that holds a user's choice (default `language`, set with set: { user.language: de }).",
          "type": "string",
          "pattern": "^[A-Za-z_][A-Za-z0-9_]{0,63}$"
        }
      }
    },
    "synonyms": {
      "description": "Groups of words or phrases that mean the same for text, keyword and all triggers (declare once): [[shipping, delivery, postage], [giftcard, \"gift card\", gift-card]] makes each match where another is written.",
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "array",
        "minItems": 2,
        "uniqueItems": true,
        "items": {
          "type": "string",
          "minLength": 1,
          "pattern": "[\\p{L}\\p{M}\\p{N}]"
        }
      }
    },
    "fuzzy": {
      "description": "The default for every rule's fuzzy (declare once): auto lets text and keyword triggers match words with a typo.",
      "enum": [
        "auto",
        "off"
      ]
    },
    "forms": {
      "description": "The default for every rule's forms (declare once): auto lets text, keyword and all triggers match other forms of their words (orders, ordered for order; Bestellungen for Bestellung).",
      "enum": [
        "auto",
        "off"
      ]
    },
    "limits": {
      "title": "Limits",
      "description": "Limits of the whole rule set (declare once, in any file). incoming: flood control, per user and chat.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "incoming"
      ],
      "properties": {
        "incoming": {
          "title": "IncomingLimit",
          "description": "Flood control: a user's messages in one chat beyond per_user within per are not answered (still handled); the first one over the limit is answered by an `event: flooding` rule. Example: { per_user: 10, per: 1m }.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "per_user",
            "per"
          ],
          "properties": {
            "per_user": {
              "description": "How many messages of one user in one chat are answered within `per` (1 to 100).",
              "type": "integer",
              "minimum": 1,
              "maximum": 100
            },
            "per": {
              "description": "The window: a number and a unit, s, m, h or d (e.g. 10s, 1m, 1h).",
              "type": "string",
              "pattern": "^[0-9]{1,7}(s|m|h|d)$"
            }
          }
        }
      }
    },
    "suggest": {
      "title": "Suggest",
      "description": "When unsure, ask (declare once): a message no rule matches gets \"Did you mean:\" and buttons for the closest rules instead of the fallback straight away; a press answers as that rule would.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "when_unmatched": {
          "description": "true (the default): offer suggestions for a message no rule (other than a fallback) matches; false: never (the block stays, e.g. for `hearsay check`).",
          "type": "boolean"
        },
        "when_contested": {
          "description": "true: also ask when a rule matched by its keywords, but the message is closer (by the suggestions' similarity) to another rule that may be suggested; the rule that matched is one of the suggestions. false (the default): a rule that matches answers.",
          "type": "boolean"
        },
        "max": {
          "description": "At most this many suggestions (1 to 10, default 3).",
          "type": "integer",
          "minimum": 1,
          "maximum": 10
        },
        "text": {
          "description": "The question above the buttons, once or per language (default: \"Did you mean:\").",
          "$ref": "#/$defs/localizedString"
        },
        "none": {
          "description": "fallback: a last button \"None of these\" that answers with the fallback rule.",
          "enum": [
            "fallback"
          ]
        },
        "none_label": {
          "description": "The label of the \"None of these\" button, once or per language.",
          "$ref": "#/$defs/localizedString"
        }
      }
    },
    "handoff_end": {
      "description": "What a user is told when a hand-off to a person ends (a staff member wrote an end word, or the configuration's handoff idle time passed) and the bot answers again. Declared once, in any rule file.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "reply"
      ],
      "properties": {
        "reply": {
          "description": "The text (a template; per language: { en: ..., de: ... }).",
          "$ref": "#/$defs/localizedString"
        }
      }
    },
    "timezone": {
      "description": "The time zone every time in the rules is in (declare once, in any file): an IANA name such as Europe/Berlin. Default: UTC. Opening hours, {{now.*}}, the dates of date steps and reminders keep their wall-clock times across daylight saving time changes.",
      "type": "string",
      "minLength": 1
    },
    "hours": {
      "description": "Named opening hours (declare once, in any file): per weekday (mon … sun, a range such as mon-fri, a list such as sat,sun, or daily) a time range \"09:00-18:00\", a list of them, or closed; and `closed:` dates. Used by `open: NAME` and {{hours.NAME.next_open}} / {{hours.NAME.closes}}.",
      "type": "object",
      "minProperties": 1,
      "propertyNames": {
        "pattern": "^[A-Za-z][A-Za-z0-9_]{0,63}$"
      },
      "additionalProperties": {
        "$ref": "#/$defs/openingHours"
      }
    },
    "schedules": {
      "description": "Recurring messages to a chat (declare once, in any file): each occurrence is sent once, by one replica; one missed by more than late_after (the bot was down) is dropped and logged.",
      "type": "array",
      "minItems": 1,
      "items": {
        "$ref": "#/$defs/schedule"
      }
    }
  },
  "$defs": {
    "rule": {
      "title": "Rule",
      "description": "One rule: an id, exactly one trigger (command, text, pattern, keywords and/or all, fallback, event for a member joining or leaving, the bot's own status or a photo, file or place a user sends, media: any, or callback for a button press) and what to do: a reply, a photo or other media, or a sequence of messages, or a call to a backend whose `on` branches answer (and, for a button press, an answer and an edit).",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "id"
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
          ],
          "not": {
            "anyOf": [
              {
                "required": [
                  "event"
                ]
              },
              {
                "required": [
                  "media"
                ]
              }
            ]
          }
        },
        {
          "required": [
            "keywords"
          ],
          "not": {
            "anyOf": [
              {
                "required": [
                  "event"
                ]
              },
              {
                "required": [
                  "media"
                ]
              }
            ]
          }
        },
        {
          "required": [
            "all"
          ],
          "not": {
            "required": [
              "keywords"
            ]
          }
        },
        {
          "required": [
            "fallback"
          ]
        },
        {
          "required": [
            "callback"
          ]
        },
        {
          "required": [
            "event"
          ]
        },
        {
          "required": [
            "media"
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
          "description": "Trigger: any of these words or phrases, as whole words (Unicode letters and digits mark word edges); a list, or lists per language ({ en: [...], de: [...] }; every language's keywords match, the reply follows the user's language).",
          "anyOf": [
            {
              "type": "array",
              "minItems": 1,
              "items": {
                "type": "string",
                "minLength": 1
              }
            },
            {
              "type": "object",
              "minProperties": 1,
              "additionalProperties": false,
              "patternProperties": {
                "^[a-z]{2,3}$": {
                  "type": "array",
                  "minItems": 1,
                  "items": {
                    "type": "string",
                    "minLength": 1
                  }
                }
              }
            }
          ]
        },
        "fallback": {
          "description": "Trigger: answers only when no other rule matched.",
          "const": true
        },
        "callback": {
          "description": "Trigger: a button press whose callback data matches this regular expression (RE2 syntax, searched anywhere in the data; anchor with ^ and $); named groups (?<name>...) fill {{match.name}}. Such a rule answers presses only, never messages.",
          "type": "string",
          "minLength": 1
        },
        "reply": {
          "title": "Reply",
          "description": "The text to send (`none`: the rule answers nothing on purpose, e.g. when it only sets variables, sends, forwards or copies), a list of alternatives of which one is picked at random, or either per language ({ en: ..., de: ... }, see languages). Placeholders: {{user.first_name}}, {{text}}, {{args}}, {{match.1}} ... (see docs/rules.md).",
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
            },
            {
              "type": "object",
              "minProperties": 1,
              "additionalProperties": false,
              "patternProperties": {
                "^[a-z]{2,3}$": {
                  "$ref": "#/$defs/text"
                }
              }
            }
          ]
        },
        "buttons": {
          "$ref": "#/$defs/inlineKeyboard"
        },
        "keyboard": {
          "$ref": "#/$defs/replyKeyboard"
        },
        "answer": {
          "description": "For a callback rule: the notification shown to the user who pressed the button (answerCallbackQuery; at most 200 characters; a template). Every press is answered, with an empty answer when the rule has none. Per language: { en: ..., de: ... }.",
          "$ref": "#/$defs/localizedString"
        },
        "alert": {
          "description": "For a callback rule: show `answer` as a dialog the user must dismiss instead of a passing notification.",
          "type": "boolean"
        },
        "edit": {
          "description": "For a callback rule: the new text of the message that held the pressed button (a template, with the rule's parse_mode). The message keeps no buttons unless the rule gives `buttons`, which then go on the edited message. Per language: { en: ..., de: ... }.",
          "$ref": "#/$defs/localizedString"
        },
        "description": {
          "description": "For a command rule: its line in the app's / command menu, which hearsay sets at start and after a reload (setMyCommands; scoped to private chats or groups by chat_types). 1-256 characters; per language: { en: ..., de: ... }.",
          "$ref": "#/$defs/localizedString"
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
        "topics": {
          "description": "Condition: answer only messages in these forum topics (their message_thread_id, as {{message.topic}} shows it).",
          "type": "array",
          "minItems": 1,
          "uniqueItems": true,
          "items": {
            "type": "integer",
            "minimum": 1
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
        },
        "when": {
          "$ref": "#/$defs/conditions"
        },
        "set": {
          "$ref": "#/$defs/assignments"
        },
        "during_flows": {
          "description": "Also answer a user who is inside a flow, without leaving it (other rules wait until the flow ends). Default false.",
          "type": "boolean"
        },
        "messages": {
          "description": "Several messages sent in order, one after the other (unlike a list under reply, of which one is picked at random); each may have its own parse_mode, reply_to_message and disable_notification.",
          "type": "array",
          "minItems": 1,
          "maxItems": 10,
          "items": {
            "$ref": "#/$defs/message"
          }
        },
        "send": {
          "description": "Also send a message to another chat (a named chat of the configuration's `chats:`, e.g. staff, or a chat id): committed with the update and sent once, in order, after it; retried when the service is unavailable, given up (logged) when the chat refuses it. One, or a list.",
          "anyOf": [
            {
              "$ref": "#/$defs/send"
            },
            {
              "type": "array",
              "minItems": 1,
              "maxItems": 10,
              "items": {
                "$ref": "#/$defs/send"
              }
            }
          ]
        },
        "call": {
          "$ref": "#/$defs/call"
        },
        "on": {
          "$ref": "#/$defs/callBranches"
        },
        "notify": {
          "description": "Also notify a backend (an outbox request, retried until it is answered 2xx). One, or a list.",
          "anyOf": [
            {
              "$ref": "#/$defs/notify"
            },
            {
              "type": "array",
              "minItems": 1,
              "maxItems": 10,
              "items": {
                "$ref": "#/$defs/notify"
              }
            }
          ]
        },
        "forward": {
          "description": "Also forward the user's message itself to another chat (a named chat of the configuration's `chats:`, or a chat id): the copy shows who wrote it. Committed with the update and done once, in order, after it, like send. One chat or a list.",
          "$ref": "#/$defs/chatTargets"
        },
        "copy": {
          "description": "Also copy the user's message to another chat, without naming who wrote it (text, formatting and media as sent). Committed with the update and done once, in order, after it, like send. One chat or a list.",
          "$ref": "#/$defs/chatTargets"
        },
        "handoff": {
          "description": "true: hand the user to a person in the configuration's handoff chat (a topic of theirs in a staff forum group): from then on their messages go to staff and staff answers come back, and the bot says nothing to them except rules with during_handoff, until staff write an end word or the idle time passes. false: end the user's hand-off (e.g. a during_handoff /cancel rule). A rule with a call hands off from a branch of on instead (on: { error: { reply: ..., handoff: true } }).",
          "type": "boolean"
        },
        "during_handoff": {
          "description": "Also answer a user who is handed off to a person (other rules stay silent: the user's messages go to staff). Default false.",
          "type": "boolean"
        },
        "remind": {
          "$ref": "#/$defs/reminders"
        },
        "forget_reminder": {
          "$ref": "#/$defs/forgetReminder"
        },
        "event": {
          "description": "Trigger: a member joined the group (member_joined) or left it (member_left), where {{user.*}} is that member; a user blocked the bot (blocked) or unblocked it (unblocked) in their private chat; the bot was added to a group (bot_added) or removed from one (bot_removed); a user asked to join a group that approves new members (join_request: answer with approve or decline); an administrator restricted or banned a member (member_restricted); a user's first message over the flood limit (flooding: see limits.incoming); or a user sent a photo, document, video, voice message, audio file, sticker, location, contact or animation ({{message.caption}}, {{message.file_name}}, {{message.latitude}} ...), whose caption `keywords` or `pattern` given beside it must match.",
          "enum": [
            "member_joined",
            "member_left",
            "blocked",
            "unblocked",
            "bot_added",
            "bot_removed",
            "join_request",
            "member_restricted",
            "flooding",
            "photo",
            "document",
            "video",
            "voice",
            "audio",
            "sticker",
            "location",
            "contact",
            "animation"
          ]
        },
        "media": {
          "description": "Trigger: `any` answers a message with any photo, document, video, voice message, audio file, sticker, location, contact or animation (see event for one kind).",
          "enum": [
            "any"
          ]
        },
        "lang": {
          "description": "Condition: answer only users whose language (see languages) is one of these.",
          "type": "array",
          "minItems": 1,
          "uniqueItems": true,
          "items": {
            "$ref": "#/$defs/languageCode"
          }
        },
        "mentioned": {
          "description": "Condition: only messages that mention the bot (@its_username) or reply to one of its messages.",
          "type": "boolean"
        },
        "open": {
          "$ref": "#/$defs/openCondition"
        },
        "fuzzy": {
          "description": "For text, keyword and all triggers: also match words with a typo (one edit from 6 letters, two from 10, counting the letters of the trigger's word). `auto` on, `off` off; the default comes from the file's `fuzzy`.",
          "enum": [
            "auto",
            "off"
          ]
        },
        "all": {
          "description": "Trigger: every one of these words or phrases, in any order, anywhere in the message (whole words; synonyms, forms and fuzzy apply as for keywords); a list, or lists per language ({ en: [change, address], de: [Adresse, ändern] }: the words of any one language must all be there). Next to keywords, the rule answers either.",
          "anyOf": [
            {
              "type": "array",
              "minItems": 1,
              "items": {
                "type": "string",
                "minLength": 1
              }
            },
            {
              "type": "object",
              "minProperties": 1,
              "additionalProperties": false,
              "patternProperties": {
                "^[a-z]{2,3}$": {
                  "type": "array",
                  "minItems": 1,
                  "items": {
                    "type": "string",
                    "minLength": 1
                  }
                }
              }
            }
          ]
        },
        "forms": {
          "description": "For text, keyword and all triggers: also match other forms of their words by stem (English, German and the other languages docs/rules.md lists). `auto` on, `off` off; the default comes from the file's `forms`.",
          "enum": [
            "auto",
            "off"
          ]
        },
        "delete": {
          "description": "Moderation: delete the message that triggered the rule (the bot needs the admin right can_delete_messages in groups; messages older than 48 hours cannot be deleted).",
          "const": true
        },
        "restrict": {
          "description": "Moderation: mute the member who wrote (no messages of any kind) for a while ({ for: 1h }) or until unrestricted ({ until_changed: true }); supergroups only; needs can_restrict_members.",
          "type": "object",
          "additionalProperties": false,
          "minProperties": 1,
          "maxProperties": 1,
          "properties": {
            "for": {
              "description": "How long, e.g. 10m, 1h, 1d (the service treats under 30 seconds or over 366 days as for good).",
              "type": "string",
              "pattern": "^[1-9][0-9]*(s|m|h|d)$"
            },
            "until_changed": {
              "description": "Until a rule (unrestrict) or an administrator lifts it.",
              "const": true
            }
          }
        },
        "unrestrict": {
          "description": "Moderation: give the member who wrote every permission back; needs can_restrict_members.",
          "const": true
        },
        "ban": {
          "description": "Moderation: remove the member who wrote from the group and keep them out, for good (true) or for a while ({ for: 1d }); needs can_restrict_members.",
          "anyOf": [
            {
              "const": true
            },
            {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "for"
              ],
              "properties": {
                "for": {
                  "description": "How long, e.g. 1h, 7d (the service treats under 30 seconds or over 366 days as for good).",
                  "type": "string",
                  "pattern": "^[1-9][0-9]*(s|m|h|d)$"
                }
              }
            }
          ]
        },
        "unban": {
          "description": "Moderation: let the user back into the group (a member who is in it stays in it); supergroups only; needs can_restrict_members.",
          "const": true
        },
        "approve": {
          "description": "Moderation (event: join_request): let the user in; needs can_invite_users.",
          "const": true
        },
        "decline": {
          "description": "Moderation (event: join_request): turn the request down; needs can_invite_users.",
          "const": true
        },
        "pin": {
          "description": "Moderation: pin the rule's reply (reply), the message that triggered it (message), or true: the reply when there is one; needs can_pin_messages in groups.",
          "anyOf": [
            {
              "const": true
            },
            {
              "enum": [
                "reply",
                "message"
              ]
            }
          ]
        },
        "suggest": {
          "description": "false: never offer this rule as a suggestion (e.g. \"delete my account\"). Default: rules with a text, keywords or all trigger may be suggested.",
          "type": "boolean"
        },
        "label": {
          "description": "How this rule is named when it is suggested, once or per language (default: its first example, else its first keyword or text).",
          "$ref": "#/$defs/localizedString"
        },
        "photo": {
          "description": "Send a photo (JPEG, PNG, GIF, WebP; at most 10 MB): a file next to the rules (media/menu.jpg), an https:// URL, or a file_id; one per language ({ en: ..., de: ... }).",
          "$ref": "#/$defs/mediaFile"
        },
        "document": {
          "description": "Send a file as a document (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language ({ en: ..., de: ... }).",
          "$ref": "#/$defs/mediaFile"
        },
        "video": {
          "description": "Send a video (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "audio": {
          "description": "Send an audio file to play (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "voice": {
          "description": "Send a voice message (an .ogg OPUS file, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "animation": {
          "description": "Send an animation (a GIF or a silent MP4, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "sticker": {
          "description": "Send a sticker: a file_id (from a sticker sent to the bot) or a .webp file next to the rules; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "location": {
          "$ref": "#/$defs/location"
        },
        "contact": {
          "$ref": "#/$defs/contact"
        },
        "album": {
          "$ref": "#/$defs/album"
        },
        "caption": {
          "description": "The caption under a photo, document, video, audio, voice or animation (a template, at most 1024 characters, with the parse_mode given here). Per language: { en: ..., de: ... }.",
          "$ref": "#/$defs/localizedString"
        }
      },
      "if": {
        "required": [
          "callback"
        ]
      },
      "then": {
        "anyOf": [
          {
            "required": [
              "reply"
            ]
          },
          {
            "required": [
              "answer"
            ]
          },
          {
            "required": [
              "edit"
            ]
          },
          {
            "required": [
              "messages"
            ]
          },
          {
            "required": [
              "call"
            ]
          },
          {
            "required": [
              "photo"
            ]
          },
          {
            "required": [
              "document"
            ]
          },
          {
            "required": [
              "video"
            ]
          },
          {
            "required": [
              "audio"
            ]
          },
          {
            "required": [
              "voice"
            ]
          },
          {
            "required": [
              "animation"
            ]
          },
          {
            "required": [
              "sticker"
            ]
          },
          {
            "required": [
              "location"
            ]
          },
          {
            "required": [
              "contact"
            ]
          },
          {
            "required": [
              "album"
            ]
          }
        ]
      },
      "else": {
        "anyOf": [
          {
            "required": [
              "reply"
            ]
          },
          {
            "required": [
              "messages"
            ]
          },
          {
            "required": [
              "call"
            ]
          },
          {
            "required": [
              "notify"
            ]
          },
          {
            "required": [
              "delete"
            ]
          },
          {
            "required": [
              "restrict"
            ]
          },
          {
            "required": [
              "unrestrict"
            ]
          },
          {
            "required": [
              "ban"
            ]
          },
          {
            "required": [
              "unban"
            ]
          },
          {
            "required": [
              "approve"
            ]
          },
          {
            "required": [
              "decline"
            ]
          },
          {
            "required": [
              "pin"
            ]
          },
          {
            "required": [
              "send"
            ]
          },
          {
            "required": [
              "forward"
            ]
          },
          {
            "required": [
              "copy"
            ]
          },
          {
            "required": [
              "handoff"
            ]
          },
          {
            "required": [
              "photo"
            ]
          },
          {
            "required": [
              "document"
            ]
          },
          {
            "required": [
              "video"
            ]
          },
          {
            "required": [
              "audio"
            ]
          },
          {
            "required": [
              "voice"
            ]
          },
          {
            "required": [
              "animation"
            ]
          },
          {
            "required": [
              "sticker"
            ]
          },
          {
            "required": [
              "location"
            ]
          },
          {
            "required": [
              "contact"
            ]
          },
          {
            "required": [
              "album"
            ]
          }
        ]
      }
    },
    "variable": {
      "description": "A variable: user.NAME (this user, in every chat), chat.NAME (this chat, shared by its members), member.NAME (this user in this chat: member.messages and member.joined_at are kept by hearsay) or, inside a flow, flow.STEP (the answer to a step). Names: letters, digits, '_'; at most 64.",
      "type": "string",
      "pattern": "^(user|chat|member|flow)\\.[A-Za-z_][A-Za-z0-9_]{0,63}$"
    },
    "conditions": {
      "title": "Conditions",
      "description": "Condition on variables: every entry must hold. A value compares for equality (text without case, numbers as numbers); a mapping may use exists, equals, not, gt, gte, lt, lte. `handoff: true` holds while the user is handed off to a person. Example: { user.name: { exists: true }, chat.count: { gte: 3 } }.",
      "type": "object",
      "minProperties": 1,
      "propertyNames": {
        "anyOf": [
          {
            "$ref": "#/$defs/variable"
          },
          {
            "const": "handoff"
          }
        ]
      },
      "additionalProperties": {
        "$ref": "#/$defs/condition"
      },
      "properties": {
        "handoff": {
          "description": "true: only while the user is handed off to a person; false: only while they are not.",
          "type": "boolean"
        }
      }
    },
    "condition": {
      "title": "Condition",
      "anyOf": [
        {
          "$ref": "#/$defs/value"
        },
        {
          "type": "object",
          "additionalProperties": false,
          "minProperties": 1,
          "properties": {
            "exists": {
              "description": "true: the variable has a value; false: it has none.",
              "type": "boolean"
            },
            "equals": {
              "description": "Equal to this value (text without case, numbers as numbers).",
              "$ref": "#/$defs/value"
            },
            "not": {
              "description": "Not equal to this value (true also when the variable has no value).",
              "$ref": "#/$defs/value"
            },
            "gt": {
              "description": "A number greater than this.",
              "type": "number"
            },
            "gte": {
              "description": "A number greater than or equal to this.",
              "type": "number"
            },
            "lt": {
              "description": "A number less than this.",
              "type": "number"
            },
            "lte": {
              "description": "A number less than or equal to this.",
              "type": "number"
            },
            "after": {
              "description": "A date or time after this: today, tomorrow, yesterday, now, a date (YYYY-MM-DD) or a time (HH:MM); the variable holds a date (YYYY-MM-DD, as a date step keeps it) or a time (HH:MM).",
              "type": "string",
              "minLength": 1
            },
            "before": {
              "description": "A date or time before this (see after).",
              "type": "string",
              "minLength": 1
            }
          }
        }
      ]
    },
    "value": {
      "title": "Value",
      "description": "A text (at most 1024 characters) or a number.",
      "anyOf": [
        {
          "type": "string",
          "maxLength": 1024
        },
        {
          "type": "number"
        }
      ]
    },
    "assignments": {
      "title": "Assignments",
      "description": "Variables to change, applied before the reply is rendered: a text template (\"{{match.name}}\"), a number, { increment: N } (adds N; a missing value counts as 0; `expires: 1m` makes it a counter that starts again), { value: V, expires: 1d } (a value that is forgotten after a while) or { unset: true } (deletes it). Keys: user.NAME or chat.NAME.",
      "type": "object",
      "minProperties": 1,
      "propertyNames": {
        "$ref": "#/$defs/variable"
      },
      "additionalProperties": {
        "$ref": "#/$defs/assignment"
      }
    },
    "assignment": {
      "title": "Assignment",
      "anyOf": [
        {
          "type": "string",
          "maxLength": 1024
        },
        {
          "type": "number"
        },
        {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "increment"
          ],
          "properties": {
            "increment": {
              "description": "Adds this number (negative subtracts) to the variable; a missing or non-numeric value counts as 0.",
              "type": "number"
            },
            "expires": {
              "description": "The counter is deleted this long after it was started (a window: later increments keep its end), or at the next midnight (`midnight`).",
              "$ref": "#/$defs/lifetime"
            }
          }
        },
        {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "value",
            "expires"
          ],
          "properties": {
            "value": {
              "description": "The value (a text template or a number).",
              "anyOf": [
                {
                  "type": "string",
                  "maxLength": 1024
                },
                {
                  "type": "number"
                }
              ]
            },
            "expires": {
              "description": "The variable is deleted this long after it was set (each set starts it again), or at the next midnight (`midnight`).",
              "$ref": "#/$defs/lifetime"
            }
          }
        },
        {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "unset"
          ],
          "properties": {
            "unset": {
              "description": "Deletes the variable.",
              "const": true
            }
          }
        }
      ]
    },
    "flow": {
      "title": "Flow",
      "description": "A multi-step conversation of one user in one chat: started by `start`, it asks each step in turn, and ends with `done`, `cancel` or `timeout`.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "id",
        "start",
        "steps"
      ],
      "properties": {
        "id": {
          "description": "A name unique across all rules and flows (letters, digits, '_', '-', '.').",
          "type": "string",
          "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
        },
        "start": {
          "description": "What starts the flow: a trigger with its conditions, or a list of them (any one starts it; each tried at its place in the order).",
          "anyOf": [
            {
              "$ref": "#/$defs/flowStart"
            },
            {
              "type": "array",
              "minItems": 1,
              "items": {
                "$ref": "#/$defs/flowStart"
              }
            }
          ]
        },
        "cancel": {
          "title": "FlowCancel",
          "description": "Leaves the flow when a message has one of these keywords (whole words) or is this command; checked before anything else.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "reply"
          ],
          "anyOf": [
            {
              "required": [
                "keywords"
              ]
            },
            {
              "required": [
                "command"
              ]
            }
          ],
          "properties": {
            "keywords": {
              "type": "array",
              "minItems": 1,
              "items": {
                "type": "string",
                "minLength": 1
              }
            },
            "command": {
              "description": "A command name without the slash.",
              "type": "string",
              "pattern": "^[A-Za-z0-9_]{1,32}$"
            },
            "reply": {
              "description": "Sent when the flow is cancelled. Per language: { en: ..., de: ... }.",
              "$ref": "#/$defs/localizedString"
            }
          }
        },
        "timeout": {
          "title": "FlowTimeout",
          "description": "Leaves the flow when the user has not answered for this long; the bot then writes `reply` on its own.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "after",
            "reply"
          ],
          "properties": {
            "after": {
              "description": "A duration: a number and a unit, s, m, h or d (e.g. 90s, 15m, 2h, 1d); at most 30 days.",
              "type": "string",
              "pattern": "^[0-9]{1,7}(s|m|h|d)$"
            },
            "reply": {
              "description": "Sent when the flow times out. Per language: { en: ..., de: ... }.",
              "$ref": "#/$defs/localizedString"
            }
          }
        },
        "steps": {
          "description": "The questions, asked in this order.",
          "type": "array",
          "minItems": 1,
          "items": {
            "$ref": "#/$defs/step"
          }
        },
        "done": {
          "description": "Branches tried in order when the last step is answered: the first whose `when` holds (or that has none) sets its variables and replies.",
          "type": "array",
          "minItems": 1,
          "items": {
            "$ref": "#/$defs/doneBranch"
          }
        }
      }
    },
    "step": {
      "title": "FlowStep",
      "description": "One question: `ask` is sent, the user's answer is checked with `accept` and kept as {{flow.ID}}. A photo or other media given here is sent before the question.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "id",
        "ask"
      ],
      "properties": {
        "id": {
          "description": "The step's name; its answer is {{flow.ID}} in later steps and in done.",
          "type": "string",
          "pattern": "^[A-Za-z_][A-Za-z0-9_]{0,63}$"
        },
        "ask": {
          "description": "The question (a template: {{flow.x}} of earlier steps, {{var.user.x}}, {{user.first_name}} ...). Per language: { en: ..., de: ... }.",
          "$ref": "#/$defs/localizedString"
        },
        "accept": {
          "$ref": "#/$defs/accept"
        },
        "retry": {
          "description": "Sent when an answer is not accepted; the step stays. Default: the question again. Per language: { en: ..., de: ... }.",
          "$ref": "#/$defs/localizedString"
        },
        "retry_past": {
          "description": "For a date step: sent when the date is in the past (default: retry_range, then retry).",
          "$ref": "#/$defs/localizedString"
        },
        "retry_range": {
          "description": "For a date or time step: sent when it is outside from … to (default: retry).",
          "$ref": "#/$defs/localizedString"
        },
        "buttons": {
          "description": "How a `choice` step shows its options: `inline` (buttons under the question, the default), `keyboard` (a reply keyboard) or `none`. A press counts as choosing the option.",
          "enum": [
            "inline",
            "keyboard",
            "none"
          ]
        },
        "photo": {
          "description": "Send a photo (JPEG, PNG, GIF, WebP; at most 10 MB): a file next to the rules (media/menu.jpg), an https:// URL, or a file_id; one per language ({ en: ..., de: ... }).",
          "$ref": "#/$defs/mediaFile"
        },
        "document": {
          "description": "Send a file as a document (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language ({ en: ..., de: ... }).",
          "$ref": "#/$defs/mediaFile"
        },
        "video": {
          "description": "Send a video (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "audio": {
          "description": "Send an audio file to play (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "voice": {
          "description": "Send a voice message (an .ogg OPUS file, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "animation": {
          "description": "Send an animation (a GIF or a silent MP4, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "sticker": {
          "description": "Send a sticker: a file_id (from a sticker sent to the bot) or a .webp file next to the rules; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "location": {
          "$ref": "#/$defs/location"
        },
        "contact": {
          "$ref": "#/$defs/contact"
        },
        "album": {
          "$ref": "#/$defs/album"
        },
        "caption": {
          "description": "The caption under a photo, document, video, audio, voice or animation sent before the question (a template, at most 1024 characters). Per language: { en: ..., de: ... }.",
          "$ref": "#/$defs/localizedString"
        }
      }
    },
    "accept": {
      "title": "Accept",
      "description": "What answers the step: a pattern, a number, a choice, a date, a time of day, a backend's 2xx, or a photo, document, location ... (`photo: true`). Without `accept` any text is taken (a command is not).",
      "type": "object",
      "additionalProperties": false,
      "oneOf": [
        {
          "required": [
            "pattern"
          ]
        },
        {
          "required": [
            "number"
          ]
        },
        {
          "required": [
            "choice"
          ]
        },
        {
          "required": [
            "call"
          ]
        },
        {
          "required": [
            "photo"
          ]
        },
        {
          "required": [
            "document"
          ]
        },
        {
          "required": [
            "video"
          ]
        },
        {
          "required": [
            "voice"
          ]
        },
        {
          "required": [
            "audio"
          ]
        },
        {
          "required": [
            "sticker"
          ]
        },
        {
          "required": [
            "location"
          ]
        },
        {
          "required": [
            "contact"
          ]
        },
        {
          "required": [
            "animation"
          ]
        },
        {
          "required": [
            "date"
          ]
        },
        {
          "required": [
            "time"
          ]
        }
      ],
      "properties": {
        "pattern": {
          "description": "A regular expression (RE2 syntax) searched in the answer; the named group (?<value>...) is kept, or the whole match.",
          "type": "string",
          "minLength": 1
        },
        "number": {
          "title": "AcceptNumber",
          "description": "A number in a range (whole numbers unless decimal: true); the answer must be only the number.",
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "min": {
              "type": "number"
            },
            "max": {
              "type": "number"
            },
            "decimal": {
              "description": "Also accept fractions such as 2.5 or 2,5.",
              "type": "boolean"
            }
          }
        },
        "choice": {
          "title": "AcceptChoice",
          "description": "Options: the kept value (the key) and the words that choose it, compared with the whole answer without case; the key itself also chooses it. An option may be { words: [...], label: { en: Yes, de: Ja } }: its button shows the label in the user's language, and the label chooses it too.",
          "type": "object",
          "minProperties": 1,
          "propertyNames": {
            "pattern": "^.{1,1024}$"
          },
          "additionalProperties": {
            "anyOf": [
              {
                "type": "array",
                "items": {
                  "type": "string",
                  "minLength": 1
                }
              },
              {
                "title": "ChoiceOption",
                "type": "object",
                "additionalProperties": false,
                "minProperties": 1,
                "properties": {
                  "words": {
                    "description": "The words that choose this option.",
                    "type": "array",
                    "items": {
                      "type": "string",
                      "minLength": 1
                    }
                  },
                  "label": {
                    "description": "The option's button label (default: its key); typing it chooses the option too. Per language: { en: ..., de: ... }.",
                    "$ref": "#/$defs/localizedString"
                  }
                }
              }
            ]
          }
        },
        "date": {
          "title": "AcceptDate",
          "description": "A date as people write it (today, tomorrow, friday, 24.12., 2026-12-24, 12/24; morgen, übermorgen, Freitag), kept as YYYY-MM-DD: {{flow.STEP}} shows it in the user's language, {{flow.STEP.iso}} as kept.",
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "from": {
              "description": "The earliest date taken: today, tomorrow, a date (YYYY-MM-DD), or days from today (60d; -7d for the past).",
              "type": "string",
              "pattern": "^(today|tomorrow|yesterday|\\d{4}-\\d{2}-\\d{2}|-?\\d{1,4}d)$"
            },
            "to": {
              "description": "The latest date taken: today, tomorrow, a date (YYYY-MM-DD), or days from today (60d; -7d for the past).",
              "type": "string",
              "pattern": "^(today|tomorrow|yesterday|\\d{4}-\\d{2}-\\d{2}|-?\\d{1,4}d)$"
            }
          }
        },
        "time": {
          "title": "AcceptTime",
          "description": "A time of day (19:00, 7pm, 19 Uhr), kept as HH:MM.",
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "from": {
              "type": "string",
              "pattern": "^\\d{1,2}:\\d{2}$",
              "description": "The earliest time taken (HH:MM)."
            },
            "to": {
              "type": "string",
              "pattern": "^\\d{1,2}:\\d{2}$",
              "description": "The latest time taken (HH:MM)."
            }
          }
        },
        "case_sensitive": {
          "description": "Compare the pattern or the choice words with case (default false).",
          "type": "boolean"
        },
        "call": {
          "description": "Accept the answer when this backend request answers 2xx ({{answer}} is the answer, e.g. get: /orders/{{answer}}); its JSON is kept with the step ({{flow.STEP.PATH}}). Any other outcome asks again.",
          "$ref": "#/$defs/call"
        },
        "photo": {
          "description": "true: the answer is a photo (kept as its file_id); anything else asks again.",
          "const": true
        },
        "document": {
          "description": "true: the answer is a document (kept as its file_id); anything else asks again.",
          "const": true
        },
        "video": {
          "description": "true: the answer is a video (kept as its file_id); anything else asks again.",
          "const": true
        },
        "voice": {
          "description": "true: the answer is a voice (kept as its file_id); anything else asks again.",
          "const": true
        },
        "audio": {
          "description": "true: the answer is a audio (kept as its file_id); anything else asks again.",
          "const": true
        },
        "sticker": {
          "description": "true: the answer is a sticker (kept as its file_id); anything else asks again.",
          "const": true
        },
        "location": {
          "description": "true: the answer is a location (kept as \"latitude,longitude\"); anything else asks again.",
          "const": true
        },
        "contact": {
          "description": "true: the answer is a contact (kept as its phone number); anything else asks again.",
          "const": true
        },
        "animation": {
          "description": "true: the answer is a animation (kept as its file_id); anything else asks again.",
          "const": true
        }
      }
    },
    "doneBranch": {
      "title": "DoneBranch",
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "when": {
          "$ref": "#/$defs/conditions"
        },
        "open": {
          "$ref": "#/$defs/openCondition"
        },
        "set": {
          "$ref": "#/$defs/assignments"
        },
        "reply": {
          "description": "Sent when the flow ends here (a template; {{flow.STEP}} for any step). Per language: { en: ..., de: ... }.",
          "$ref": "#/$defs/localizedString"
        },
        "call": {
          "$ref": "#/$defs/call"
        },
        "on": {
          "$ref": "#/$defs/flowCallBranches"
        },
        "notify": {
          "$ref": "#/$defs/rule/properties/notify"
        },
        "handoff": {
          "description": "true: hand the user to a person when the flow ends here, after the branch's reply (see a rule's handoff); needs the configuration's handoff: block. A done branch with a call hands off from its on branches instead.",
          "type": "boolean"
        },
        "photo": {
          "description": "Send a photo (JPEG, PNG, GIF, WebP; at most 10 MB): a file next to the rules (media/menu.jpg), an https:// URL, or a file_id; one per language ({ en: ..., de: ... }).",
          "$ref": "#/$defs/mediaFile"
        },
        "document": {
          "description": "Send a file as a document (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language ({ en: ..., de: ... }).",
          "$ref": "#/$defs/mediaFile"
        },
        "video": {
          "description": "Send a video (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "audio": {
          "description": "Send an audio file to play (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "voice": {
          "description": "Send a voice message (an .ogg OPUS file, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "animation": {
          "description": "Send an animation (a GIF or a silent MP4, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "sticker": {
          "description": "Send a sticker: a file_id (from a sticker sent to the bot) or a .webp file next to the rules; one per language.",
          "$ref": "#/$defs/mediaFile"
        },
        "location": {
          "$ref": "#/$defs/location"
        },
        "contact": {
          "$ref": "#/$defs/contact"
        },
        "album": {
          "$ref": "#/$defs/album"
        },
        "caption": {
          "description": "The caption under a photo, document, video, audio, voice or animation (a template, at most 1024 characters). Per language: { en: ..., de: ... }.",
          "$ref": "#/$defs/localizedString"
        },
        "remind": {
          "$ref": "#/$defs/reminders"
        },
        "forget_reminder": {
          "$ref": "#/$defs/forgetReminder"
        },
        "restrict": {
          "$ref": "#/$defs/rule/properties/restrict"
        },
        "unrestrict": {
          "$ref": "#/$defs/rule/properties/unrestrict"
        },
        "ban": {
          "$ref": "#/$defs/rule/properties/ban"
        },
        "unban": {
          "$ref": "#/$defs/rule/properties/unban"
        },
        "approve": {
          "$ref": "#/$defs/rule/properties/approve"
        },
        "decline": {
          "$ref": "#/$defs/rule/properties/decline"
        },
        "pin": {
          "$ref": "#/$defs/rule/properties/pin"
        }
      }
    },
    "inlineKeyboard": {
      "title": "InlineKeyboard",
      "description": "Buttons under the message: a list of rows, each a list of buttons. A button has a `text` and either `data` (sent back on a press, for a `callback` rule) or `url` (opens a link). At most 100 buttons.",
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "array",
        "minItems": 1,
        "items": {
          "$ref": "#/$defs/inlineButton"
        }
      }
    },
    "inlineButton": {
      "title": "InlineButton",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "text"
      ],
      "oneOf": [
        {
          "required": [
            "data"
          ]
        },
        {
          "required": [
            "url"
          ]
        }
      ],
      "properties": {
        "text": {
          "description": "The button's label (a template). Per language: { en: ..., de: ... }.",
          "$ref": "#/$defs/localizedString"
        },
        "data": {
          "description": "The callback data sent to the bot when the button is pressed: 1 to 64 bytes (a template); a `callback` rule answers it.",
          "type": "string",
          "minLength": 1
        },
        "url": {
          "description": "A link opened by the button: http(s)://… or tg://… (a template).",
          "type": "string",
          "minLength": 1
        }
      }
    },
    "replyKeyboard": {
      "title": "ReplyKeyboard",
      "description": "A keyboard shown instead of the user's letter keys: rows of button labels (pressing one sends its label as a message); shown once and fitted to the buttons unless `one_time`/`resize` say otherwise. `remove` takes a keyboard away.",
      "anyOf": [
        {
          "const": "remove"
        },
        {
          "$ref": "#/$defs/keyboardRows"
        },
        {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "rows"
          ],
          "properties": {
            "rows": {
              "$ref": "#/$defs/keyboardRows"
            },
            "one_time": {
              "description": "Hide the keyboard after one press (default true).",
              "type": "boolean"
            },
            "resize": {
              "description": "Fit the keyboard's height to its buttons (default true).",
              "type": "boolean"
            },
            "placeholder": {
              "description": "Shown in the empty input field while the keyboard is up (1 to 64 characters).",
              "type": "string",
              "minLength": 1,
              "maxLength": 64
            }
          }
        }
      ]
    },
    "keyboardRows": {
      "title": "KeyboardRows",
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "array",
        "minItems": 1,
        "items": {
          "$ref": "#/$defs/localizedString"
        }
      }
    },
    "languageCode": {
      "title": "LanguageCode",
      "description": "A language by its ISO 639-1 code (two or three lowercase letters), as Telegram's language_code starts: en, de, fr.",
      "type": "string",
      "pattern": "^[a-z]{2,3}$"
    },
    "text": {
      "title": "Text",
      "description": "A text, or a list of alternatives of which one is picked at random.",
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
    "localizedText": {
      "title": "LocalizedText",
      "description": "A text (or a list of alternatives) for everyone, or one per language: { en: \"Hello\", de: \"Hallo\" }. A supported language left out gets the default language's text (check warns).",
      "anyOf": [
        {
          "$ref": "#/$defs/text"
        },
        {
          "type": "object",
          "minProperties": 1,
          "additionalProperties": false,
          "patternProperties": {
            "^[a-z]{2,3}$": {
              "$ref": "#/$defs/text"
            }
          }
        }
      ]
    },
    "message": {
      "title": "Message",
      "description": "One message of a sequence: its text (a string, alternatives, or per language), or a photo or other media (with a caption), and its own options (parse_mode, reply_to_message, disable_notification, buttons or keyboard).",
      "anyOf": [
        {
          "type": "string",
          "minLength": 1
        },
        {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "reply": {
              "$ref": "#/$defs/localizedText"
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
            "buttons": {
              "description": "Inline buttons under this message (see the rule's buttons).",
              "$ref": "#/$defs/inlineKeyboard"
            },
            "keyboard": {
              "description": "A reply keyboard (or `remove`) sent with this message (see the rule's keyboard).",
              "$ref": "#/$defs/replyKeyboard"
            },
            "photo": {
              "description": "Send a photo (JPEG, PNG, GIF, WebP; at most 10 MB): a file next to the rules (media/menu.jpg), an https:// URL, or a file_id; one per language ({ en: ..., de: ... }).",
              "$ref": "#/$defs/mediaFile"
            },
            "document": {
              "description": "Send a file as a document (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language ({ en: ..., de: ... }).",
              "$ref": "#/$defs/mediaFile"
            },
            "video": {
              "description": "Send a video (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
              "$ref": "#/$defs/mediaFile"
            },
            "audio": {
              "description": "Send an audio file to play (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
              "$ref": "#/$defs/mediaFile"
            },
            "voice": {
              "description": "Send a voice message (an .ogg OPUS file, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
              "$ref": "#/$defs/mediaFile"
            },
            "animation": {
              "description": "Send an animation (a GIF or a silent MP4, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.",
              "$ref": "#/$defs/mediaFile"
            },
            "sticker": {
              "description": "Send a sticker: a file_id (from a sticker sent to the bot) or a .webp file next to the rules; one per language.",
              "$ref": "#/$defs/mediaFile"
            },
            "location": {
              "$ref": "#/$defs/location"
            },
            "contact": {
              "$ref": "#/$defs/contact"
            },
            "album": {
              "$ref": "#/$defs/album"
            },
            "caption": {
              "description": "The caption under a photo, document, video, audio, voice or animation (a template, at most 1024 characters, with the parse_mode given here). Per language: { en: ..., de: ... }.",
              "$ref": "#/$defs/localizedString"
            }
          },
          "minProperties": 1,
          "anyOf": [
            {
              "required": [
                "reply"
              ]
            },
            {
              "required": [
                "photo"
              ]
            },
            {
              "required": [
                "document"
              ]
            },
            {
              "required": [
                "video"
              ]
            },
            {
              "required": [
                "audio"
              ]
            },
            {
              "required": [
                "voice"
              ]
            },
            {
              "required": [
                "animation"
              ]
            },
            {
              "required": [
                "sticker"
              ]
            },
            {
              "required": [
                "location"
              ]
            },
            {
              "required": [
                "contact"
              ]
            },
            {
              "required": [
                "album"
              ]
            }
          ]
        }
      ]
    },
    "localizedString": {
      "title": "LocalizedString",
      "description": "A text for everyone, or one per language: { en: \"Yes\", de: \"Ja\" } (see languages). A supported language left out gets the default language's text (check warns).",
      "anyOf": [
        {
          "type": "string",
          "minLength": 1
        },
        {
          "type": "object",
          "minProperties": 1,
          "additionalProperties": false,
          "patternProperties": {
            "^[a-z]{2,3}$": {
              "type": "string",
              "minLength": 1
            }
          }
        }
      ]
    },
    "send": {
      "title": "Send",
      "description": "A message to another chat than the one the rule answers in.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "to",
        "text"
      ],
      "properties": {
        "to": {
          "$ref": "#/$defs/chatTarget"
        },
        "text": {
          "description": "The message: a template (e.g. \"Complaint from {{user.first_name}}: {{text}}\"), or one per language (in the language of the user who caused it).",
          "$ref": "#/$defs/localizedString"
        },
        "parse_mode": {
          "description": "Send it as HTML or MarkdownV2; inserted values are escaped. Default: plain text.",
          "enum": [
            "HTML",
            "MarkdownV2"
          ]
        },
        "buttons": {
          "$ref": "#/$defs/inlineKeyboard"
        },
        "disable_notification": {
          "description": "Send it silently.",
          "type": "boolean"
        }
      }
    },
    "call": {
      "title": "Call",
      "description": "A request to one of the operator's backends whose answer the reply needs: made while the message is handled, its outcome picks a branch of `on`. One method key with the path.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "backend"
      ],
      "oneOf": [
        {
          "required": [
            "get"
          ]
        },
        {
          "required": [
            "post"
          ]
        },
        {
          "required": [
            "put"
          ]
        },
        {
          "required": [
            "patch"
          ]
        },
        {
          "required": [
            "delete"
          ]
        }
      ],
      "properties": {
        "backend": {
          "description": "The backend's name, as declared under `backends:` in the configuration (hearsay.yaml).",
          "type": "string",
          "pattern": "^[A-Za-z][A-Za-z0-9_-]{0,63}$"
        },
        "get": {
          "description": "GET this path (after the backend's url): a template whose inserted values are percent-encoded, e.g. /orders/{{match.num}}; a query may follow ?.",
          "type": "string",
          "pattern": "^/[^\\s#]*$",
          "maxLength": 2048
        },
        "post": {
          "description": "POST to this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.",
          "type": "string",
          "pattern": "^/[^\\s#]*$",
          "maxLength": 2048
        },
        "put": {
          "description": "PUT to this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.",
          "type": "string",
          "pattern": "^/[^\\s#]*$",
          "maxLength": 2048
        },
        "patch": {
          "description": "PATCH this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.",
          "type": "string",
          "pattern": "^/[^\\s#]*$",
          "maxLength": 2048
        },
        "delete": {
          "description": "DELETE this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.",
          "type": "string",
          "pattern": "^/[^\\s#]*$",
          "maxLength": 2048
        },
        "body": {
          "description": "The JSON body: any JSON, whose texts are templates ({{flow.date}}, {{user.id}}, {{match.num}}), inserted as they are (JSON-encoded, never interpreted)."
        }
      }
    },
    "notify": {
      "title": "Notify",
      "description": "A request to a backend that must arrive but whose answer nobody waits for: stored with the update and sent after it, retried with back-off until it is answered 2xx (given up after the backend's give_up_after, default 24 h), with the same Idempotency-Key on every attempt.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "backend"
      ],
      "oneOf": [
        {
          "required": [
            "post"
          ]
        },
        {
          "required": [
            "put"
          ]
        },
        {
          "required": [
            "patch"
          ]
        },
        {
          "required": [
            "delete"
          ]
        }
      ],
      "properties": {
        "backend": {
          "description": "The backend's name, as declared under `backends:` in the configuration (hearsay.yaml).",
          "type": "string",
          "pattern": "^[A-Za-z][A-Za-z0-9_-]{0,63}$"
        },
        "post": {
          "description": "POST to this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.",
          "type": "string",
          "pattern": "^/[^\\s#]*$",
          "maxLength": 2048
        },
        "put": {
          "description": "PUT to this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.",
          "type": "string",
          "pattern": "^/[^\\s#]*$",
          "maxLength": 2048
        },
        "patch": {
          "description": "PATCH this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.",
          "type": "string",
          "pattern": "^/[^\\s#]*$",
          "maxLength": 2048
        },
        "delete": {
          "description": "DELETE this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.",
          "type": "string",
          "pattern": "^/[^\\s#]*$",
          "maxLength": 2048
        },
        "body": {
          "description": "The JSON body: any JSON, whose texts are templates ({{flow.date}}, {{user.id}}, {{match.num}}), inserted as they are (JSON-encoded, never interpreted)."
        }
      }
    },
    "callBranch": {
      "title": "CallBranch",
      "description": "What to do for one outcome of a call: anything a rule does (reply, messages, a photo or other media, buttons, keyboard, set, send, notify, moderation such as delete, restrict or ban; for a button press answer, alert and edit). Templates may read the answer: {{result.PATH}} (dot paths, array indexes: {{result.items.0.name}}) and {{result.status_code}}.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "reply": {
          "$ref": "#/$defs/rule/properties/reply"
        },
        "messages": {
          "$ref": "#/$defs/rule/properties/messages"
        },
        "buttons": {
          "$ref": "#/$defs/rule/properties/buttons"
        },
        "keyboard": {
          "$ref": "#/$defs/rule/properties/keyboard"
        },
        "answer": {
          "$ref": "#/$defs/rule/properties/answer"
        },
        "alert": {
          "$ref": "#/$defs/rule/properties/alert"
        },
        "edit": {
          "$ref": "#/$defs/rule/properties/edit"
        },
        "parse_mode": {
          "$ref": "#/$defs/rule/properties/parse_mode"
        },
        "reply_to_message": {
          "$ref": "#/$defs/rule/properties/reply_to_message"
        },
        "disable_notification": {
          "$ref": "#/$defs/rule/properties/disable_notification"
        },
        "set": {
          "$ref": "#/$defs/rule/properties/set"
        },
        "send": {
          "$ref": "#/$defs/rule/properties/send"
        },
        "notify": {
          "$ref": "#/$defs/rule/properties/notify"
        },
        "photo": {
          "$ref": "#/$defs/rule/properties/photo"
        },
        "document": {
          "$ref": "#/$defs/rule/properties/document"
        },
        "video": {
          "$ref": "#/$defs/rule/properties/video"
        },
        "audio": {
          "$ref": "#/$defs/rule/properties/audio"
        },
        "voice": {
          "$ref": "#/$defs/rule/properties/voice"
        },
        "animation": {
          "$ref": "#/$defs/rule/properties/animation"
        },
        "sticker": {
          "$ref": "#/$defs/rule/properties/sticker"
        },
        "location": {
          "$ref": "#/$defs/rule/properties/location"
        },
        "contact": {
          "$ref": "#/$defs/rule/properties/contact"
        },
        "album": {
          "$ref": "#/$defs/rule/properties/album"
        },
        "caption": {
          "$ref": "#/$defs/rule/properties/caption"
        },
        "handoff": {
          "description": "true: after this branch's answer, hand the user to a person (see a rule's handoff), e.g. when the backend fails; false: end the user's hand-off. Needs the configuration's handoff: block. A rule with a call hands off from its branches only.",
          "type": "boolean"
        },
        "delete": {
          "$ref": "#/$defs/rule/properties/delete"
        },
        "restrict": {
          "$ref": "#/$defs/rule/properties/restrict"
        },
        "unrestrict": {
          "$ref": "#/$defs/rule/properties/unrestrict"
        },
        "ban": {
          "$ref": "#/$defs/rule/properties/ban"
        },
        "unban": {
          "$ref": "#/$defs/rule/properties/unban"
        },
        "approve": {
          "$ref": "#/$defs/rule/properties/approve"
        },
        "decline": {
          "$ref": "#/$defs/rule/properties/decline"
        },
        "pin": {
          "$ref": "#/$defs/rule/properties/pin"
        }
      }
    },
    "callBranches": {
      "title": "CallBranches",
      "description": "The branches of a call, by outcome: `ok` (any 2xx not listed), `error` (no answer in time, a network error, a 5xx or any status not listed, an unreadable answer, an open circuit) and specific status codes (404, 409, ...).",
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "ok": {
          "$ref": "#/$defs/callBranch"
        },
        "error": {
          "$ref": "#/$defs/callBranch"
        }
      },
      "patternProperties": {
        "^[1-5][0-9][0-9]$": {
          "$ref": "#/$defs/callBranch"
        }
      }
    },
    "flowCallBranch": {
      "title": "FlowCallBranch",
      "description": "What a done branch does for one outcome of its call: reply, media, set and notify; templates may read {{result.PATH}} and {{result.status_code}}.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "reply": {
          "$ref": "#/$defs/doneBranch/properties/reply"
        },
        "set": {
          "$ref": "#/$defs/assignments"
        },
        "notify": {
          "$ref": "#/$defs/rule/properties/notify"
        },
        "photo": {
          "$ref": "#/$defs/doneBranch/properties/photo"
        },
        "document": {
          "$ref": "#/$defs/doneBranch/properties/document"
        },
        "video": {
          "$ref": "#/$defs/doneBranch/properties/video"
        },
        "audio": {
          "$ref": "#/$defs/doneBranch/properties/audio"
        },
        "voice": {
          "$ref": "#/$defs/doneBranch/properties/voice"
        },
        "animation": {
          "$ref": "#/$defs/doneBranch/properties/animation"
        },
        "sticker": {
          "$ref": "#/$defs/doneBranch/properties/sticker"
        },
        "location": {
          "$ref": "#/$defs/doneBranch/properties/location"
        },
        "contact": {
          "$ref": "#/$defs/doneBranch/properties/contact"
        },
        "album": {
          "$ref": "#/$defs/doneBranch/properties/album"
        },
        "caption": {
          "$ref": "#/$defs/doneBranch/properties/caption"
        },
        "handoff": {
          "description": "true: after this branch's reply, hand the user to a person (see a rule's handoff), e.g. when the backend fails. Needs the configuration's handoff: block.",
          "type": "boolean"
        }
      }
    },
    "flowCallBranches": {
      "title": "FlowCallBranches",
      "description": "The branches of a call, by outcome: `ok` (any 2xx not listed), `error` (no answer in time, a network error, a 5xx or any status not listed, an unreadable answer, an open circuit) and specific status codes (404, 409, ...).",
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "ok": {
          "$ref": "#/$defs/flowCallBranch"
        },
        "error": {
          "$ref": "#/$defs/flowCallBranch"
        }
      },
      "patternProperties": {
        "^[1-5][0-9][0-9]$": {
          "$ref": "#/$defs/flowCallBranch"
        }
      }
    },
    "flowStart": {
      "title": "FlowStart",
      "description": "What starts the flow: exactly one trigger, as in a rule (command, text, pattern, keywords and/or all, or fallback; or event: join_request, asked in private), with optional conditions and options.",
      "type": "object",
      "additionalProperties": false,
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
            "all"
          ],
          "not": {
            "required": [
              "keywords"
            ]
          }
        },
        {
          "required": [
            "fallback"
          ]
        },
        {
          "required": [
            "event"
          ]
        }
      ],
      "properties": {
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
          "description": "Trigger: any of these words or phrases, as whole words (Unicode letters and digits mark word edges); a list, or lists per language ({ en: [...], de: [...] }; every language's keywords match, the reply follows the user's language).",
          "anyOf": [
            {
              "type": "array",
              "minItems": 1,
              "items": {
                "type": "string",
                "minLength": 1
              }
            },
            {
              "type": "object",
              "minProperties": 1,
              "additionalProperties": false,
              "patternProperties": {
                "^[a-z]{2,3}$": {
                  "type": "array",
                  "minItems": 1,
                  "items": {
                    "type": "string",
                    "minLength": 1
                  }
                }
              }
            }
          ]
        },
        "all": {
          "description": "Trigger: every one of these words or phrases, in any order, anywhere in the message (whole words; synonyms, forms and fuzzy apply as for keywords); a list, or lists per language ({ en: [change, address], de: [Adresse, ändern] }: the words of any one language must all be there). Next to keywords, the rule answers either.",
          "anyOf": [
            {
              "type": "array",
              "minItems": 1,
              "items": {
                "type": "string",
                "minLength": 1
              }
            },
            {
              "type": "object",
              "minProperties": 1,
              "additionalProperties": false,
              "patternProperties": {
                "^[a-z]{2,3}$": {
                  "type": "array",
                  "minItems": 1,
                  "items": {
                    "type": "string",
                    "minLength": 1
                  }
                }
              }
            }
          ]
        },
        "fallback": {
          "description": "Trigger: answers only when no other rule matched.",
          "const": true
        },
        "case_sensitive": {
          "description": "Compare text, keywords and pattern with case (default false). Commands always ignore case.",
          "type": "boolean"
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
        "when": {
          "$ref": "#/$defs/conditions"
        },
        "open": {
          "$ref": "#/$defs/openCondition"
        },
        "set": {
          "$ref": "#/$defs/assignments"
        },
        "examples": {
          "description": "Sample messages that must start this flow; `hearsay check` warns when a rule catches one first.",
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "minLength": 1
          }
        },
        "lang": {
          "description": "Condition: answer only users whose language (see languages) is one of these.",
          "type": "array",
          "minItems": 1,
          "uniqueItems": true,
          "items": {
            "$ref": "#/$defs/languageCode"
          }
        },
        "mentioned": {
          "description": "Condition: only messages that mention the bot (@its_username) or reply to one of its messages.",
          "type": "boolean"
        },
        "fuzzy": {
          "description": "For text, keyword and all triggers: also match words with a typo (one edit from 6 letters, two from 10, counting the letters of the trigger's word). `auto` on, `off` off; the default comes from the file's `fuzzy`.",
          "enum": [
            "auto",
            "off"
          ]
        },
        "forms": {
          "description": "For text, keyword and all triggers: also match other forms of their words by stem (English, German and the other languages docs/rules.md lists). `auto` on, `off` off; the default comes from the file's `forms`.",
          "enum": [
            "auto",
            "off"
          ]
        },
        "event": {
          "description": "Trigger: a user asked to join a group that approves new members (join_request): the flow asks them in their private chat, and its done branches approve or decline the request.",
          "const": "join_request"
        }
      }
    },
    "chatTarget": {
      "title": "ChatTarget",
      "description": "A chat: a name declared under `chats:` in the configuration (hearsay.yaml), or a chat id (groups are negative).",
      "anyOf": [
        {
          "type": "string",
          "pattern": "^[A-Za-z][A-Za-z0-9_-]{0,63}$"
        },
        {
          "type": "integer"
        }
      ]
    },
    "chatTargets": {
      "anyOf": [
        {
          "$ref": "#/$defs/chatTarget"
        },
        {
          "type": "array",
          "minItems": 1,
          "maxItems": 10,
          "uniqueItems": true,
          "items": {
            "$ref": "#/$defs/chatTarget"
          }
        }
      ]
    },
    "mediaFile": {
      "title": "MediaFile",
      "description": "A file to send: a path relative to the rules directory (media/menu.jpg), an https:// URL, or a file_id the service gave this bot, or a template filled in when sent (\"{{flow.picture}}\": a file_id a flow step kept); or one of these per language ({ en: media/menu-en.jpg, de: media/menu-de.jpg }).",
      "anyOf": [
        {
          "type": "string",
          "minLength": 1
        },
        {
          "type": "object",
          "minProperties": 1,
          "additionalProperties": false,
          "patternProperties": {
            "^[a-z]{2,3}$": {
              "type": "string",
              "minLength": 1
            }
          }
        }
      ]
    },
    "location": {
      "title": "Location",
      "description": "Send a point on the map; with a title (and address) it is sent as a venue.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "latitude",
        "longitude"
      ],
      "properties": {
        "latitude": {
          "type": "number",
          "minimum": -90,
          "maximum": 90
        },
        "longitude": {
          "type": "number",
          "minimum": -180,
          "maximum": 180
        },
        "title": {
          "description": "The place's name: the location is sent as a venue.",
          "type": "string",
          "minLength": 1
        },
        "address": {
          "description": "The place's address (with a title).",
          "type": "string",
          "minLength": 1
        }
      }
    },
    "contact": {
      "title": "Contact",
      "description": "Send a contact card.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "phone_number",
        "first_name"
      ],
      "properties": {
        "phone_number": {
          "type": "string",
          "minLength": 1
        },
        "first_name": {
          "type": "string",
          "minLength": 1
        },
        "last_name": {
          "type": "string",
          "minLength": 1
        }
      }
    },
    "album": {
      "title": "Album",
      "description": "Send 2 to 10 photos and videos (or documents, or audio files, each only with their own kind) as one album: each a file next to the rules, an https:// URL or a file_id (a .jpg, .png … is a photo, .mp4 … a video, anything else a document), or { photo|video|document|audio: ..., caption: ... }.",
      "type": "array",
      "minItems": 2,
      "maxItems": 10,
      "items": {
        "anyOf": [
          {
            "type": "string",
            "minLength": 1
          },
          {
            "type": "object",
            "additionalProperties": false,
            "minProperties": 1,
            "properties": {
              "photo": {
                "type": "string",
                "minLength": 1
              },
              "video": {
                "type": "string",
                "minLength": 1
              },
              "document": {
                "type": "string",
                "minLength": 1
              },
              "audio": {
                "type": "string",
                "minLength": 1
              },
              "caption": {
                "description": "This item's caption (a template; per language { en: ..., de: ... }).",
                "$ref": "#/$defs/localizedString"
              }
            }
          }
        ]
      }
    },
    "openingHours": {
      "title": "OpeningHours",
      "description": "Opening hours: weekday keys (mon, mon-fri, sat,sun, daily) with \"HH:MM-HH:MM\" ranges (a list for several; an end before the start runs past midnight; 24:00 is the end of the day) or closed, and `closed:` dates (YYYY-MM-DD).",
      "type": "object",
      "minProperties": 1,
      "properties": {
        "closed": {
          "description": "Dates on which it is closed whatever the weekday says (holidays): YYYY-MM-DD.",
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "additionalProperties": {
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
      }
    },
    "openCondition": {
      "title": "OpenCondition",
      "description": "Condition: only while the named opening hours (`hours:`) are open, or with { not: NAME } only while they are closed.",
      "anyOf": [
        {
          "type": "string",
          "pattern": "^[A-Za-z][A-Za-z0-9_]{0,63}$"
        },
        {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "not"
          ],
          "properties": {
            "not": {
              "type": "string",
              "pattern": "^[A-Za-z][A-Za-z0-9_]{0,63}$"
            }
          }
        }
      ]
    },
    "duration": {
      "title": "Duration",
      "description": "A duration: a number and a unit, s, m, h or d (90s, 15m, 2h, 1d).",
      "type": "string",
      "pattern": "^[0-9]{1,7}(s|m|h|d)$"
    },
    "reminder": {
      "title": "Reminder",
      "description": "A message to this user in this chat at a later time: `at` a time (a template that gives \"YYYY-MM-DD HH:MM\", e.g. \"{{flow.date.iso}} 10:00\") or `in` a duration. A later reminder with the same id (same user and chat) replaces it; forget_reminder cancels it.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "id",
        "reply"
      ],
      "oneOf": [
        {
          "required": [
            "at"
          ]
        },
        {
          "required": [
            "in"
          ]
        }
      ],
      "properties": {
        "id": {
          "description": "The reminder's name: one per user and chat at a time.",
          "type": "string",
          "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
        },
        "at": {
          "description": "When, in the rules' time zone: \"YYYY-MM-DD HH:MM\", \"YYYY-MM-DD\" (at 00:00) or \"HH:MM\" (the next such time); a template such as \"{{flow.date.iso}} 10:00\".",
          "type": "string",
          "minLength": 1
        },
        "in": {
          "description": "How long from now: 90s, 15m, 2h, 1d.",
          "$ref": "#/$defs/duration"
        },
        "reply": {
          "description": "The message (a template rendered when the reminder is set, with the values of that moment; {{now.*}} is the reminder's own time), in the user's language of that moment. Per language: { en: ..., de: ... }.",
          "$ref": "#/$defs/localizedString"
        },
        "parse_mode": {
          "description": "Send it as HTML or MarkdownV2. Default: plain text.",
          "enum": [
            "HTML",
            "MarkdownV2"
          ]
        },
        "buttons": {
          "$ref": "#/$defs/inlineKeyboard"
        },
        "late_after": {
          "description": "A reminder the bot could not send for this long (it was down) is dropped and logged instead of sent late. Default 1h.",
          "$ref": "#/$defs/duration"
        }
      }
    },
    "reminders": {
      "title": "Reminders",
      "description": "Messages to this user in this chat at a later time (see Reminder); one, or a list.",
      "anyOf": [
        {
          "$ref": "#/$defs/reminder"
        },
        {
          "type": "array",
          "minItems": 1,
          "maxItems": 10,
          "items": {
            "$ref": "#/$defs/reminder"
          }
        }
      ]
    },
    "forgetReminder": {
      "title": "ForgetReminder",
      "description": "Cancels this user's pending reminder(s) with this id in this chat: an id, or a list.",
      "anyOf": [
        {
          "type": "string",
          "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
        },
        {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
          }
        }
      ]
    },
    "schedule": {
      "title": "Schedule",
      "description": "A message sent to a chat again and again: `every` (\"mon 09:00\", \"mon-fri 08:30\", \"day 07:00\", \"1st 10:00\") or `cron` (\"0 9 * * 1\"), in the rules' time zone.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "id",
        "to",
        "reply"
      ],
      "oneOf": [
        {
          "required": [
            "every"
          ]
        },
        {
          "required": [
            "cron"
          ]
        }
      ],
      "properties": {
        "id": {
          "description": "A name unique among the schedules (letters, digits, '_', '-', '.'); in logs and metrics.",
          "type": "string",
          "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
        },
        "every": {
          "description": "Days and a time: \"mon 09:00\", \"mon-fri 08:30\", \"sat,sun 10:00\", \"day 07:00\" (every day), \"1st 10:00\" (a day of the month: 1st … 31st).",
          "type": "string",
          "minLength": 1
        },
        "cron": {
          "description": "A cron expression: minute hour day-of-month month day-of-week (0 or 7 is Sunday), e.g. \"0 9 * * 1\" for Mondays at 09:00.",
          "type": "string",
          "minLength": 1
        },
        "to": {
          "description": "The chat: a name declared under `chats:` in the configuration, or a chat id.",
          "anyOf": [
            {
              "type": "string",
              "pattern": "^[A-Za-z][A-Za-z0-9_-]{0,63}$"
            },
            {
              "type": "integer"
            }
          ]
        },
        "reply": {
          "description": "The message (a template: {{now.date}}, {{hours.NAME.next_open}}, {{var.chat.NAME}} of that chat), in the rules' default language, or one per language.",
          "$ref": "#/$defs/localizedString"
        },
        "parse_mode": {
          "description": "Send it as HTML or MarkdownV2. Default: plain text.",
          "enum": [
            "HTML",
            "MarkdownV2"
          ]
        },
        "buttons": {
          "$ref": "#/$defs/inlineKeyboard"
        },
        "disable_notification": {
          "description": "Send it silently.",
          "type": "boolean"
        },
        "late_after": {
          "description": "An occurrence the bot could not send for this long (it was down) is dropped and logged instead of sent late. Default 1h.",
          "$ref": "#/$defs/duration"
        }
      }
    },
    "lifetime": {
      "title": "Lifetime",
      "description": "How long a variable lives: a duration (90s, 15m, 2h, 1d) or midnight (until the next midnight in the rules' time zone).",
      "type": "string",
      "pattern": "^([0-9]{1,7}(s|m|h|d)|midnight)$"
    }
  }
} as const;

/**
 * A hearsay rule file: a list of rules tried in order (the first match answers) and the flows (multi-step conversations) started by a trigger. Reference: docs/rules.md.
 */
export type RuleFile = {
  [k: string]: unknown | undefined;
} & {
  /**
   * The rules of this file, tried in this order (files are tried in name order).
   */
  rules?: Rule[];
  /**
   * Multi-step conversations: each is started by a trigger, asks its steps in order and ends with `done`. Flow starts are tried after the rules of the same file.
   */
  flows?: Flow[];
  languages?: Languages;
  /**
   * Groups of words or phrases that mean the same for text, keyword and all triggers (declare once): [[shipping, delivery, postage], [giftcard, "gift card", gift-card]] makes each match where another is written.
   *
   * @minItems 1
   */
  synonyms?: [[string, string, ...string[]], ...[string, string, ...string[]][]];
  /**
   * The default for every rule's fuzzy (declare once): auto lets text and keyword triggers match words with a typo.
   */
  fuzzy?: "auto" | "off";
  /**
   * The default for every rule's forms (declare once): auto lets text, keyword and all triggers match other forms of their words (orders, ordered for order; Bestellungen for Bestellung).
   */
  forms?: "auto" | "off";
  limits?: Limits;
  suggest?: Suggest;
  /**
   * What a user is told when a hand-off to a person ends (a staff member wrote an end word, or the configuration's handoff idle time passed) and the bot answers again. Declared once, in any rule file.
   */
  handoff_end?: {
    reply: LocalizedString25;
  };
  /**
   * The time zone every time in the rules is in (declare once, in any file): an IANA name such as Europe/Berlin. Default: UTC. Opening hours, {{now.*}}, the dates of date steps and reminders keep their wall-clock times across daylight saving time changes.
   */
  timezone?: string;
  /**
   * Named opening hours (declare once, in any file): per weekday (mon … sun, a range such as mon-fri, a list such as sat,sun, or daily) a time range "09:00-18:00", a list of them, or closed; and `closed:` dates. Used by `open: NAME` and {{hours.NAME.next_open}} / {{hours.NAME.closes}}.
   */
  hours?: {
    [k: string]: OpeningHours | undefined;
  };
  /**
   * Recurring messages to a chat (declare once, in any file): each occurrence is sent once, by one replica; one missed by more than late_after (the bot was down) is dropped and logged.
   *
   * @minItems 1
   */
  schedules?: [Schedule, ...Schedule[]];
};
/**
 * One rule: an id, exactly one trigger (command, text, pattern, keywords and/or all, fallback, event for a member joining or leaving, the bot's own status or a photo, file or place a user sends, media: any, or callback for a button press) and what to do: a reply, a photo or other media, or a sequence of messages, or a call to a backend whose `on` branches answer (and, for a button press, an answer and an edit).
 */
export type Rule = Rule1 & Rule2;
export type Rule1 = {
  [k: string]: unknown | undefined;
};
/**
 * The text to send (`none`: the rule answers nothing on purpose, e.g. when it only sets variables, sends, forwards or copies), a list of alternatives of which one is picked at random, or either per language ({ en: ..., de: ... }, see languages). Placeholders: {{user.first_name}}, {{text}}, {{args}}, {{match.1}} ... (see docs/rules.md).
 */
export type Reply =
  | string
  | [string, ...string[]]
  | {
      [k: string]: Text | undefined;
    };
/**
 * A text, or a list of alternatives of which one is picked at random.
 *
 * This interface was referenced by `undefined`'s JSON-Schema definition
 * via the `patternProperty` "^[a-z]{2,3}$".
 *
 * This interface was referenced by `undefined`'s JSON-Schema definition
 * via the `patternProperty` "^[a-z]{2,3}$".
 */
export type Text = string | [string, ...string[]];
/**
 * Buttons under the message: a list of rows, each a list of buttons. A button has a `text` and either `data` (sent back on a press, for a `callback` rule) or `url` (opens a link). At most 100 buttons.
 *
 * @minItems 1
 */
export type InlineKeyboard = [[InlineButton, ...InlineButton[]], ...[InlineButton, ...InlineButton[]][]];
export type InlineButton = InlineButton1 & InlineButton2 & InlineButton1 & InlineButton2;
export type InlineButton1 =
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    };
/**
 * The button's label (a template). Per language: { en: ..., de: ... }.
 */
export type LocalizedString =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A keyboard shown instead of the user's letter keys: rows of button labels (pressing one sends its label as a message); shown once and fitted to the buttons unless `one_time`/`resize` say otherwise. `remove` takes a keyboard away.
 */
export type ReplyKeyboard =
  | "remove"
  | KeyboardRows
  | {
      rows: KeyboardRows;
      /**
       * Hide the keyboard after one press (default true).
       */
      one_time?: boolean;
      /**
       * Fit the keyboard's height to its buttons (default true).
       */
      resize?: boolean;
      /**
       * Shown in the empty input field while the keyboard is up (1 to 64 characters).
       */
      placeholder?: string;
    };
/**
 * @minItems 1
 */
export type KeyboardRows = [[LocalizedString1, ...LocalizedString1[]], ...[LocalizedString1, ...LocalizedString1[]][]];
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString1 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString2 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString3 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString4 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
export type ChatType = "private" | "group" | "supergroup" | "channel";
/**
 * Send the reply as HTML or MarkdownV2; inserted values are escaped. Default: plain text.
 */
export type ParseMode = "HTML" | "MarkdownV2";
export type Condition =
  | Value
  | {
      /**
       * true: the variable has a value; false: it has none.
       */
      exists?: boolean;
      equals?: Value1;
      not?: Value2;
      /**
       * A number greater than this.
       */
      gt?: number;
      /**
       * A number greater than or equal to this.
       */
      gte?: number;
      /**
       * A number less than this.
       */
      lt?: number;
      /**
       * A number less than or equal to this.
       */
      lte?: number;
      /**
       * A date or time after this: today, tomorrow, yesterday, now, a date (YYYY-MM-DD) or a time (HH:MM); the variable holds a date (YYYY-MM-DD, as a date step keeps it) or a time (HH:MM).
       */
      after?: string;
      /**
       * A date or time before this (see after).
       */
      before?: string;
    };
/**
 * A text (at most 1024 characters) or a number.
 */
export type Value = string | number;
/**
 * A text (at most 1024 characters) or a number.
 */
export type Value1 = string | number;
/**
 * A text (at most 1024 characters) or a number.
 */
export type Value2 = string | number;
export type Assignment =
  | string
  | number
  | {
      /**
       * Adds this number (negative subtracts) to the variable; a missing or non-numeric value counts as 0.
       */
      increment: number;
      expires?: Lifetime;
    }
  | {
      /**
       * The value (a text template or a number).
       */
      value: string | number;
      expires: Lifetime1;
    }
  | {
      /**
       * Deletes the variable.
       */
      unset: true;
    };
/**
 * The counter is deleted this long after it was started (a window: later increments keep its end), or at the next midnight (`midnight`).
 */
export type Lifetime = string;
/**
 * The variable is deleted this long after it was set (each set starts it again), or at the next midnight (`midnight`).
 */
export type Lifetime1 = string;
/**
 * Several messages sent in order, one after the other (unlike a list under reply, of which one is picked at random); each may have its own parse_mode, reply_to_message and disable_notification.
 *
 * @minItems 1
 * @maxItems 10
 */
export type Messages =
  | [Message]
  | [Message, Message]
  | [Message, Message, Message]
  | [Message, Message, Message, Message]
  | [Message, Message, Message, Message, Message]
  | [Message, Message, Message, Message, Message, Message]
  | [Message, Message, Message, Message, Message, Message, Message]
  | [Message, Message, Message, Message, Message, Message, Message, Message]
  | [Message, Message, Message, Message, Message, Message, Message, Message, Message]
  | [Message, Message, Message, Message, Message, Message, Message, Message, Message, Message];
/**
 * One message of a sequence: its text (a string, alternatives, or per language), or a photo or other media (with a caption), and its own options (parse_mode, reply_to_message, disable_notification, buttons or keyboard).
 */
export type Message =
  | string
  | ((
      | {
          [k: string]: unknown | undefined;
        }
      | {
          [k: string]: unknown | undefined;
        }
      | {
          [k: string]: unknown | undefined;
        }
      | {
          [k: string]: unknown | undefined;
        }
      | {
          [k: string]: unknown | undefined;
        }
      | {
          [k: string]: unknown | undefined;
        }
      | {
          [k: string]: unknown | undefined;
        }
      | {
          [k: string]: unknown | undefined;
        }
      | {
          [k: string]: unknown | undefined;
        }
      | {
          [k: string]: unknown | undefined;
        }
      | {
          [k: string]: unknown | undefined;
        }
    ) & {
      reply?: LocalizedText;
      parse_mode?: ParseMode1;
      /**
       * Send the answer as a reply to the triggering message.
       */
      reply_to_message?: boolean;
      /**
       * Send the answer silently.
       */
      disable_notification?: boolean;
      buttons?: InlineKeyboard1;
      keyboard?: ReplyKeyboard1;
      photo?: MediaFile;
      document?: MediaFile1;
      video?: MediaFile2;
      audio?: MediaFile3;
      voice?: MediaFile4;
      animation?: MediaFile5;
      sticker?: MediaFile6;
      location?: Location;
      contact?: Contact;
      album?: Album;
      caption?: LocalizedString6;
    });
/**
 * A text (or a list of alternatives) for everyone, or one per language: { en: "Hello", de: "Hallo" }. A supported language left out gets the default language's text (check warns).
 */
export type LocalizedText =
  | Text
  | {
      [k: string]: Text | undefined;
    };
/**
 * Send the reply as HTML or MarkdownV2; inserted values are escaped. Default: plain text.
 */
export type ParseMode1 = "HTML" | "MarkdownV2";
/**
 * Buttons under the message: a list of rows, each a list of buttons. A button has a `text` and either `data` (sent back on a press, for a `callback` rule) or `url` (opens a link). At most 100 buttons.
 *
 * @minItems 1
 */
export type InlineKeyboard1 = [[InlineButton, ...InlineButton[]], ...[InlineButton, ...InlineButton[]][]];
/**
 * A keyboard shown instead of the user's letter keys: rows of button labels (pressing one sends its label as a message); shown once and fitted to the buttons unless `one_time`/`resize` say otherwise. `remove` takes a keyboard away.
 */
export type ReplyKeyboard1 =
  | "remove"
  | KeyboardRows
  | {
      rows: KeyboardRows;
      /**
       * Hide the keyboard after one press (default true).
       */
      one_time?: boolean;
      /**
       * Fit the keyboard's height to its buttons (default true).
       */
      resize?: boolean;
      /**
       * Shown in the empty input field while the keyboard is up (1 to 64 characters).
       */
      placeholder?: string;
    };
/**
 * Send a photo (JPEG, PNG, GIF, WebP; at most 10 MB): a file next to the rules (media/menu.jpg), an https:// URL, or a file_id; one per language ({ en: ..., de: ... }).
 */
export type MediaFile =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a file as a document (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language ({ en: ..., de: ... }).
 */
export type MediaFile1 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a video (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile2 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send an audio file to play (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile3 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a voice message (an .ogg OPUS file, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile4 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send an animation (a GIF or a silent MP4, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile5 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a sticker: a file_id (from a sticker sent to the bot) or a .webp file next to the rules; one per language.
 */
export type MediaFile6 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send 2 to 10 photos and videos (or documents, or audio files, each only with their own kind) as one album: each a file next to the rules, an https:// URL or a file_id (a .jpg, .png … is a photo, .mp4 … a video, anything else a document), or { photo|video|document|audio: ..., caption: ... }.
 *
 * @minItems 2
 * @maxItems 10
 */
export type Album =
  | [
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      )
    ]
  | [
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      )
    ]
  | [
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      )
    ]
  | [
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      )
    ]
  | [
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      )
    ]
  | [
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      )
    ]
  | [
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      )
    ]
  | [
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      )
    ]
  | [
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      ),
      (
        | string
        | {
            photo?: string;
            video?: string;
            document?: string;
            audio?: string;
            caption?: LocalizedString5;
          }
      )
    ];
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString5 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString6 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A chat: a name declared under `chats:` in the configuration (hearsay.yaml), or a chat id (groups are negative).
 */
export type ChatTarget = string | number;
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString7 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A request to one of the operator's backends whose answer the reply needs: made while the message is handled, its outcome picks a branch of `on`. One method key with the path.
 */
export type Call = Call1 & Call2;
export type Call1 = {
  [k: string]: unknown | undefined;
};
/**
 * A request to a backend that must arrive but whose answer nobody waits for: stored with the update and sent after it, retried with back-off until it is answered 2xx (given up after the backend's give_up_after, default 24 h), with the same Idempotency-Key on every attempt.
 */
export type Notify = Notify1 & Notify2;
export type Notify1 = {
  [k: string]: unknown | undefined;
};
/**
 * Send a photo (JPEG, PNG, GIF, WebP; at most 10 MB): a file next to the rules (media/menu.jpg), an https:// URL, or a file_id; one per language ({ en: ..., de: ... }).
 */
export type MediaFile7 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a file as a document (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language ({ en: ..., de: ... }).
 */
export type MediaFile8 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a video (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile9 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send an audio file to play (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile10 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a voice message (an .ogg OPUS file, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile11 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send an animation (a GIF or a silent MP4, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile12 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a sticker: a file_id (from a sticker sent to the bot) or a .webp file next to the rules; one per language.
 */
export type MediaFile13 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * The caption under a photo, document, video, audio, voice or animation (a template, at most 1024 characters, with the parse_mode given here). Per language: { en: ..., de: ... }.
 */
export type LocalizedString8 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Messages to this user in this chat at a later time (see Reminder); one, or a list.
 */
export type Reminders =
  | Reminder
  | [Reminder]
  | [Reminder, Reminder]
  | [Reminder, Reminder, Reminder]
  | [Reminder, Reminder, Reminder, Reminder]
  | [Reminder, Reminder, Reminder, Reminder, Reminder]
  | [Reminder, Reminder, Reminder, Reminder, Reminder, Reminder]
  | [Reminder, Reminder, Reminder, Reminder, Reminder, Reminder, Reminder]
  | [Reminder, Reminder, Reminder, Reminder, Reminder, Reminder, Reminder, Reminder]
  | [Reminder, Reminder, Reminder, Reminder, Reminder, Reminder, Reminder, Reminder, Reminder]
  | [Reminder, Reminder, Reminder, Reminder, Reminder, Reminder, Reminder, Reminder, Reminder, Reminder];
/**
 * A message to this user in this chat at a later time: `at` a time (a template that gives "YYYY-MM-DD HH:MM", e.g. "{{flow.date.iso}} 10:00") or `in` a duration. A later reminder with the same id (same user and chat) replaces it; forget_reminder cancels it.
 */
export type Reminder = Reminder1 & Reminder2;
export type Reminder1 = {
  [k: string]: unknown | undefined;
};
/**
 * How long from now: 90s, 15m, 2h, 1d.
 */
export type Duration = string;
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString9 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A reminder the bot could not send for this long (it was down) is dropped and logged instead of sent late. Default 1h.
 */
export type Duration1 = string;
/**
 * Cancels this user's pending reminder(s) with this id in this chat: an id, or a list.
 */
export type ForgetReminder = string | [string, ...string[]];
/**
 * A language by its ISO 639-1 code (two or three lowercase letters), as Telegram's language_code starts: en, de, fr.
 */
export type LanguageCode = string;
/**
 * Condition: only while the named opening hours (`hours:`) are open, or with { not: NAME } only while they are closed.
 */
export type OpenCondition =
  | string
  | {
      not: string;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString10 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a photo (JPEG, PNG, GIF, WebP; at most 10 MB): a file next to the rules (media/menu.jpg), an https:// URL, or a file_id; one per language ({ en: ..., de: ... }).
 */
export type MediaFile14 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a file as a document (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language ({ en: ..., de: ... }).
 */
export type MediaFile15 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a video (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile16 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send an audio file to play (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile17 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a voice message (an .ogg OPUS file, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile18 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send an animation (a GIF or a silent MP4, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile19 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a sticker: a file_id (from a sticker sent to the bot) or a .webp file next to the rules; one per language.
 */
export type MediaFile20 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString11 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * What starts the flow: exactly one trigger, as in a rule (command, text, pattern, keywords and/or all, or fallback; or event: join_request, asked in private), with optional conditions and options.
 */
export type FlowStart = FlowStart1 & FlowStart2;
export type FlowStart1 = {
  [k: string]: unknown | undefined;
};
export type ChatType1 = "private" | "group" | "supergroup" | "channel";
/**
 * Leaves the flow when a message has one of these keywords (whole words) or is this command; checked before anything else.
 */
export type FlowCancel = {
  [k: string]: unknown | undefined;
} & {
  /**
   * @minItems 1
   */
  keywords?: [string, ...string[]];
  /**
   * A command name without the slash.
   */
  command?: string;
  reply: LocalizedString12;
};
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString12 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString13 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString14 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * What answers the step: a pattern, a number, a choice, a date, a time of day, a backend's 2xx, or a photo, document, location ... (`photo: true`). Without `accept` any text is taken (a command is not).
 */
export type Accept = Accept1 & Accept2;
export type Accept1 =
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString15 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A request to one of the operator's backends whose answer the reply needs: made while the message is handled, its outcome picks a branch of `on`. One method key with the path.
 */
export type Call3 = (
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    }
) & {
  /**
   * The backend's name, as declared under `backends:` in the configuration (hearsay.yaml).
   */
  backend: string;
  /**
   * GET this path (after the backend's url): a template whose inserted values are percent-encoded, e.g. /orders/{{match.num}}; a query may follow ?.
   */
  get?: string;
  /**
   * POST to this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.
   */
  post?: string;
  /**
   * PUT to this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.
   */
  put?: string;
  /**
   * PATCH this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.
   */
  patch?: string;
  /**
   * DELETE this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.
   */
  delete?: string;
  /**
   * The JSON body: any JSON, whose texts are templates ({{flow.date}}, {{user.id}}, {{match.num}}), inserted as they are (JSON-encoded, never interpreted).
   */
  body?: {
    [k: string]: unknown | undefined;
  };
};
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString16 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString17 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString18 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a photo (JPEG, PNG, GIF, WebP; at most 10 MB): a file next to the rules (media/menu.jpg), an https:// URL, or a file_id; one per language ({ en: ..., de: ... }).
 */
export type MediaFile21 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a file as a document (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language ({ en: ..., de: ... }).
 */
export type MediaFile22 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a video (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile23 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send an audio file to play (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile24 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a voice message (an .ogg OPUS file, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile25 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send an animation (a GIF or a silent MP4, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile26 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a sticker: a file_id (from a sticker sent to the bot) or a .webp file next to the rules; one per language.
 */
export type MediaFile27 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString19 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString20 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a photo (JPEG, PNG, GIF, WebP; at most 10 MB): a file next to the rules (media/menu.jpg), an https:// URL, or a file_id; one per language ({ en: ..., de: ... }).
 */
export type MediaFile28 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a file as a document (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language ({ en: ..., de: ... }).
 */
export type MediaFile29 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a video (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile30 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send an audio file to play (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile31 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a voice message (an .ogg OPUS file, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile32 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send an animation (a GIF or a silent MP4, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile33 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a sticker: a file_id (from a sticker sent to the bot) or a .webp file next to the rules; one per language.
 */
export type MediaFile34 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * The caption under a photo, document, video, audio, voice or animation (a template, at most 1024 characters). Per language: { en: ..., de: ... }.
 */
export type LocalizedString21 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a photo (JPEG, PNG, GIF, WebP; at most 10 MB): a file next to the rules (media/menu.jpg), an https:// URL, or a file_id; one per language ({ en: ..., de: ... }).
 */
export type MediaFile35 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a file as a document (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language ({ en: ..., de: ... }).
 */
export type MediaFile36 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a video (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile37 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send an audio file to play (at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile38 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a voice message (an .ogg OPUS file, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile39 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send an animation (a GIF or a silent MP4, at most 50 MB): a file next to the rules, an https:// URL or a file_id; one per language.
 */
export type MediaFile40 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * Send a sticker: a file_id (from a sticker sent to the bot) or a .webp file next to the rules; one per language.
 */
export type MediaFile41 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString22 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString23 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString24 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString25 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * A message sent to a chat again and again: `every` ("mon 09:00", "mon-fri 08:30", "day 07:00", "1st 10:00") or `cron` ("0 9 * * 1"), in the rules' time zone.
 */
export type Schedule = Schedule1 & Schedule2 & Schedule1 & Schedule2;
export type Schedule1 =
  | {
      [k: string]: unknown | undefined;
    }
  | {
      [k: string]: unknown | undefined;
    };
/**
 * A text for everyone, or one per language: { en: "Yes", de: "Ja" } (see languages). A supported language left out gets the default language's text (check warns).
 */
export type LocalizedString26 =
  | string
  | {
      /**
       * This interface was referenced by `undefined`'s JSON-Schema definition
       * via the `patternProperty` "^[a-z]{2,3}$".
       */
      [k: string]: string | undefined;
    };
/**
 * An occurrence the bot could not send for this long (it was down) is dropped and logged instead of sent late. Default 1h.
 */
export type Duration2 = string;

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
   * Trigger: any of these words or phrases, as whole words (Unicode letters and digits mark word edges); a list, or lists per language ({ en: [...], de: [...] }; every language's keywords match, the reply follows the user's language).
   */
  keywords?:
    | [string, ...string[]]
    | {
        /**
         * @minItems 1
         *
         * This interface was referenced by `undefined`'s JSON-Schema definition
         * via the `patternProperty` "^[a-z]{2,3}$".
         */
        [k: string]: [string, ...string[]] | undefined;
      };
  /**
   * Trigger: answers only when no other rule matched.
   */
  fallback?: true;
  /**
   * Trigger: a button press whose callback data matches this regular expression (RE2 syntax, searched anywhere in the data; anchor with ^ and $); named groups (?<name>...) fill {{match.name}}. Such a rule answers presses only, never messages.
   */
  callback?: string;
  reply?: Reply;
  buttons?: InlineKeyboard;
  keyboard?: ReplyKeyboard;
  answer?: LocalizedString2;
  /**
   * For a callback rule: show `answer` as a dialog the user must dismiss instead of a passing notification.
   */
  alert?: boolean;
  edit?: LocalizedString3;
  description?: LocalizedString4;
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
   * Condition: answer only messages in these forum topics (their message_thread_id, as {{message.topic}} shows it).
   *
   * @minItems 1
   */
  topics?: [number, ...number[]];
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
  when?: Conditions;
  set?: Assignments;
  /**
   * Also answer a user who is inside a flow, without leaving it (other rules wait until the flow ends). Default false.
   */
  during_flows?: boolean;
  messages?: Messages;
  /**
   * Also send a message to another chat (a named chat of the configuration's `chats:`, e.g. staff, or a chat id): committed with the update and sent once, in order, after it; retried when the service is unavailable, given up (logged) when the chat refuses it. One, or a list.
   */
  send?:
    | Send
    | [Send]
    | [Send, Send]
    | [Send, Send, Send]
    | [Send, Send, Send, Send]
    | [Send, Send, Send, Send, Send]
    | [Send, Send, Send, Send, Send, Send]
    | [Send, Send, Send, Send, Send, Send, Send]
    | [Send, Send, Send, Send, Send, Send, Send, Send]
    | [Send, Send, Send, Send, Send, Send, Send, Send, Send]
    | [Send, Send, Send, Send, Send, Send, Send, Send, Send, Send];
  call?: Call;
  on?: CallBranches;
  /**
   * Also notify a backend (an outbox request, retried until it is answered 2xx). One, or a list.
   */
  notify?:
    | Notify
    | [Notify]
    | [Notify, Notify]
    | [Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify];
  /**
   * Also forward the user's message itself to another chat (a named chat of the configuration's `chats:`, or a chat id): the copy shows who wrote it. Committed with the update and done once, in order, after it, like send. One chat or a list.
   */
  forward?:
    | ChatTarget
    | [ChatTarget]
    | [ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget]
    | [
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget
      ];
  /**
   * Also copy the user's message to another chat, without naming who wrote it (text, formatting and media as sent). Committed with the update and done once, in order, after it, like send. One chat or a list.
   */
  copy?:
    | ChatTarget
    | [ChatTarget]
    | [ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget]
    | [ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget, ChatTarget]
    | [
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget,
        ChatTarget
      ];
  /**
   * true: hand the user to a person in the configuration's handoff chat (a topic of theirs in a staff forum group): from then on their messages go to staff and staff answers come back, and the bot says nothing to them except rules with during_handoff, until staff write an end word or the idle time passes. false: end the user's hand-off (e.g. a during_handoff /cancel rule). A rule with a call hands off from a branch of on instead (on: { error: { reply: ..., handoff: true } }).
   */
  handoff?: boolean;
  /**
   * Also answer a user who is handed off to a person (other rules stay silent: the user's messages go to staff). Default false.
   */
  during_handoff?: boolean;
  remind?: Reminders;
  forget_reminder?: ForgetReminder;
  /**
   * Trigger: a member joined the group (member_joined) or left it (member_left), where {{user.*}} is that member; a user blocked the bot (blocked) or unblocked it (unblocked) in their private chat; the bot was added to a group (bot_added) or removed from one (bot_removed); a user asked to join a group that approves new members (join_request: answer with approve or decline); an administrator restricted or banned a member (member_restricted); a user's first message over the flood limit (flooding: see limits.incoming); or a user sent a photo, document, video, voice message, audio file, sticker, location, contact or animation ({{message.caption}}, {{message.file_name}}, {{message.latitude}} ...), whose caption `keywords` or `pattern` given beside it must match.
   */
  event?:
    | "member_joined"
    | "member_left"
    | "blocked"
    | "unblocked"
    | "bot_added"
    | "bot_removed"
    | "join_request"
    | "member_restricted"
    | "flooding"
    | "photo"
    | "document"
    | "video"
    | "voice"
    | "audio"
    | "sticker"
    | "location"
    | "contact"
    | "animation";
  /**
   * Trigger: `any` answers a message with any photo, document, video, voice message, audio file, sticker, location, contact or animation (see event for one kind).
   */
  media?: "any";
  /**
   * Condition: answer only users whose language (see languages) is one of these.
   *
   * @minItems 1
   */
  lang?: [LanguageCode, ...LanguageCode[]];
  /**
   * Condition: only messages that mention the bot (@its_username) or reply to one of its messages.
   */
  mentioned?: boolean;
  open?: OpenCondition;
  /**
   * For text, keyword and all triggers: also match words with a typo (one edit from 6 letters, two from 10, counting the letters of the trigger's word). `auto` on, `off` off; the default comes from the file's `fuzzy`.
   */
  fuzzy?: "auto" | "off";
  /**
   * Trigger: every one of these words or phrases, in any order, anywhere in the message (whole words; synonyms, forms and fuzzy apply as for keywords); a list, or lists per language ({ en: [change, address], de: [Adresse, ändern] }: the words of any one language must all be there). Next to keywords, the rule answers either.
   */
  all?:
    | [string, ...string[]]
    | {
        /**
         * @minItems 1
         *
         * This interface was referenced by `undefined`'s JSON-Schema definition
         * via the `patternProperty` "^[a-z]{2,3}$".
         */
        [k: string]: [string, ...string[]] | undefined;
      };
  /**
   * For text, keyword and all triggers: also match other forms of their words by stem (English, German and the other languages docs/rules.md lists). `auto` on, `off` off; the default comes from the file's `forms`.
   */
  forms?: "auto" | "off";
  /**
   * Moderation: delete the message that triggered the rule (the bot needs the admin right can_delete_messages in groups; messages older than 48 hours cannot be deleted).
   */
  delete?: true;
  restrict?: Restrict;
  /**
   * Moderation: give the member who wrote every permission back; needs can_restrict_members.
   */
  unrestrict?: true;
  /**
   * Moderation: remove the member who wrote from the group and keep them out, for good (true) or for a while ({ for: 1d }); needs can_restrict_members.
   */
  ban?:
    | true
    | {
        /**
         * How long, e.g. 1h, 7d (the service treats under 30 seconds or over 366 days as for good).
         */
        for: string;
      };
  /**
   * Moderation: let the user back into the group (a member who is in it stays in it); supergroups only; needs can_restrict_members.
   */
  unban?: true;
  /**
   * Moderation (event: join_request): let the user in; needs can_invite_users.
   */
  approve?: true;
  /**
   * Moderation (event: join_request): turn the request down; needs can_invite_users.
   */
  decline?: true;
  /**
   * Moderation: pin the rule's reply (reply), the message that triggered it (message), or true: the reply when there is one; needs can_pin_messages in groups.
   */
  pin?: true | ("reply" | "message");
  /**
   * false: never offer this rule as a suggestion (e.g. "delete my account"). Default: rules with a text, keywords or all trigger may be suggested.
   */
  suggest?: boolean;
  label?: LocalizedString10;
  photo?: MediaFile14;
  document?: MediaFile15;
  video?: MediaFile16;
  audio?: MediaFile17;
  voice?: MediaFile18;
  animation?: MediaFile19;
  sticker?: MediaFile20;
  location?: Location;
  contact?: Contact;
  album?: Album;
  caption?: LocalizedString11;
}
export interface InlineButton2 {
  text: LocalizedString;
  /**
   * The callback data sent to the bot when the button is pressed: 1 to 64 bytes (a template); a `callback` rule answers it.
   */
  data?: string;
  /**
   * A link opened by the button: http(s)://… or tg://… (a template).
   */
  url?: string;
}
/**
 * Condition on variables: every entry must hold. A value compares for equality (text without case, numbers as numbers); a mapping may use exists, equals, not, gt, gte, lt, lte. `handoff: true` holds while the user is handed off to a person. Example: { user.name: { exists: true }, chat.count: { gte: 3 } }.
 */
export interface Conditions {
  /**
   * true: only while the user is handed off to a person; false: only while they are not.
   */
  handoff?: boolean;
  [k: string]: Condition | boolean | undefined;
}
/**
 * Variables to change, applied before the reply is rendered: a text template ("{{match.name}}"), a number, { increment: N } (adds N; a missing value counts as 0; `expires: 1m` makes it a counter that starts again), { value: V, expires: 1d } (a value that is forgotten after a while) or { unset: true } (deletes it). Keys: user.NAME or chat.NAME.
 */
export interface Assignments {
  [k: string]: Assignment | undefined;
}
/**
 * Send a point on the map; with a title (and address) it is sent as a venue.
 */
export interface Location {
  latitude: number;
  longitude: number;
  /**
   * The place's name: the location is sent as a venue.
   */
  title?: string;
  /**
   * The place's address (with a title).
   */
  address?: string;
}
/**
 * Send a contact card.
 */
export interface Contact {
  phone_number: string;
  first_name: string;
  last_name?: string;
}
/**
 * A message to another chat than the one the rule answers in.
 */
export interface Send {
  to: ChatTarget;
  text: LocalizedString7;
  /**
   * Send it as HTML or MarkdownV2; inserted values are escaped. Default: plain text.
   */
  parse_mode?: "HTML" | "MarkdownV2";
  buttons?: InlineKeyboard;
  /**
   * Send it silently.
   */
  disable_notification?: boolean;
}
export interface Call2 {
  /**
   * The backend's name, as declared under `backends:` in the configuration (hearsay.yaml).
   */
  backend: string;
  /**
   * GET this path (after the backend's url): a template whose inserted values are percent-encoded, e.g. /orders/{{match.num}}; a query may follow ?.
   */
  get?: string;
  /**
   * POST to this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.
   */
  post?: string;
  /**
   * PUT to this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.
   */
  put?: string;
  /**
   * PATCH this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.
   */
  patch?: string;
  /**
   * DELETE this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.
   */
  delete?: string;
  /**
   * The JSON body: any JSON, whose texts are templates ({{flow.date}}, {{user.id}}, {{match.num}}), inserted as they are (JSON-encoded, never interpreted).
   */
  body?: {
    [k: string]: unknown | undefined;
  };
}
/**
 * The branches of a call, by outcome: `ok` (any 2xx not listed), `error` (no answer in time, a network error, a 5xx or any status not listed, an unreadable answer, an open circuit) and specific status codes (404, 409, ...).
 */
export interface CallBranches {
  ok?: CallBranch;
  error?: CallBranch;
  [k: string]: CallBranch | undefined;
}
/**
 * What to do for one outcome of a call: anything a rule does (reply, messages, a photo or other media, buttons, keyboard, set, send, notify, moderation such as delete, restrict or ban; for a button press answer, alert and edit). Templates may read the answer: {{result.PATH}} (dot paths, array indexes: {{result.items.0.name}}) and {{result.status_code}}.
 *
 * This interface was referenced by `CallBranches`'s JSON-Schema definition
 * via the `patternProperty` "^[1-5][0-9][0-9]$".
 */
export interface CallBranch {
  reply?: Reply;
  messages?: Messages;
  buttons?: InlineKeyboard;
  keyboard?: ReplyKeyboard;
  answer?: LocalizedString2;
  /**
   * For a callback rule: show `answer` as a dialog the user must dismiss instead of a passing notification.
   */
  alert?: boolean;
  edit?: LocalizedString3;
  parse_mode?: ParseMode;
  /**
   * Send the answer as a reply to the triggering message.
   */
  reply_to_message?: boolean;
  /**
   * Send the answer silently.
   */
  disable_notification?: boolean;
  set?: Assignments;
  /**
   * Also send a message to another chat (a named chat of the configuration's `chats:`, e.g. staff, or a chat id): committed with the update and sent once, in order, after it; retried when the service is unavailable, given up (logged) when the chat refuses it. One, or a list.
   */
  send?:
    | Send
    | [Send]
    | [Send, Send]
    | [Send, Send, Send]
    | [Send, Send, Send, Send]
    | [Send, Send, Send, Send, Send]
    | [Send, Send, Send, Send, Send, Send]
    | [Send, Send, Send, Send, Send, Send, Send]
    | [Send, Send, Send, Send, Send, Send, Send, Send]
    | [Send, Send, Send, Send, Send, Send, Send, Send, Send]
    | [Send, Send, Send, Send, Send, Send, Send, Send, Send, Send];
  /**
   * Also notify a backend (an outbox request, retried until it is answered 2xx). One, or a list.
   */
  notify?:
    | Notify
    | [Notify]
    | [Notify, Notify]
    | [Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify];
  photo?: MediaFile7;
  document?: MediaFile8;
  video?: MediaFile9;
  audio?: MediaFile10;
  voice?: MediaFile11;
  animation?: MediaFile12;
  sticker?: MediaFile13;
  location?: Location;
  contact?: Contact;
  album?: Album;
  caption?: LocalizedString8;
  /**
   * true: after this branch's answer, hand the user to a person (see a rule's handoff), e.g. when the backend fails; false: end the user's hand-off. Needs the configuration's handoff: block. A rule with a call hands off from its branches only.
   */
  handoff?: boolean;
  /**
   * Moderation: delete the message that triggered the rule (the bot needs the admin right can_delete_messages in groups; messages older than 48 hours cannot be deleted).
   */
  delete?: true;
  restrict?: Restrict;
  /**
   * Moderation: give the member who wrote every permission back; needs can_restrict_members.
   */
  unrestrict?: true;
  /**
   * Moderation: remove the member who wrote from the group and keep them out, for good (true) or for a while ({ for: 1d }); needs can_restrict_members.
   */
  ban?:
    | true
    | {
        /**
         * How long, e.g. 1h, 7d (the service treats under 30 seconds or over 366 days as for good).
         */
        for: string;
      };
  /**
   * Moderation: let the user back into the group (a member who is in it stays in it); supergroups only; needs can_restrict_members.
   */
  unban?: true;
  /**
   * Moderation (event: join_request): let the user in; needs can_invite_users.
   */
  approve?: true;
  /**
   * Moderation (event: join_request): turn the request down; needs can_invite_users.
   */
  decline?: true;
  /**
   * Moderation: pin the rule's reply (reply), the message that triggered it (message), or true: the reply when there is one; needs can_pin_messages in groups.
   */
  pin?: true | ("reply" | "message");
}
export interface Notify2 {
  /**
   * The backend's name, as declared under `backends:` in the configuration (hearsay.yaml).
   */
  backend: string;
  /**
   * POST to this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.
   */
  post?: string;
  /**
   * PUT to this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.
   */
  put?: string;
  /**
   * PATCH this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.
   */
  patch?: string;
  /**
   * DELETE this path (a template, inserted values percent-encoded); sent with an Idempotency-Key derived from the update.
   */
  delete?: string;
  /**
   * The JSON body: any JSON, whose texts are templates ({{flow.date}}, {{user.id}}, {{match.num}}), inserted as they are (JSON-encoded, never interpreted).
   */
  body?: {
    [k: string]: unknown | undefined;
  };
}
/**
 * Moderation: mute the member who wrote (no messages of any kind) for a while ({ for: 1h }) or until unrestricted ({ until_changed: true }); supergroups only; needs can_restrict_members.
 */
export interface Restrict {
  /**
   * How long, e.g. 10m, 1h, 1d (the service treats under 30 seconds or over 366 days as for good).
   */
  for?: string;
  /**
   * Until a rule (unrestrict) or an administrator lifts it.
   */
  until_changed?: true;
}
export interface Reminder2 {
  /**
   * The reminder's name: one per user and chat at a time.
   */
  id: string;
  /**
   * When, in the rules' time zone: "YYYY-MM-DD HH:MM", "YYYY-MM-DD" (at 00:00) or "HH:MM" (the next such time); a template such as "{{flow.date.iso}} 10:00".
   */
  at?: string;
  in?: Duration;
  reply: LocalizedString9;
  /**
   * Send it as HTML or MarkdownV2. Default: plain text.
   */
  parse_mode?: "HTML" | "MarkdownV2";
  buttons?: InlineKeyboard;
  late_after?: Duration1;
}
/**
 * A multi-step conversation of one user in one chat: started by `start`, it asks each step in turn, and ends with `done`, `cancel` or `timeout`.
 */
export interface Flow {
  /**
   * A name unique across all rules and flows (letters, digits, '_', '-', '.').
   */
  id: string;
  /**
   * What starts the flow: a trigger with its conditions, or a list of them (any one starts it; each tried at its place in the order).
   */
  start: FlowStart | [FlowStart, ...FlowStart[]];
  cancel?: FlowCancel;
  timeout?: FlowTimeout;
  /**
   * The questions, asked in this order.
   *
   * @minItems 1
   */
  steps: [FlowStep, ...FlowStep[]];
  /**
   * Branches tried in order when the last step is answered: the first whose `when` holds (or that has none) sets its variables and replies.
   *
   * @minItems 1
   */
  done?: [DoneBranch, ...DoneBranch[]];
}
export interface FlowStart2 {
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
   * Trigger: any of these words or phrases, as whole words (Unicode letters and digits mark word edges); a list, or lists per language ({ en: [...], de: [...] }; every language's keywords match, the reply follows the user's language).
   */
  keywords?:
    | [string, ...string[]]
    | {
        /**
         * @minItems 1
         *
         * This interface was referenced by `undefined`'s JSON-Schema definition
         * via the `patternProperty` "^[a-z]{2,3}$".
         */
        [k: string]: [string, ...string[]] | undefined;
      };
  /**
   * Trigger: every one of these words or phrases, in any order, anywhere in the message (whole words; synonyms, forms and fuzzy apply as for keywords); a list, or lists per language ({ en: [change, address], de: [Adresse, ändern] }: the words of any one language must all be there). Next to keywords, the rule answers either.
   */
  all?:
    | [string, ...string[]]
    | {
        /**
         * @minItems 1
         *
         * This interface was referenced by `undefined`'s JSON-Schema definition
         * via the `patternProperty` "^[a-z]{2,3}$".
         */
        [k: string]: [string, ...string[]] | undefined;
      };
  /**
   * Trigger: answers only when no other rule matched.
   */
  fallback?: true;
  /**
   * Compare text, keywords and pattern with case (default false). Commands always ignore case.
   */
  case_sensitive?: boolean;
  /**
   * Condition: answer only in these kinds of chat.
   *
   * @minItems 1
   */
  chat_types?: [ChatType1, ...ChatType1[]];
  /**
   * Condition: answer only in these chats (chat ids; groups are negative).
   *
   * @minItems 1
   */
  chats?: [number, ...number[]];
  when?: Conditions;
  open?: OpenCondition;
  set?: Assignments;
  /**
   * Sample messages that must start this flow; `hearsay check` warns when a rule catches one first.
   *
   * @minItems 1
   */
  examples?: [string, ...string[]];
  /**
   * Condition: answer only users whose language (see languages) is one of these.
   *
   * @minItems 1
   */
  lang?: [LanguageCode, ...LanguageCode[]];
  /**
   * Condition: only messages that mention the bot (@its_username) or reply to one of its messages.
   */
  mentioned?: boolean;
  /**
   * For text, keyword and all triggers: also match words with a typo (one edit from 6 letters, two from 10, counting the letters of the trigger's word). `auto` on, `off` off; the default comes from the file's `fuzzy`.
   */
  fuzzy?: "auto" | "off";
  /**
   * For text, keyword and all triggers: also match other forms of their words by stem (English, German and the other languages docs/rules.md lists). `auto` on, `off` off; the default comes from the file's `forms`.
   */
  forms?: "auto" | "off";
  /**
   * Trigger: a user asked to join a group that approves new members (join_request): the flow asks them in their private chat, and its done branches approve or decline the request.
   */
  event?: "join_request";
}
/**
 * Leaves the flow when the user has not answered for this long; the bot then writes `reply` on its own.
 */
export interface FlowTimeout {
  /**
   * A duration: a number and a unit, s, m, h or d (e.g. 90s, 15m, 2h, 1d); at most 30 days.
   */
  after: string;
  reply: LocalizedString13;
}
/**
 * One question: `ask` is sent, the user's answer is checked with `accept` and kept as {{flow.ID}}. A photo or other media given here is sent before the question.
 */
export interface FlowStep {
  /**
   * The step's name; its answer is {{flow.ID}} in later steps and in done.
   */
  id: string;
  ask: LocalizedString14;
  accept?: Accept;
  retry?: LocalizedString16;
  retry_past?: LocalizedString17;
  retry_range?: LocalizedString18;
  /**
   * How a `choice` step shows its options: `inline` (buttons under the question, the default), `keyboard` (a reply keyboard) or `none`. A press counts as choosing the option.
   */
  buttons?: "inline" | "keyboard" | "none";
  photo?: MediaFile21;
  document?: MediaFile22;
  video?: MediaFile23;
  audio?: MediaFile24;
  voice?: MediaFile25;
  animation?: MediaFile26;
  sticker?: MediaFile27;
  location?: Location;
  contact?: Contact;
  album?: Album;
  caption?: LocalizedString19;
}
export interface Accept2 {
  /**
   * A regular expression (RE2 syntax) searched in the answer; the named group (?<value>...) is kept, or the whole match.
   */
  pattern?: string;
  number?: AcceptNumber;
  choice?: AcceptChoice;
  date?: AcceptDate;
  time?: AcceptTime;
  /**
   * Compare the pattern or the choice words with case (default false).
   */
  case_sensitive?: boolean;
  call?: Call3;
  /**
   * true: the answer is a photo (kept as its file_id); anything else asks again.
   */
  photo?: true;
  /**
   * true: the answer is a document (kept as its file_id); anything else asks again.
   */
  document?: true;
  /**
   * true: the answer is a video (kept as its file_id); anything else asks again.
   */
  video?: true;
  /**
   * true: the answer is a voice (kept as its file_id); anything else asks again.
   */
  voice?: true;
  /**
   * true: the answer is a audio (kept as its file_id); anything else asks again.
   */
  audio?: true;
  /**
   * true: the answer is a sticker (kept as its file_id); anything else asks again.
   */
  sticker?: true;
  /**
   * true: the answer is a location (kept as "latitude,longitude"); anything else asks again.
   */
  location?: true;
  /**
   * true: the answer is a contact (kept as its phone number); anything else asks again.
   */
  contact?: true;
  /**
   * true: the answer is a animation (kept as its file_id); anything else asks again.
   */
  animation?: true;
}
/**
 * A number in a range (whole numbers unless decimal: true); the answer must be only the number.
 */
export interface AcceptNumber {
  min?: number;
  max?: number;
  /**
   * Also accept fractions such as 2.5 or 2,5.
   */
  decimal?: boolean;
}
/**
 * Options: the kept value (the key) and the words that choose it, compared with the whole answer without case; the key itself also chooses it. An option may be { words: [...], label: { en: Yes, de: Ja } }: its button shows the label in the user's language, and the label chooses it too.
 */
export interface AcceptChoice {
  [k: string]: string[] | ChoiceOption | undefined;
}
export interface ChoiceOption {
  /**
   * The words that choose this option.
   */
  words?: string[];
  label?: LocalizedString15;
}
/**
 * A date as people write it (today, tomorrow, friday, 24.12., 2026-12-24, 12/24; morgen, übermorgen, Freitag), kept as YYYY-MM-DD: {{flow.STEP}} shows it in the user's language, {{flow.STEP.iso}} as kept.
 */
export interface AcceptDate {
  /**
   * The earliest date taken: today, tomorrow, a date (YYYY-MM-DD), or days from today (60d; -7d for the past).
   */
  from?: string;
  /**
   * The latest date taken: today, tomorrow, a date (YYYY-MM-DD), or days from today (60d; -7d for the past).
   */
  to?: string;
}
/**
 * A time of day (19:00, 7pm, 19 Uhr), kept as HH:MM.
 */
export interface AcceptTime {
  /**
   * The earliest time taken (HH:MM).
   */
  from?: string;
  /**
   * The latest time taken (HH:MM).
   */
  to?: string;
}
export interface DoneBranch {
  when?: Conditions;
  open?: OpenCondition;
  set?: Assignments;
  reply?: LocalizedString20;
  call?: Call;
  on?: FlowCallBranches;
  /**
   * Also notify a backend (an outbox request, retried until it is answered 2xx). One, or a list.
   */
  notify?:
    | Notify
    | [Notify]
    | [Notify, Notify]
    | [Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify];
  /**
   * true: hand the user to a person when the flow ends here, after the branch's reply (see a rule's handoff); needs the configuration's handoff: block. A done branch with a call hands off from its on branches instead.
   */
  handoff?: boolean;
  photo?: MediaFile35;
  document?: MediaFile36;
  video?: MediaFile37;
  audio?: MediaFile38;
  voice?: MediaFile39;
  animation?: MediaFile40;
  sticker?: MediaFile41;
  location?: Location;
  contact?: Contact;
  album?: Album;
  caption?: LocalizedString22;
  remind?: Reminders;
  forget_reminder?: ForgetReminder;
  restrict?: Restrict;
  /**
   * Moderation: give the member who wrote every permission back; needs can_restrict_members.
   */
  unrestrict?: true;
  /**
   * Moderation: remove the member who wrote from the group and keep them out, for good (true) or for a while ({ for: 1d }); needs can_restrict_members.
   */
  ban?:
    | true
    | {
        /**
         * How long, e.g. 1h, 7d (the service treats under 30 seconds or over 366 days as for good).
         */
        for: string;
      };
  /**
   * Moderation: let the user back into the group (a member who is in it stays in it); supergroups only; needs can_restrict_members.
   */
  unban?: true;
  /**
   * Moderation (event: join_request): let the user in; needs can_invite_users.
   */
  approve?: true;
  /**
   * Moderation (event: join_request): turn the request down; needs can_invite_users.
   */
  decline?: true;
  /**
   * Moderation: pin the rule's reply (reply), the message that triggered it (message), or true: the reply when there is one; needs can_pin_messages in groups.
   */
  pin?: true | ("reply" | "message");
}
/**
 * The branches of a call, by outcome: `ok` (any 2xx not listed), `error` (no answer in time, a network error, a 5xx or any status not listed, an unreadable answer, an open circuit) and specific status codes (404, 409, ...).
 */
export interface FlowCallBranches {
  ok?: FlowCallBranch;
  error?: FlowCallBranch;
  [k: string]: FlowCallBranch | undefined;
}
/**
 * What a done branch does for one outcome of its call: reply, media, set and notify; templates may read {{result.PATH}} and {{result.status_code}}.
 *
 * This interface was referenced by `FlowCallBranches`'s JSON-Schema definition
 * via the `patternProperty` "^[1-5][0-9][0-9]$".
 */
export interface FlowCallBranch {
  reply?: LocalizedString20;
  set?: Assignments;
  /**
   * Also notify a backend (an outbox request, retried until it is answered 2xx). One, or a list.
   */
  notify?:
    | Notify
    | [Notify]
    | [Notify, Notify]
    | [Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify]
    | [Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify, Notify];
  photo?: MediaFile28;
  document?: MediaFile29;
  video?: MediaFile30;
  audio?: MediaFile31;
  voice?: MediaFile32;
  animation?: MediaFile33;
  sticker?: MediaFile34;
  location?: Location;
  contact?: Contact;
  album?: Album;
  caption?: LocalizedString21;
  /**
   * true: after this branch's reply, hand the user to a person (see a rule's handoff), e.g. when the backend fails. Needs the configuration's handoff: block.
   */
  handoff?: boolean;
}
/**
 * The languages the bot answers in (declare once, in any file): a user gets their stored choice (the user variable `language` by default), else their client's language (de-AT counts as de), else the default.
 */
export interface Languages {
  default: LanguageCode;
  /**
   * @minItems 1
   */
  supported: [LanguageCode, ...LanguageCode[]];
  /**
   * The user variable that holds a user's choice (default `language`, set with set: { user.language: de }).
   */
  variable?: string;
}
/**
 * Limits of the whole rule set (declare once, in any file). incoming: flood control, per user and chat.
 */
export interface Limits {
  incoming: IncomingLimit;
}
/**
 * Flood control: a user's messages in one chat beyond per_user within per are not answered (still handled); the first one over the limit is answered by an `event: flooding` rule. Example: { per_user: 10, per: 1m }.
 */
export interface IncomingLimit {
  /**
   * How many messages of one user in one chat are answered within `per` (1 to 100).
   */
  per_user: number;
  /**
   * The window: a number and a unit, s, m, h or d (e.g. 10s, 1m, 1h).
   */
  per: string;
}
/**
 * When unsure, ask (declare once): a message no rule matches gets "Did you mean:" and buttons for the closest rules instead of the fallback straight away; a press answers as that rule would.
 */
export interface Suggest {
  /**
   * true (the default): offer suggestions for a message no rule (other than a fallback) matches; false: never (the block stays, e.g. for `hearsay check`).
   */
  when_unmatched?: boolean;
  /**
   * true: also ask when a rule matched by its keywords, but the message is closer (by the suggestions' similarity) to another rule that may be suggested; the rule that matched is one of the suggestions. false (the default): a rule that matches answers.
   */
  when_contested?: boolean;
  /**
   * At most this many suggestions (1 to 10, default 3).
   */
  max?: number;
  text?: LocalizedString23;
  /**
   * fallback: a last button "None of these" that answers with the fallback rule.
   */
  none?: "fallback";
  none_label?: LocalizedString24;
}
/**
 * Opening hours: weekday keys (mon, mon-fri, sat,sun, daily) with "HH:MM-HH:MM" ranges (a list for several; an end before the start runs past midnight; 24:00 is the end of the day) or closed, and `closed:` dates (YYYY-MM-DD).
 */
export interface OpeningHours {
  /**
   * Dates on which it is closed whatever the weekday says (holidays): YYYY-MM-DD.
   */
  closed?: string[];
  [k: string]: string | [string, ...string[]] | string[] | undefined;
}
export interface Schedule2 {
  /**
   * A name unique among the schedules (letters, digits, '_', '-', '.'); in logs and metrics.
   */
  id: string;
  /**
   * Days and a time: "mon 09:00", "mon-fri 08:30", "sat,sun 10:00", "day 07:00" (every day), "1st 10:00" (a day of the month: 1st … 31st).
   */
  every?: string;
  /**
   * A cron expression: minute hour day-of-month month day-of-week (0 or 7 is Sunday), e.g. "0 9 * * 1" for Mondays at 09:00.
   */
  cron?: string;
  /**
   * The chat: a name declared under `chats:` in the configuration, or a chat id.
   */
  to: string | number;
  reply: LocalizedString26;
  /**
   * Send it as HTML or MarkdownV2. Default: plain text.
   */
  parse_mode?: "HTML" | "MarkdownV2";
  buttons?: InlineKeyboard;
  /**
   * Send it silently.
   */
  disable_notification?: boolean;
  late_after?: Duration2;
}
