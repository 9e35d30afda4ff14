// Generated from schemas/tests.schema.json by scripts/generate-schema-modules.mjs; do not edit.
// Edit the schema and run `npm run build`.

export const testsSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://hearsay.dev/schemas/tests.schema.json",
  "title": "TestFile",
  "description": "A hearsay conversation test file: conversations with the bot, step by step, and what the bot must answer. Run with `hearsay test`. Reference: docs/testing.md.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "tests"
  ],
  "properties": {
    "rules": {
      "description": "The rule file or directory these tests run against, relative to this file. Default: the --rules option of `hearsay test` (rules/).",
      "type": "string",
      "minLength": 1
    },
    "bot": {
      "description": "The bot under test.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "username": {
          "description": "The bot's username without @ (for /cmd@bot and @mentions). Default: hearsay_test_bot.",
          "type": "string",
          "pattern": "^[A-Za-z][A-Za-z0-9_]{3,31}$"
        }
      }
    },
    "tests": {
      "description": "The conversations; each starts with no variables set and no flow open.",
      "type": "array",
      "minItems": 1,
      "items": {
        "$ref": "#/$defs/test"
      }
    },
    "backends": {
      "description": "Canned answers of the backends the rules call (hearsay test never calls a real one): per backend, per request as `METHOD /path` (the path as the rule fills it, with its query), what it answers. A test's own `backends` add to the file's and replace the file's answer for the same request.",
      "type": "object",
      "propertyNames": {
        "pattern": "^[A-Za-z][A-Za-z0-9_-]{0,63}$"
      },
      "additionalProperties": {
        "type": "object",
        "propertyNames": {
          "pattern": "^(GET|POST|PUT|PATCH|DELETE) /\\S*$"
        },
        "additionalProperties": {
          "$ref": "#/$defs/cannedAnswer"
        }
      }
    },
    "handoff": {
      "$ref": "#/$defs/handoff",
      "description": "Hand-off settings for every test of the file (a test's own `handoff` replaces them)."
    }
  },
  "$defs": {
    "test": {
      "title": "ConversationTest",
      "description": "One conversation: who talks, where, and the steps.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name",
        "steps"
      ],
      "properties": {
        "name": {
          "description": "Shown in the report; unique within the file.",
          "type": "string",
          "minLength": 1
        },
        "clock": {
          "description": "Where this test's clock starts: a date and time with its offset, e.g. \"2026-11-27T20:00:00+01:00\" (default: Monday 5 January 2026, 09:00 UTC). `wait` moves it; opening hours and flow timeouts see it as the bot would.",
          "type": "string",
          "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"
        },
        "user": {
          "$ref": "#/$defs/user",
          "description": "The user who talks (default: Ann, id 1001). With `users`, the first of them."
        },
        "users": {
          "description": "Several users by a short name; a step picks one with `from:`.",
          "type": "object",
          "minProperties": 1,
          "propertyNames": {
            "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"
          },
          "additionalProperties": {
            "$ref": "#/$defs/user"
          }
        },
        "chat": {
          "$ref": "#/$defs/chat",
          "description": "Where they talk (default: private, each user in their own private chat with the bot)."
        },
        "chats": {
          "description": "Several chats by a short name; a step picks one with `in:`. The first is the default.",
          "type": "object",
          "minProperties": 1,
          "propertyNames": {
            "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"
          },
          "additionalProperties": {
            "$ref": "#/$defs/chat"
          }
        },
        "steps": {
          "description": "What happens, in order, and what the bot must do after each step.",
          "type": "array",
          "minItems": 1,
          "items": {
            "$ref": "#/$defs/step"
          }
        },
        "backends": {
          "$ref": "#/properties/backends"
        },
        "handoff": {
          "$ref": "#/$defs/handoff"
        }
      },
      "not": {
        "anyOf": [
          {
            "required": [
              "user",
              "users"
            ]
          },
          {
            "required": [
              "chat",
              "chats"
            ]
          }
        ]
      }
    },
    "user": {
      "title": "TestUser",
      "description": "A user as the service describes them.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "first_name": {
          "type": "string",
          "minLength": 1
        },
        "last_name": {
          "type": "string"
        },
        "username": {
          "type": "string",
          "pattern": "^[A-Za-z][A-Za-z0-9_]{3,31}$"
        },
        "language_code": {
          "description": "An IETF language tag, e.g. de or pt-BR.",
          "type": "string",
          "pattern": "^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"
        },
        "id": {
          "type": "integer",
          "minimum": 1,
          "maximum": 9007199254740991
        }
      }
    },
    "chat": {
      "title": "TestChat",
      "description": "private (each user's own chat with the bot), group or supergroup, or a mapping with details.",
      "oneOf": [
        {
          "type": "string",
          "enum": [
            "private",
            "group",
            "supergroup"
          ]
        },
        {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "type"
          ],
          "properties": {
            "type": {
              "type": "string",
              "enum": [
                "private",
                "group",
                "supergroup"
              ]
            },
            "title": {
              "type": "string",
              "minLength": 1
            },
            "id": {
              "description": "A group's id is negative.",
              "type": "integer",
              "maximum": -1
            },
            "privacy": {
              "description": "Privacy mode (the service's default, true): in a group the bot receives only commands, mentions of it and replies to its messages.",
              "type": "boolean"
            },
            "admin": {
              "description": "The bot is an administrator of this group: `true` with every right, or a list of rights. It then receives every message, and its moderation calls (delete, restrict, ban, pin, approve) are recorded; without the right a call needs, the service refuses it.",
              "oneOf": [
                {
                  "type": "boolean"
                },
                {
                  "type": "array",
                  "minItems": 1,
                  "uniqueItems": true,
                  "items": {
                    "type": "string",
                    "enum": [
                      "can_delete_messages",
                      "can_restrict_members",
                      "can_pin_messages",
                      "can_invite_users"
                    ]
                  }
                }
              ]
            },
            "forum": {
              "description": "A supergroup with topics (is_forum): the hand-off opens one topic per customer there.",
              "type": "boolean"
            }
          }
        }
      ]
    },
    "step": {
      "title": "TestStep",
      "description": "One thing that happens (say, send, press, wait, join, leave, request_join), then what the bot must do (`expect`) what it must remember (`state`) and which backend requests it made (`expect_call`).",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "say": {
          "description": "The user sends this text.",
          "type": "string",
          "minLength": 1
        },
        "press": {
          "description": "The user presses a button on the bot's latest message that has it: by its text, `{ data: ... }` by its callback data, or `{ suggestion: RULE }` the suggestion of that rule (`suggest:`). A reply-keyboard button sends its text.",
          "oneOf": [
            {
              "type": "string",
              "minLength": 1
            },
            {
              "type": "object",
              "additionalProperties": false,
              "minProperties": 1,
              "maxProperties": 1,
              "properties": {
                "text": {
                  "type": "string",
                  "minLength": 1
                },
                "data": {
                  "type": "string",
                  "minLength": 1
                },
                "suggestion": {
                  "description": "The id of a rule the bot offered among its suggestions (`suggest:`).",
                  "type": "string",
                  "minLength": 1
                }
              }
            }
          ]
        },
        "send": {
          "title": "TestSend",
          "description": "The user sends a photo, a document, a video, a voice message, an audio file, a sticker or an animation (named by a file name; no file is read), a location or a contact, with an optional caption.",
          "type": "object",
          "additionalProperties": false,
          "minProperties": 1,
          "properties": {
            "photo": {
              "type": "string",
              "minLength": 1
            },
            "document": {
              "type": "string",
              "minLength": 1
            },
            "video": {
              "type": "string",
              "minLength": 1
            },
            "voice": {
              "type": "string",
              "minLength": 1
            },
            "audio": {
              "type": "string",
              "minLength": 1
            },
            "sticker": {
              "type": "string",
              "minLength": 1
            },
            "animation": {
              "type": "string",
              "minLength": 1
            },
            "location": {
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
                }
              }
            },
            "contact": {
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
                }
              }
            },
            "caption": {
              "type": "string",
              "minLength": 1
            }
          },
          "oneOf": [
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
                "animation"
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
            }
          ]
        },
        "wait": {
          "description": "The frozen clock moves on by this much (90s, 15m, 2h, 1d); flow timeouts that fall due fire.",
          "type": "string",
          "pattern": "^\\d+[smhd]$"
        },
        "join": {
          "$ref": "#/$defs/who",
          "description": "These users join the chat."
        },
        "leave": {
          "$ref": "#/$defs/who",
          "description": "These users leave the chat."
        },
        "request_join": {
          "description": "This user (a name under `users`) asks to join the group (`in`): the bot, an administrator with can_invite_users, gets a chat_join_request; `event: join_request` rules and flows answer it (a flow's questions go to the user's private chat).",
          "type": "string",
          "minLength": 1
        },
        "times": {
          "description": "With `say` or `send`: the user sends it this many times in a row, within the same second (a flood); `expect` lists what the bot did across them all, in order.",
          "type": "integer",
          "minimum": 1,
          "maximum": 1000
        },
        "from": {
          "description": "Which user (a name under `users`); default: the first.",
          "type": "string"
        },
        "as": {
          "description": "Which user (a name under `users`), as `from`: a staff member writing in the staff group (`as: sam, in: staff, topic_of: cleo`).",
          "type": "string"
        },
        "in": {
          "description": "Which chat (a name under `chats`); default: the first.",
          "type": "string"
        },
        "topic_of": {
          "description": "With `say` in the hand-off's staff group (a forum): the message goes into this user's topic (a name under `users`), which the bot opened when it handed them off.",
          "type": "string"
        },
        "reply": {
          "description": "Send `say` as a reply to the bot's latest message in the chat.",
          "type": "boolean"
        },
        "expect": {
          "$ref": "#/$defs/expect"
        },
        "state": {
          "description": "Variables after the step: user.NAME (the step's user), chat.NAME (the step's chat), member.NAME (the step's user in the step's chat), flow (the flow the user is in, null for none) and flow.STEP (an answer so far). null: not set.",
          "type": "object",
          "minProperties": 1,
          "propertyNames": {
            "pattern": "^(flow|(user|chat|member|flow)\\.[A-Za-z_][A-Za-z0-9_]{0,63})$"
          },
          "additionalProperties": {
            "anyOf": [
              {
                "type": "string"
              },
              {
                "type": "number"
              },
              {
                "type": "null"
              }
            ]
          }
        },
        "expect_call": {
          "description": "Backend requests the bot must have made (calls and notifies) since the last step that checked them, each exactly once: one, or a list.",
          "anyOf": [
            {
              "$ref": "#/$defs/expectedCall"
            },
            {
              "type": "array",
              "minItems": 1,
              "items": {
                "$ref": "#/$defs/expectedCall"
              }
            }
          ]
        }
      },
      "oneOf": [
        {
          "required": [
            "say"
          ]
        },
        {
          "required": [
            "send"
          ]
        },
        {
          "required": [
            "press"
          ]
        },
        {
          "required": [
            "wait"
          ]
        },
        {
          "required": [
            "join"
          ]
        },
        {
          "required": [
            "leave"
          ]
        },
        {
          "required": [
            "request_join"
          ]
        },
        {
          "required": [
            "state"
          ],
          "not": {
            "anyOf": [
              {
                "required": [
                  "say"
                ]
              },
              {
                "required": [
                  "send"
                ]
              },
              {
                "required": [
                  "press"
                ]
              },
              {
                "required": [
                  "wait"
                ]
              },
              {
                "required": [
                  "join"
                ]
              },
              {
                "required": [
                  "leave"
                ]
              },
              {
                "required": [
                  "request_join"
                ]
              }
            ]
          }
        },
        {
          "required": [
            "expect_call"
          ],
          "not": {
            "anyOf": [
              {
                "required": [
                  "say"
                ]
              },
              {
                "required": [
                  "send"
                ]
              },
              {
                "required": [
                  "press"
                ]
              },
              {
                "required": [
                  "wait"
                ]
              },
              {
                "required": [
                  "join"
                ]
              },
              {
                "required": [
                  "leave"
                ]
              },
              {
                "required": [
                  "request_join"
                ]
              },
              {
                "required": [
                  "state"
                ]
              }
            ]
          }
        }
      ]
    },
    "who": {
      "oneOf": [
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
    "expect": {
      "description": "What the bot does after the step, in order: `nothing` (silence), one output, or a list of outputs. Without `expect` the step's output is not checked. Left empty (`expect:`), `hearsay test --update` fills it in.",
      "anyOf": [
        {
          "type": "null"
        },
        {
          "$ref": "#/$defs/output"
        },
        {
          "type": "array",
          "items": {
            "$ref": "#/$defs/output"
          }
        }
      ]
    },
    "output": {
      "title": "ExpectedOutput",
      "description": "A message (its text as a string, { contains }, { pattern }, { text, buttons } or { suggestions }), an edit ({ edit: ... }), an answer to a press ({ answer: ... }), a moderation call ({ deleted: true }, { restricted: { user, for } } …), or `nothing`.",
      "anyOf": [
        {
          "type": "string"
        },
        {
          "type": "object",
          "additionalProperties": false,
          "minProperties": 1,
          "properties": {
            "text": {
              "$ref": "#/$defs/text"
            },
            "contains": {
              "type": "string",
              "minLength": 1
            },
            "pattern": {
              "description": "A regular expression in RE2 syntax (as in rules; linear time), found anywhere in the text, with case; (?i) at its start ignores case.",
              "type": "string",
              "minLength": 1
            },
            "buttons": {
              "description": "The buttons shown under the message (inline or reply keyboard), by their text: a list, or a list of rows.",
              "anyOf": [
                {
                  "type": "array",
                  "items": {
                    "type": "string"
                  }
                },
                {
                  "type": "array",
                  "items": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  }
                }
              ]
            },
            "deleted": {
              "description": "The bot deleted a message (the one that triggered the rule).",
              "const": true
            },
            "pinned": {
              "description": "The bot pinned a message (its reply or the user's).",
              "const": true
            },
            "restricted": {
              "description": "The bot muted this user (restrictChatMember).",
              "type": "object",
              "additionalProperties": false,
              "required": [
                "user"
              ],
              "properties": {
                "user": {
                  "description": "The test's user (a key of users).",
                  "type": "string",
                  "minLength": 1
                },
                "for": {
                  "description": "How long (90s, 15m, 2h, 1d); left out: any time.",
                  "type": "string",
                  "pattern": "^[0-9]+[smhd]$"
                },
                "until_changed": {
                  "description": "Until a rule lifts it.",
                  "const": true
                }
              }
            },
            "banned": {
              "description": "The bot banned this user (banChatMember); without `for`, for any time.",
              "type": "object",
              "additionalProperties": false,
              "required": [
                "user"
              ],
              "properties": {
                "user": {
                  "description": "The test's user (a key of users).",
                  "type": "string",
                  "minLength": 1
                },
                "for": {
                  "description": "How long (90s, 15m, 2h, 1d); left out: any time.",
                  "type": "string",
                  "pattern": "^[0-9]+[smhd]$"
                }
              }
            },
            "unrestricted": {
              "description": "The bot lifted this user's restriction.",
              "type": "object",
              "additionalProperties": false,
              "required": [
                "user"
              ],
              "properties": {
                "user": {
                  "description": "The test's user (a key of users).",
                  "type": "string",
                  "minLength": 1
                }
              }
            },
            "unbanned": {
              "description": "The bot unbanned this user.",
              "type": "object",
              "additionalProperties": false,
              "required": [
                "user"
              ],
              "properties": {
                "user": {
                  "description": "The test's user (a key of users).",
                  "type": "string",
                  "minLength": 1
                }
              }
            },
            "approved": {
              "description": "The bot approved this user's join request.",
              "type": "object",
              "additionalProperties": false,
              "required": [
                "user"
              ],
              "properties": {
                "user": {
                  "description": "The test's user (a key of users).",
                  "type": "string",
                  "minLength": 1
                }
              }
            },
            "declined": {
              "description": "The bot declined this user's join request.",
              "type": "object",
              "additionalProperties": false,
              "required": [
                "user"
              ],
              "properties": {
                "user": {
                  "description": "The test's user (a key of users).",
                  "type": "string",
                  "minLength": 1
                }
              }
            },
            "suggestions": {
              "description": "The message offers these rules as suggestions (`suggest:`), by rule id, best first.",
              "type": "array",
              "minItems": 1,
              "items": {
                "type": "string",
                "minLength": 1
              }
            },
            "edit": {
              "$ref": "#/$defs/text",
              "description": "The bot changes the text of one of its messages."
            },
            "answer": {
              "$ref": "#/$defs/text",
              "description": "The bot answers the press with this notification."
            },
            "alert": {
              "description": "With `answer`: shown as an alert the user must dismiss.",
              "type": "boolean"
            },
            "times": {
              "description": "This output this many times in a row, as after a `say` with `times` (`{ text: \"got it\", times: 10 }`, `{ deleted: true, times: 5 }`).",
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            },
            "in": {
              "description": "The chat the message went to (a name under `chats`; a private chat: a user's own chat with the bot); default: any chat.",
              "type": "string"
            },
            "topic_of": {
              "description": "The message went into this user's topic (a name under `users`) in the hand-off's staff group.",
              "type": "string"
            }
          }
        }
      ]
    },
    "text": {
      "description": "A text: exact (a string), or { contains: ... } or { pattern: ... } (a regular expression in RE2 syntax, as in rules, found anywhere).",
      "anyOf": [
        {
          "type": "string"
        },
        {
          "type": "object",
          "additionalProperties": false,
          "minProperties": 1,
          "maxProperties": 1,
          "properties": {
            "contains": {
              "type": "string",
              "minLength": 1
            },
            "pattern": {
              "type": "string",
              "minLength": 1
            }
          }
        }
      ]
    },
    "cannedAnswer": {
      "title": "CannedAnswer",
      "description": "What the backend answers: a status (default 200) with a JSON or text body, or `{ error: timeout }` / `{ error: network }` for no answer at all.",
      "oneOf": [
        {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "error"
          ],
          "properties": {
            "error": {
              "enum": [
                "timeout",
                "network"
              ]
            }
          }
        },
        {
          "type": "object",
          "additionalProperties": false,
          "not": {
            "required": [
              "json",
              "text"
            ]
          },
          "properties": {
            "status": {
              "type": "integer",
              "minimum": 100,
              "maximum": 599
            },
            "json": {
              "description": "The JSON answer ({{result.PATH}} reads it)."
            },
            "text": {
              "description": "A text answer.",
              "type": "string"
            }
          }
        }
      ]
    },
    "expectedCall": {
      "title": "ExpectedCall",
      "description": "A backend request the bot must have made since the last step that checked calls (exactly once): the backend, the method with the path as filled in, and optionally what the body must contain (the keys given, compared as JSON).",
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
          "type": "string",
          "pattern": "^[A-Za-z][A-Za-z0-9_-]{0,63}$"
        },
        "get": {
          "type": "string",
          "pattern": "^/\\S*$"
        },
        "post": {
          "type": "string",
          "pattern": "^/\\S*$"
        },
        "put": {
          "type": "string",
          "pattern": "^/\\S*$"
        },
        "patch": {
          "type": "string",
          "pattern": "^/\\S*$"
        },
        "delete": {
          "type": "string",
          "pattern": "^/\\S*$"
        },
        "body": {}
      }
    },
    "handoff": {
      "title": "TestHandoff",
      "description": "Hand-off to a person, as the configuration's `handoff:` block says it: `chat` names the staff group among the test's `chats` (a supergroup; `forum: true` for one topic per customer), `idle` and `end` as in the configuration. The bot is an administrator there and sees every message.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "chat"
      ],
      "properties": {
        "chat": {
          "description": "The staff group: a name under the test's `chats`.",
          "type": "string",
          "minLength": 1
        },
        "idle": {
          "description": "Hand back to the bot after this long without a staff message (90s, 15m, 2h, 1d); default: never.",
          "type": "string",
          "pattern": "^\\d+[smhd]$"
        },
        "end": {
          "description": "What staff write to hand the customer back; default [done, /done].",
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
 * Where they talk (default: private, each user in their own private chat with the bot).
 */
export type TestChat =
  | ("private" | "group" | "supergroup")
  | {
      type: "private" | "group" | "supergroup";
      title?: string;
      /**
       * A group's id is negative.
       */
      id?: number;
      /**
       * Privacy mode (the service's default, true): in a group the bot receives only commands, mentions of it and replies to its messages.
       */
      privacy?: boolean;
      /**
       * The bot is an administrator of this group: `true` with every right, or a list of rights. It then receives every message, and its moderation calls (delete, restrict, ban, pin, approve) are recorded; without the right a call needs, the service refuses it.
       */
      admin?:
        | boolean
        | [
            "can_delete_messages" | "can_restrict_members" | "can_pin_messages" | "can_invite_users",
            ...("can_delete_messages" | "can_restrict_members" | "can_pin_messages" | "can_invite_users")[]
          ];
      /**
       * A supergroup with topics (is_forum): the hand-off opens one topic per customer there.
       */
      forum?: boolean;
    };
/**
 * private (each user's own chat with the bot), group or supergroup, or a mapping with details.
 */
export type TestChat1 =
  | ("private" | "group" | "supergroup")
  | {
      type: "private" | "group" | "supergroup";
      title?: string;
      /**
       * A group's id is negative.
       */
      id?: number;
      /**
       * Privacy mode (the service's default, true): in a group the bot receives only commands, mentions of it and replies to its messages.
       */
      privacy?: boolean;
      /**
       * The bot is an administrator of this group: `true` with every right, or a list of rights. It then receives every message, and its moderation calls (delete, restrict, ban, pin, approve) are recorded; without the right a call needs, the service refuses it.
       */
      admin?:
        | boolean
        | [
            "can_delete_messages" | "can_restrict_members" | "can_pin_messages" | "can_invite_users",
            ...("can_delete_messages" | "can_restrict_members" | "can_pin_messages" | "can_invite_users")[]
          ];
      /**
       * A supergroup with topics (is_forum): the hand-off opens one topic per customer there.
       */
      forum?: boolean;
    };
/**
 * One thing that happens (say, send, press, wait, join, leave, request_join), then what the bot must do (`expect`) what it must remember (`state`) and which backend requests it made (`expect_call`).
 */
export type TestStep = Step & Step1 & Step & Step1;
export type Step =
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
 * The user sends a photo, a document, a video, a voice message, an audio file, a sticker or an animation (named by a file name; no file is read), a location or a contact, with an optional caption.
 */
export type TestSend = (
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
  photo?: string;
  document?: string;
  video?: string;
  voice?: string;
  audio?: string;
  sticker?: string;
  animation?: string;
  location?: {
    latitude: number;
    longitude: number;
  };
  contact?: {
    phone_number: string;
    first_name: string;
  };
  caption?: string;
};
/**
 * What the bot does after the step, in order: `nothing` (silence), one output, or a list of outputs. Without `expect` the step's output is not checked. Left empty (`expect:`), `hearsay test --update` fills it in.
 */
export type Expect = null | ExpectedOutput | ExpectedOutput[];
/**
 * A message (its text as a string, { contains }, { pattern }, { text, buttons } or { suggestions }), an edit ({ edit: ... }), an answer to a press ({ answer: ... }), a moderation call ({ deleted: true }, { restricted: { user, for } } …), or `nothing`.
 */
export type ExpectedOutput =
  | string
  | {
      text?: Text;
      contains?: string;
      /**
       * A regular expression in RE2 syntax (as in rules; linear time), found anywhere in the text, with case; (?i) at its start ignores case.
       */
      pattern?: string;
      /**
       * The buttons shown under the message (inline or reply keyboard), by their text: a list, or a list of rows.
       */
      buttons?: string[] | string[][];
      /**
       * The bot deleted a message (the one that triggered the rule).
       */
      deleted?: true;
      /**
       * The bot pinned a message (its reply or the user's).
       */
      pinned?: true;
      /**
       * The bot muted this user (restrictChatMember).
       */
      restricted?: {
        /**
         * The test's user (a key of users).
         */
        user: string;
        /**
         * How long (90s, 15m, 2h, 1d); left out: any time.
         */
        for?: string;
        /**
         * Until a rule lifts it.
         */
        until_changed?: true;
      };
      /**
       * The bot banned this user (banChatMember); without `for`, for any time.
       */
      banned?: {
        /**
         * The test's user (a key of users).
         */
        user: string;
        /**
         * How long (90s, 15m, 2h, 1d); left out: any time.
         */
        for?: string;
      };
      /**
       * The bot lifted this user's restriction.
       */
      unrestricted?: {
        /**
         * The test's user (a key of users).
         */
        user: string;
      };
      /**
       * The bot unbanned this user.
       */
      unbanned?: {
        /**
         * The test's user (a key of users).
         */
        user: string;
      };
      /**
       * The bot approved this user's join request.
       */
      approved?: {
        /**
         * The test's user (a key of users).
         */
        user: string;
      };
      /**
       * The bot declined this user's join request.
       */
      declined?: {
        /**
         * The test's user (a key of users).
         */
        user: string;
      };
      /**
       * The message offers these rules as suggestions (`suggest:`), by rule id, best first.
       *
       * @minItems 1
       */
      suggestions?: [string, ...string[]];
      /**
       * A text: exact (a string), or { contains: ... } or { pattern: ... } (a regular expression in RE2 syntax, as in rules, found anywhere).
       */
      edit?:
        | string
        | {
            contains?: string;
            pattern?: string;
          };
      /**
       * A text: exact (a string), or { contains: ... } or { pattern: ... } (a regular expression in RE2 syntax, as in rules, found anywhere).
       */
      answer?:
        | string
        | {
            contains?: string;
            pattern?: string;
          };
      /**
       * With `answer`: shown as an alert the user must dismiss.
       */
      alert?: boolean;
      /**
       * This output this many times in a row, as after a `say` with `times` (`{ text: "got it", times: 10 }`, `{ deleted: true, times: 5 }`).
       */
      times?: number;
      /**
       * The chat the message went to (a name under `chats`; a private chat: a user's own chat with the bot); default: any chat.
       */
      in?: string;
      /**
       * The message went into this user's topic (a name under `users`) in the hand-off's staff group.
       */
      topic_of?: string;
    };
/**
 * A text: exact (a string), or { contains: ... } or { pattern: ... } (a regular expression in RE2 syntax, as in rules, found anywhere).
 */
export type Text =
  | string
  | {
      contains?: string;
      pattern?: string;
    };
/**
 * A backend request the bot must have made since the last step that checked calls (exactly once): the backend, the method with the path as filled in, and optionally what the body must contain (the keys given, compared as JSON).
 */
export type ExpectedCall = ExpectedCall1 &
  ExpectedCall2 &
  ExpectedCall1 &
  ExpectedCall2 &
  ExpectedCall1 &
  ExpectedCall2;
export type ExpectedCall1 =
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
 * What the backend answers: a status (default 200) with a JSON or text body, or `{ error: timeout }` / `{ error: network }` for no answer at all.
 */
export type CannedAnswer =
  | {
      error: "timeout" | "network";
    }
  | {
      status?: number;
      /**
       * The JSON answer ({{result.PATH}} reads it).
       */
      json?: {
        [k: string]: unknown | undefined;
      };
      /**
       * A text answer.
       */
      text?: string;
    };

/**
 * A hearsay conversation test file: conversations with the bot, step by step, and what the bot must answer. Run with `hearsay test`. Reference: docs/testing.md.
 */
export interface TestFile {
  /**
   * The rule file or directory these tests run against, relative to this file. Default: the --rules option of `hearsay test` (rules/).
   */
  rules?: string;
  /**
   * The bot under test.
   */
  bot?: {
    /**
     * The bot's username without @ (for /cmd@bot and @mentions). Default: hearsay_test_bot.
     */
    username?: string;
  };
  /**
   * The conversations; each starts with no variables set and no flow open.
   *
   * @minItems 1
   */
  tests: [ConversationTest, ...ConversationTest[]];
  backends?: Backends;
  handoff?: TestHandoff1;
}
/**
 * One conversation: who talks, where, and the steps.
 */
export interface ConversationTest {
  /**
   * Shown in the report; unique within the file.
   */
  name: string;
  /**
   * Where this test's clock starts: a date and time with its offset, e.g. "2026-11-27T20:00:00+01:00" (default: Monday 5 January 2026, 09:00 UTC). `wait` moves it; opening hours and flow timeouts see it as the bot would.
   */
  clock?: string;
  user?: TestUser;
  /**
   * Several users by a short name; a step picks one with `from:`.
   */
  users?: {
    [k: string]: TestUser1 | undefined;
  };
  chat?: TestChat;
  /**
   * Several chats by a short name; a step picks one with `in:`. The first is the default.
   */
  chats?: {
    [k: string]: TestChat1 | undefined;
  };
  /**
   * What happens, in order, and what the bot must do after each step.
   *
   * @minItems 1
   */
  steps: [TestStep, ...TestStep[]];
  backends?: Backends;
  handoff?: TestHandoff;
}
/**
 * The user who talks (default: Ann, id 1001). With `users`, the first of them.
 */
export interface TestUser {
  first_name?: string;
  last_name?: string;
  username?: string;
  /**
   * An IETF language tag, e.g. de or pt-BR.
   */
  language_code?: string;
  id?: number;
}
/**
 * A user as the service describes them.
 */
export interface TestUser1 {
  first_name?: string;
  last_name?: string;
  username?: string;
  /**
   * An IETF language tag, e.g. de or pt-BR.
   */
  language_code?: string;
  id?: number;
}
export interface Step1 {
  /**
   * The user sends this text.
   */
  say?: string;
  /**
   * The user presses a button on the bot's latest message that has it: by its text, `{ data: ... }` by its callback data, or `{ suggestion: RULE }` the suggestion of that rule (`suggest:`). A reply-keyboard button sends its text.
   */
  press?:
    | string
    | {
        text?: string;
        data?: string;
        /**
         * The id of a rule the bot offered among its suggestions (`suggest:`).
         */
        suggestion?: string;
      };
  send?: TestSend;
  /**
   * The frozen clock moves on by this much (90s, 15m, 2h, 1d); flow timeouts that fall due fire.
   */
  wait?: string;
  /**
   * These users join the chat.
   */
  join?: string | [string, ...string[]];
  /**
   * These users leave the chat.
   */
  leave?: string | [string, ...string[]];
  /**
   * This user (a name under `users`) asks to join the group (`in`): the bot, an administrator with can_invite_users, gets a chat_join_request; `event: join_request` rules and flows answer it (a flow's questions go to the user's private chat).
   */
  request_join?: string;
  /**
   * With `say` or `send`: the user sends it this many times in a row, within the same second (a flood); `expect` lists what the bot did across them all, in order.
   */
  times?: number;
  /**
   * Which user (a name under `users`); default: the first.
   */
  from?: string;
  /**
   * Which user (a name under `users`), as `from`: a staff member writing in the staff group (`as: sam, in: staff, topic_of: cleo`).
   */
  as?: string;
  /**
   * Which chat (a name under `chats`); default: the first.
   */
  in?: string;
  /**
   * With `say` in the hand-off's staff group (a forum): the message goes into this user's topic (a name under `users`), which the bot opened when it handed them off.
   */
  topic_of?: string;
  /**
   * Send `say` as a reply to the bot's latest message in the chat.
   */
  reply?: boolean;
  expect?: Expect;
  /**
   * Variables after the step: user.NAME (the step's user), chat.NAME (the step's chat), member.NAME (the step's user in the step's chat), flow (the flow the user is in, null for none) and flow.STEP (an answer so far). null: not set.
   */
  state?: {
    [k: string]: string | number | null | undefined;
  };
  /**
   * Backend requests the bot must have made (calls and notifies) since the last step that checked them, each exactly once: one, or a list.
   */
  expect_call?: ExpectedCall | [ExpectedCall, ...ExpectedCall[]];
}
export interface ExpectedCall2 {
  backend: string;
  get?: string;
  post?: string;
  put?: string;
  patch?: string;
  delete?: string;
  body?: unknown;
}
/**
 * Canned answers of the backends the rules call (hearsay test never calls a real one): per backend, per request as `METHOD /path` (the path as the rule fills it, with its query), what it answers. A test's own `backends` add to the file's and replace the file's answer for the same request.
 */
export interface Backends {
  [k: string]:
    | {
        [k: string]: CannedAnswer | undefined;
      }
    | undefined;
}
/**
 * Hand-off to a person, as the configuration's `handoff:` block says it: `chat` names the staff group among the test's `chats` (a supergroup; `forum: true` for one topic per customer), `idle` and `end` as in the configuration. The bot is an administrator there and sees every message.
 */
export interface TestHandoff {
  /**
   * The staff group: a name under the test's `chats`.
   */
  chat: string;
  /**
   * Hand back to the bot after this long without a staff message (90s, 15m, 2h, 1d); default: never.
   */
  idle?: string;
  /**
   * What staff write to hand the customer back; default [done, /done].
   *
   * @minItems 1
   */
  end?: [string, ...string[]];
}
/**
 * Hand-off to a person, as the configuration's `handoff:` block says it: `chat` names the staff group among the test's `chats` (a supergroup; `forum: true` for one topic per customer), `idle` and `end` as in the configuration. The bot is an administrator there and sees every message.
 */
export interface TestHandoff1 {
  /**
   * The staff group: a name under the test's `chats`.
   */
  chat: string;
  /**
   * Hand back to the bot after this long without a staff message (90s, 15m, 2h, 1d); default: never.
   */
  idle?: string;
  /**
   * What staff write to hand the customer back; default [done, /done].
   *
   * @minItems 1
   */
  end?: [string, ...string[]];
}
