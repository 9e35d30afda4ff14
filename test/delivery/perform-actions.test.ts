// The service's perform step: a message goes through the reply sender, a press is answered and a message
// edited with one attempt each; a refusal of a press or an edit is logged and counted, a 401 stops the update.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { Update } from '../../src/api/types.js';
import { ReplySender } from '../../src/delivery/reply-sender.js';
import type { Action } from '../../src/engine/actions.js';
import { createLogger } from '../../src/log/logger.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';
import { createActionPerformer } from '../../src/delivery/perform-actions.js';
import { FakeBotApi } from './fake-bot-api.js';
import { serviceApi } from '../support/service-api.js';
import { recordCapture } from '../support/log-capture.js';

function setup() {
  const api = new FakeBotApi();
  const { destination, lines } = recordCapture();
  const logger = createLogger({ level: 'debug', destination, pretty: false });
  const metrics = new ServiceMetrics({ processMetrics: false });
  const client = serviceApi(api, { logger, metrics });
  const perform = createActionPerformer({ sender: new ReplySender({ api: client, logger, metrics }), api: client, logger });
  const run = (actions: Action[]) => perform(actions, { update: { update_id: 1 } as Update, ruleId: 'r' }, new AbortController().signal);
  return { api, lines, metrics, run };
}

const edit: Action = {
  type: 'edit_message_text',
  chatId: 5,
  messageId: 9,
  text: 'Paid',
  parseMode: 'HTML',
  replyMarkup: { inline_keyboard: [[{ text: 'Receipt', callback_data: 'r' }]] },
};

describe('createActionPerformer', () => {
  it('sends a message with its keyboard or reply request, on the last part of a split text', async () => {
    const { api, run } = setup();
    const forceReply = { force_reply: true as const, selective: true };
    await run([{ type: 'send_message', chatId: -7, text: 'How many people?', replyToMessageId: 3, replyMarkup: forceReply }]);
    expect(api.sent).toEqual([
      { chat_id: -7, text: 'How many people?', reply_parameters: { message_id: 3, allow_sending_without_reply: true }, reply_markup: forceReply },
    ]);
    const buttons = { inline_keyboard: [[{ text: 'Yes', callback_data: 'y' }]] };
    await run([{ type: 'send_message', chatId: 5, text: 'x'.repeat(5000), replyMarkup: buttons }]);
    expect(api.sent.slice(1).map((p) => p.reply_markup)).toEqual([undefined, buttons]);
  });

  it('performs the actions in order: a message, an edit with its keyboard, and skips state changes', async () => {
    const { api, run } = setup();
    const outcome = await run([{ type: 'send_message', chatId: 5, text: 'hi' }, edit, { type: 'set_state', scope: 'user', key: 'k', value: 1 }]);
    expect(api.sent).toEqual([{ chat_id: 5, text: 'hi' }]);
    expect(api.edited).toEqual([
      { chat_id: 5, message_id: 9, text: 'Paid', parse_mode: 'HTML', reply_markup: { inline_keyboard: [[{ text: 'Receipt', callback_data: 'r' }]] } },
    ]);
    expect(outcome).toEqual({ sent: 1, dropped: false });
  });

  it('an edit the service refuses (message not modified) is logged and counted once, not retried', async () => {
    const { api, lines, metrics, run } = setup();
    api.editFailures.push(new ApiError('editmessagetext', 400, 'Bad Request: message is not modified'));
    expect(await run([edit])).toBeNull();
    expect(api.edited).toEqual([]);
    expect(lines.find((l) => l.msg === 'editmessagetext failed')).toMatchObject({ level: 40, chat_id: 5, message_id: 9 });
    expect((await metrics.render()).body).toContain('hearsay_errors_total{kind="rejected"} 1');
  });

  it('a 401 on an answer or an edit throws TokenRejectedError, so the update stays unhandled', async () => {
    const { api, run } = setup();
    api.editFailures.push(new ApiError('editmessagetext', 401, 'Unauthorized'));
    await expect(run([edit])).rejects.toMatchObject({ name: 'TokenRejectedError', method: 'editmessagetext' });
    api.answerFailures.push(new ApiError('answercallbackquery', 401, 'Unauthorized'));
    await expect(run([{ type: 'answer_callback', callbackQueryId: 'q' }])).rejects.toMatchObject({ name: 'TokenRejectedError' });
  });
});
