// Pushes the stand-in's queue to a webhook the way the service does: up to
// `maxConnections` POSTs at once, at most one in flight per chat (per-chat order),
// failures retried. A JSON method call in the answer's body counts as a reply. Paced (`arrivals`), an update is
// pushed once it has arrived, and its latency counts from its arrival.
import http from 'node:http';

const RETRY_DELAY_MS = 20;

export function startWebhookPusher({ url, secretToken, maxConnections, updateJson, chatOf, fromIndex, arrivals, recorder, recordMethodCall }) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: maxConnections });
  const perChat = new Map();
  for (let i = fromIndex; i < updateJson.length; i += 1) {
    const chat = chatOf(i);
    if (!perChat.has(chat)) perChat.set(chat, []);
    perChat.get(chat).push(i);
  }
  const cursor = new Map([...perChat.keys()].map((c) => [c, 0]));
  // A chat is ready when its next update has arrived and none of its updates is in flight.
  let arrivedUpTo = arrivals.arrived();
  const ready = [...perChat.keys()].filter((c) => perChat.get(c)[0] < arrivedUpTo);
  let inFlight = 0;
  let stopped = false;
  const timers = new Set();

  const headers = { 'content-type': 'application/json' };
  if (secretToken) headers['x-telegram-bot-api-secret-token'] = secretToken;

  function pump() {
    while (!stopped && inFlight < maxConnections && ready.length > 0) {
      const chat = ready.shift();
      const index = perChat.get(chat)[cursor.get(chat)];
      inFlight += 1;
      send(chat, index);
    }
  }

  function finished(chat, ok) {
    inFlight -= 1;
    if (stopped) return;
    if (ok) {
      const next = cursor.get(chat) + 1;
      cursor.set(chat, next);
      // One not yet arrived makes the chat ready on arrival (below).
      if (next < perChat.get(chat).length && perChat.get(chat)[next] < arrivedUpTo) ready.push(chat);
      pump();
      return;
    }
    recorder.webhookFailures += 1;
    inFlight += 1;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (stopped) return;
      send(chat, perChat.get(chat)[cursor.get(chat)]);
    }, RETRY_DELAY_MS);
    timers.add(timer);
  }

  function send(chat, index) {
    const body = updateJson[index];
    recorder.handed(index, arrivals.paced ? arrivals.arrivedAt(index) : process.hrtime.bigint());
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const ok = res.statusCode >= 200 && res.statusCode < 300;
          if (ok && chunks.length > 0) recordAnswerCall(Buffer.concat(chunks));
          finished(chat, ok);
        });
        res.on('error', () => finished(chat, false));
      },
    );
    req.on('error', () => finished(chat, false));
    req.end(body);
  }

  function recordAnswerCall(buffer) {
    let payload;
    try {
      payload = JSON.parse(buffer.toString('utf8'));
    } catch {
      return;
    }
    if (payload && typeof payload.method === 'string') recordMethodCall(payload.method.toLowerCase(), payload);
  }

  /** Updates below `arrived` have arrived: each that is the next of an idle chat makes that chat ready. */
  function arrived(count) {
    for (let i = arrivedUpTo; i < Math.min(count, updateJson.length); i += 1) {
      const chat = chatOf(i);
      const queue = perChat.get(chat);
      // Its cursor at this update: the one before it is done, so the chat is idle and waits for this one.
      if (queue && queue[cursor.get(chat)] === i) ready.push(chat);
    }
    arrivedUpTo = Math.max(arrivedUpTo, count);
    pump();
  }

  pump();
  return {
    arrived,
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      agent.destroy();
    },
  };
}
