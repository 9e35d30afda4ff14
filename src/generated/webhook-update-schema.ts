// Generated from schemas/webhook-update.schema.json by scripts/generate-schema-modules.mjs; do not edit.
// Edit the schema and run `npm run build`.

export const webhookUpdateSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "WebhookUpdate",
  "description": "The shape a webhook body must have before it is accepted: a Telegram Update with an integer update_id and, when it carries a message, the message fields the engine relies on. Unknown fields are allowed (the service adds new ones over time). update_id is at most 2^53 - 1: beyond it a JavaScript number cannot hold the id exactly (it could not be confirmed or deduplicated).",
  "type": "object",
  "required": [
    "update_id"
  ],
  "properties": {
    "update_id": {
      "type": "integer",
      "minimum": 0,
      "maximum": 9007199254740991
    },
    "message": {
      "type": "object",
      "required": [
        "message_id",
        "date",
        "chat"
      ],
      "properties": {
        "message_id": {
          "type": "integer"
        },
        "date": {
          "type": "integer"
        },
        "chat": {
          "type": "object",
          "required": [
            "id",
            "type"
          ],
          "properties": {
            "id": {
              "type": "integer"
            },
            "type": {
              "type": "string"
            }
          }
        },
        "from": {
          "type": "object",
          "required": [
            "id",
            "is_bot",
            "first_name"
          ],
          "properties": {
            "id": {
              "type": "integer"
            },
            "is_bot": {
              "type": "boolean"
            },
            "first_name": {
              "type": "string"
            }
          }
        },
        "text": {
          "type": "string"
        },
        "entities": {
          "type": "array",
          "items": {
            "type": "object",
            "required": [
              "type",
              "offset",
              "length"
            ],
            "properties": {
              "type": {
                "type": "string"
              },
              "offset": {
                "type": "integer",
                "minimum": 0
              },
              "length": {
                "type": "integer",
                "minimum": 0
              }
            }
          }
        }
      }
    },
    "edited_message": {
      "type": "object",
      "required": [
        "message_id",
        "date",
        "chat"
      ],
      "properties": {
        "message_id": {
          "type": "integer"
        },
        "date": {
          "type": "integer"
        },
        "chat": {
          "type": "object",
          "required": [
            "id",
            "type"
          ],
          "properties": {
            "id": {
              "type": "integer"
            },
            "type": {
              "type": "string"
            }
          }
        },
        "from": {
          "type": "object",
          "required": [
            "id",
            "is_bot",
            "first_name"
          ],
          "properties": {
            "id": {
              "type": "integer"
            },
            "is_bot": {
              "type": "boolean"
            },
            "first_name": {
              "type": "string"
            }
          }
        },
        "text": {
          "type": "string"
        },
        "entities": {
          "type": "array",
          "items": {
            "type": "object",
            "required": [
              "type",
              "offset",
              "length"
            ],
            "properties": {
              "type": {
                "type": "string"
              },
              "offset": {
                "type": "integer",
                "minimum": 0
              },
              "length": {
                "type": "integer",
                "minimum": 0
              }
            }
          }
        }
      }
    },
    "channel_post": {
      "type": "object",
      "required": [
        "message_id",
        "date",
        "chat"
      ],
      "properties": {
        "message_id": {
          "type": "integer"
        },
        "date": {
          "type": "integer"
        },
        "chat": {
          "type": "object",
          "required": [
            "id",
            "type"
          ],
          "properties": {
            "id": {
              "type": "integer"
            },
            "type": {
              "type": "string"
            }
          }
        },
        "from": {
          "type": "object",
          "required": [
            "id",
            "is_bot",
            "first_name"
          ],
          "properties": {
            "id": {
              "type": "integer"
            },
            "is_bot": {
              "type": "boolean"
            },
            "first_name": {
              "type": "string"
            }
          }
        },
        "text": {
          "type": "string"
        },
        "entities": {
          "type": "array",
          "items": {
            "type": "object",
            "required": [
              "type",
              "offset",
              "length"
            ],
            "properties": {
              "type": {
                "type": "string"
              },
              "offset": {
                "type": "integer",
                "minimum": 0
              },
              "length": {
                "type": "integer",
                "minimum": 0
              }
            }
          }
        }
      }
    }
  }
} as const;

/**
 * The shape a webhook body must have before it is accepted: a Telegram Update with an integer update_id and, when it carries a message, the message fields the engine relies on. Unknown fields are allowed (the service adds new ones over time). update_id is at most 2^53 - 1: beyond it a JavaScript number cannot hold the id exactly (it could not be confirmed or deduplicated).
 */
export interface WebhookUpdate {
  update_id: number;
  message?: {
    message_id: number;
    date: number;
    chat: {
      id: number;
      type: string;
    };
    from?: {
      id: number;
      is_bot: boolean;
      first_name: string;
    };
    text?: string;
    entities?: {
      type: string;
      offset: number;
      length: number;
    }[];
  };
  edited_message?: {
    message_id: number;
    date: number;
    chat: {
      id: number;
      type: string;
    };
    from?: {
      id: number;
      is_bot: boolean;
      first_name: string;
    };
    text?: string;
    entities?: {
      type: string;
      offset: number;
      length: number;
    }[];
  };
  channel_post?: {
    message_id: number;
    date: number;
    chat: {
      id: number;
      type: string;
    };
    from?: {
      id: number;
      is_bot: boolean;
      first_name: string;
    };
    text?: string;
    entities?: {
      type: string;
      offset: number;
      length: number;
    }[];
  };
}
