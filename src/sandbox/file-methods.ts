// getfile and the downloads: a bot asks for a file by its file_id and downloads it from
// /file/bot<token>/<file_path> (up to 20 MB, as on the real service); a user downloads a file shown in one of
// their chats from GET /client/file?user=<id>&file_id=<id> (the page's images and links use it).
import type { File } from '@grammyjs/types';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { badRequest } from './api-failure.js';
import type { StoredFile } from './files.js';
import type { MethodContext } from './method-context.js';
import { stringParam, type Params } from './params.js';
import type { SandboxStore } from './store.js';

/** The largest file a bot may download through the Bot API. */
export const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

/** getfile: the File with the path to download it from, for files up to 20 MB. */
export function getFile({ store, bot }: MethodContext, params: Params): File {
  const fileId = stringParam(params, 'file_id') ?? '';
  if (fileId === '') throw badRequest('file_id not specified');
  const minted = store.files.minted(fileId);
  if (!minted) throw badRequest('invalid file_id');
  // Another bot's id names a file this bot cannot fetch.
  if (minted.owner !== bot.id) throw badRequest('wrong file_id or the file is temporarily unavailable');
  const { file } = minted;
  if (file.size > MAX_DOWNLOAD_BYTES) throw badRequest('file is too big');
  return { file_id: fileId, file_unique_id: file.uniqueId, file_size: file.size, file_path: file.path };
}

/** The download routes: the bots' (/file/bot<token>/<path>) and the users' (/client/file). */
export async function fileRoutes(app: FastifyInstance, { store }: { store: SandboxStore }): Promise<void> {
  app.get('/file/bot:token/*', async (request, reply) => {
    const { token, '*': path } = request.params as { token: string; '*': string };
    const bot = store.botByToken(token);
    const file = bot ? store.files.byPath(bot.id, path) : undefined;
    if (!file || file.size > MAX_DOWNLOAD_BYTES) return reply.code(404).send({ ok: false, error_code: 404, description: 'Not Found' });
    return sendBytes(reply, file);
  });

  app.get('/client/file', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const userId = Number(query.user);
    if (!Number.isSafeInteger(userId) || userId <= 0) throw badRequest('user must be a positive integer');
    const file = query.file_id ? store.files.lookup(query.file_id) : undefined;
    if (!file || !visibleTo(store, file, userId)) throw badRequest(`user ${userId} has no file with this file_id in their chats`);
    return sendBytes(reply, file);
  });
}

/** Whether one of the chats that show `file` is a chat of the user's (a private chat, or a group they are in). */
function visibleTo(store: SandboxStore, file: StoredFile, userId: number): boolean {
  for (const key of file.chats) {
    if (key.startsWith(`${userId}:`)) return true;
    const group = key.startsWith('group:') ? store.group(Number(key.slice('group:'.length))) : undefined;
    if (group?.memberIds.has(userId)) return true;
  }
  return false;
}

function sendBytes(reply: FastifyReply, file: StoredFile): FastifyReply {
  const type = file.mimeType ?? imageType(file.extension);
  void reply.header('content-type', type);
  if (file.fileName) void reply.header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.fileName)}`);
  return reply.send(file.data);
}

function imageType(extension: string): string {
  const types: Record<string, string> = { '.jpg': 'image/jpeg', '.png': 'image/png', '.gif': 'image/gif', '.webp': 'image/webp', '.bmp': 'image/bmp' };
  return types[extension] ?? 'application/octet-stream';
}
