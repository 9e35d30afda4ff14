// The shape a webhook body must have before it is accepted: a Telegram Update with an integer update_id
// and, when it carries a message, the message fields the engine relies on. Unknown fields are allowed
// (the service adds new ones over time).

const chat = {
  type: 'object',
  required: ['id', 'type'],
  properties: {
    id: { type: 'integer' },
    type: { type: 'string' },
  },
} as const;

const user = {
  type: 'object',
  required: ['id', 'is_bot', 'first_name'],
  properties: {
    id: { type: 'integer' },
    is_bot: { type: 'boolean' },
    first_name: { type: 'string' },
  },
} as const;

const message = {
  type: 'object',
  required: ['message_id', 'date', 'chat'],
  properties: {
    message_id: { type: 'integer' },
    date: { type: 'integer' },
    chat,
    from: user,
    text: { type: 'string' },
    entities: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'offset', 'length'],
        properties: { type: { type: 'string' }, offset: { type: 'integer', minimum: 0 }, length: { type: 'integer', minimum: 0 } },
      },
    },
  },
} as const;

export const webhookUpdateSchema = {
  type: 'object',
  required: ['update_id'],
  properties: {
    // Beyond 2^53 - 1 a JavaScript number cannot hold the id exactly (it could not be confirmed or deduplicated).
    update_id: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    message,
    edited_message: message,
    channel_post: message,
  },
} as const;
