// Who the bot is, asked of the service once at start (getMe): its username for `/cmd@bot` and the logs, its
// numeric id for its own state directory. A refused token or an unreachable service is a HearsayError (HS_ERR_TOKEN_REFUSED, HS_ERR_API_UNREACHABLE).
import { ApiError } from '../api/errors.js';
import type { BotApi } from '../api/types.js';
import type { ServiceConfig } from '../config/types.js';
import { HearsayError } from '../errors/hearsay-error.js';

/** The bot as the service knows it. */
export interface BotIdentity {
  readonly id: number;
  readonly username: string;
  /** Set when the service is hearsay's sandbox (its getMe says so): the instance, to tell a restart from a revoked token. */
  readonly sandbox?: { readonly instance: string };
}

/** How long getMe may take at start. */
const GET_ME_TIMEOUT_MS = 15_000;

export async function identifyBot(api: BotApi, config: Pick<ServiceConfig, 'baseUrl' | 'tokenSource'>): Promise<BotIdentity> {
  try {
    const me = await api.getMe({ timeoutMs: GET_ME_TIMEOUT_MS });
    const sandbox = (me as { hearsay_sandbox?: { instance?: unknown } }).hearsay_sandbox;
    return { id: me.id, username: me.username, ...(typeof sandbox?.instance === 'string' ? { sandbox: { instance: sandbox.instance } } : {}) };
  } catch (error) {
    if (error instanceof ApiError && error.errorCode === 401) {
      const where = config.tokenSource === 'BOT_TOKEN_FILE' ? 'the file named by BOT_TOKEN_FILE' : 'BOT_TOKEN';
      throw new HearsayError('HS_ERR_TOKEN_REFUSED', [where]);
    }
    throw new HearsayError('HS_ERR_API_UNREACHABLE', [config.baseUrl, (error as Error).message], { cause: error });
  }
}
