// A fast Bot API stand-in for the benchmark: a plain node:http server (not the sandbox,
// whose own cost would dominate) serving a preloaded queue of updates by getupdates
// (offset, limit, long poll) or by webhook push, and recording every sendmessage and
// answercallbackquery as a reply in the chat of its update.
import http from 'node:http';
import { chatOfUpdate } from '../workload/updates.mjs';
import { RunRecorder } from './recorder.mjs';
import { parseParams, readBody } from './request-params.mjs';
import { startWebhookPusher } from './webhook-pusher.mjs';
import { createArrivals } from './pacing.mjs';

const JSON_HEADERS = { 'content-type': 'application/json' };

function send(res, status, payload) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  res.writeHead(status, { ...JSON_HEADERS, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function fail(res, code, description) {
  send(res, code, { ok: false, error_code: code, description });
}

/**
 * @param {{ token: string, updates: object[], bot: {id:number, username:string, first_name:string}, maxConnections?: number, rate?: number }} options
 *   rate: updates/s arriving from the bot's first getupdates or setwebhook on (default: all queued at once); an
 *   update's latency then counts from its arrival
 * @returns {Promise<{ baseUrl: string, recorder: RunRecorder, close(): Promise<void> }>}
 */
export async function startStandIn({ token, updates, bot, maxConnections = 40, rate }) {
  const recorder = new RunRecorder(updates.length);
  const updateJson = updates.map((u) => JSON.stringify(u));
  const chatOf = (i) => chatOfUpdate(updates[i]);
  /** callback_query id -> chat, to record a press's answer in the chat of the pressed button. */
  const chatOfQuery = new Map(updates.filter((u) => u.callback_query).map((u) => [u.callback_query.id, chatOfUpdate(u)]));
  const prefix = `/bot${token}/`;
  let confirmed = 0; // index of the first unconfirmed update
  let pendingPoll = null; // { res, timer, limit, waitsForArrival }
  let webhook = null; // { url, pusher }
  let nextMessageId = 1;
  const arrivals = createArrivals({
    count: updateJson.length,
    rate,
    onArrival: (arrived) => {
      if (pendingPoll && pendingPoll.waitsForArrival && confirmed < arrived) {
        const { res, timer, limit } = pendingPoll;
        pendingPoll = null;
        clearTimeout(timer);
        answerUpdates(res, limit);
      }
      webhook?.pusher.arrived(arrived);
    },
  });

  function recordSendMessage(params) {
    const at = process.hrtime.bigint();
    const chatId = Number(params.chat_id);
    if (!params.text) return { error: [400, 'Bad Request: message text is empty'] };
    if (!Number.isFinite(chatId)) return { error: [400, 'Bad Request: chat_id is empty'] };
    recorder.reply(chatId, String(params.text), at);
    return {
      result: {
        message_id: nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: 'private' },
        from: { ...bot, is_bot: true },
        text: String(params.text),
      },
    };
  }

  function recordCallbackAnswer(params) {
    const at = process.hrtime.bigint();
    const chatId = chatOfQuery.get(String(params.callback_query_id));
    if (chatId === undefined) return { error: [400, 'Bad Request: query is too old and response timeout expired or query ID is invalid'] };
    recorder.reply(chatId, String(params.text ?? ''), at);
    return { result: true };
  }

  function answerUpdates(res, limit) {
    const end = Math.min(arrivals.arrived(), confirmed + limit);
    const at = process.hrtime.bigint();
    for (let i = confirmed; i < end; i += 1) recorder.handed(i, arrivals.paced ? arrivals.arrivedAt(i) : at);
    send(res, 200, `{"ok":true,"result":[${updateJson.slice(confirmed, end).join(',')}]}`);
  }

  function endPendingPoll(status) {
    if (!pendingPoll) return;
    const { res, timer } = pendingPoll;
    pendingPoll = null;
    clearTimeout(timer);
    if (status === 409) fail(res, 409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
    else send(res, 200, '{"ok":true,"result":[]}');
  }

  function getUpdates(res, params) {
    if (webhook) return fail(res, 409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
    endPendingPoll(409);
    if (params.offset !== undefined) {
      const offset = Number(params.offset);
      // update_id = index + 1, so offset o confirms indices below o - 1.
      if (offset > 0) confirmed = Math.min(updateJson.length, Math.max(confirmed, offset - 1));
    }
    const limit = Math.min(100, Math.max(1, Number(params.limit ?? 100) || 100));
    const timeout = Math.min(50, Math.max(0, Number(params.timeout ?? 0) || 0));
    if (confirmed < arrivals.arrived() || timeout === 0) return answerUpdates(res, limit);
    // A long poll waits for the next update to arrive (paced), or, at the end of the queue, out its timeout.
    const timer = setTimeout(() => endPendingPoll(200), timeout * 1000);
    pendingPoll = { res, timer, limit, waitsForArrival: confirmed < updateJson.length };
    res.on('close', () => {
      if (pendingPoll?.res === res) {
        clearTimeout(pendingPoll.timer);
        pendingPoll = null;
      }
    });
  }

  function setWebhook(res, params) {
    if (!params.url) return fail(res, 400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
    webhook?.pusher.stop();
    endPendingPoll(409);
    // As the service: 40 unless the bot asks for another number, at most 100.
    const connections = Math.min(100, Math.max(1, Number(params.max_connections ?? maxConnections) || maxConnections));
    const pusher = startWebhookPusher({
      url: params.url,
      secretToken: params.secret_token,
      maxConnections: connections,
      updateJson,
      chatOf,
      fromIndex: confirmed,
      arrivals,
      recorder,
      recordMethodCall: (method, payload) => {
        if (method === 'sendmessage') recordSendMessage(payload);
        else if (method === 'answercallbackquery') recordCallbackAnswer(payload);
        else recorder.unknownMethod(`webhook-answer:${method}`);
      },
    });
    webhook = { url: params.url, pusher };
    send(res, 200, { ok: true, result: true });
  }

  function call(method, params, res) {
    switch (method) {
      case 'getme':
        return send(res, 200, {
          ok: true,
          result: { ...bot, is_bot: true, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false },
        });
      case 'sendmessage': {
        const outcome = recordSendMessage(params);
        if (outcome.error) return fail(res, ...outcome.error);
        return send(res, 200, { ok: true, result: outcome.result });
      }
      case 'answercallbackquery': {
        const outcome = recordCallbackAnswer(params);
        if (outcome.error) return fail(res, ...outcome.error);
        return send(res, 200, { ok: true, result: outcome.result });
      }
      case 'getupdates':
        recorder.ready(process.hrtime.bigint());
        arrivals.start(recorder.readyAt);
        return getUpdates(res, params);
      case 'setwebhook':
        recorder.ready(process.hrtime.bigint());
        arrivals.start(recorder.readyAt);
        return setWebhook(res, params);
      case 'deletewebhook':
        webhook?.pusher.stop();
        webhook = null;
        return send(res, 200, { ok: true, result: true });
      case 'getwebhookinfo':
        return send(res, 200, { ok: true, result: { url: webhook?.url ?? '', has_custom_certificate: false, pending_update_count: 0 } });
      default:
        recorder.unknownMethod(method);
        return fail(res, 404, 'Not Found');
    }
  }

  const server = http.createServer(async (req, res) => {
    try {
      const path = req.url.split('?', 1)[0];
      if (!path.startsWith(prefix)) return fail(res, path.startsWith('/bot') ? 401 : 404, path.startsWith('/bot') ? 'Unauthorized' : 'Not Found');
      const method = path.slice(prefix.length).toLowerCase();
      const body = await readBody(req);
      call(method, parseParams(req, body), res);
    } catch (error) {
      fail(res, 400, `Bad Request: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    recorder,
    async close() {
      arrivals.stop();
      webhook?.pusher.stop();
      endPendingPoll(200);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
