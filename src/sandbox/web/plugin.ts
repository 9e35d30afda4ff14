// The web chat page of the sandbox: serves the page (from the generated web-assets module, so a
// single-file bundle needs no files beside it), the chat list, and the Server-Sent Events stream.
import type { FastifyInstance } from 'fastify';
import { WEB_ASSETS, type WebAssetName } from '../../generated/web-assets.js';
import { positiveInteger } from '../client-routes.js';
import type { SandboxStore, StoredMessageEvent } from '../store.js';
import { chatList } from './chat-list.js';
import { EventStreams } from './event-stream.js';
import { PageNotices } from './page-notices.js';

export interface WebChatPluginOptions {
  store: SandboxStore;
  onMessage(listener: (event: StoredMessageEvent) => void): () => void;
  /** Milliseconds between heartbeat comments on an idle event stream; 15 s by default. */
  heartbeatMs?: number;
  /** The chat to open; the demo sets it, `hearsay sandbox` leaves it unset (BotMaker). */
  notices?: PageNotices;
}

const CONTENT_TYPES: Record<WebAssetName, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'chat-view.js': 'text/javascript; charset=utf-8',
  'forum-view.js': 'text/javascript; charset=utf-8',
  'media-view.js': 'text/javascript; charset=utf-8',
  'chat-controls.js': 'text/javascript; charset=utf-8',
  'identity.js': 'text/javascript; charset=utf-8',
  'people.js': 'text/javascript; charset=utf-8',
  'group-admins.js': 'text/javascript; charset=utf-8',
  'render-text.js': 'text/javascript; charset=utf-8',
};

// The page loads only its own script and style and talks only to its own origin (images, videos and audio of
// messages included: the client API's /client/file).
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export async function webChatPlugin(app: FastifyInstance, options: WebChatPluginOptions): Promise<void> {
  const { store } = options;
  // A new id per sandbox: a page that sees another one after a reconnect knows the server restarted.
  const streams = new EventStreams(store, options.onMessage, options.heartbeatMs ?? 15_000, store.instance, options.notices ?? new PageNotices());

  const serve = (path: string, name: WebAssetName) =>
    app.get(path, async (_request, reply) =>
      reply
        .header('content-type', CONTENT_TYPES[name])
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', CONTENT_SECURITY_POLICY)
        .send(WEB_ASSETS[name]),
    );
  serve('/', 'index.html');
  serve('/app.css', 'app.css');
  serve('/app.js', 'app.js');
  serve('/chat-view.js', 'chat-view.js');
  serve('/forum-view.js', 'forum-view.js');
  serve('/media-view.js', 'media-view.js');
  serve('/chat-controls.js', 'chat-controls.js');
  serve('/identity.js', 'identity.js');
  serve('/people.js', 'people.js');
  serve('/group-admins.js', 'group-admins.js');
  serve('/render-text.js', 'render-text.js');

  app.get('/client/bots', async (request) => {
    const query = request.query as Record<string, string | undefined>;
    const userId = query.user === undefined ? undefined : positiveInteger(query.user, 'user');
    return { ok: true, result: chatList(store, userId) };
  });

  app.get('/client/events', (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const userId = positiveInteger(query.user, 'user');
    streams.open(userId, reply);
  });

  app.addHook('preClose', async () => streams.closeAll());
}
