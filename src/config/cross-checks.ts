// Checks that need more than one setting, or more than the schema says: listen addresses, URLs, what
// webhook mode needs, the store, a TLS pair, a base_url with a token pasted into it. Each problem names its setting.
import { ConfigProblem } from './errors.js';
import { withoutBotPath, type ResolvedSettings } from './layers.js';
import type { Secrets } from '../log/secrets.js';
import { parseListenAddress } from './listen-address.js';
import { readStoreSetting, type StoreConfig } from './store.js';
import type { IngressMode, ListenAddress } from './types.js';

/** What the checks parsed on the way: listen addresses (null where unset or wrong) and the store. */
export interface CheckedValues {
  webhookListen: ListenAddress | null;
  adminListen: ListenAddress | null;
  store: StoreConfig;
}

/** What the store check reads besides the settings (its password may come from the environment or a file). */
export interface CheckContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  secrets: Secrets;
}

/** Adds every problem to `problems`; returns what it parsed. */
export function crossCheck(settings: ResolvedSettings, { env, cwd, secrets }: CheckContext, problems: ConfigProblem[]): CheckedValues {
  const listen = (key: string): ListenAddress | null => {
    const raw = settings.get<string | undefined>(key);
    if (raw === undefined) return null;
    const parsed = parseListenAddress(raw);
    if (typeof parsed !== 'string') return parsed;
    problems.push(new ConfigProblem(key, settings.sourceOf(key), `${key} ${parsed}`));
    return null;
  };
  const webhookListen = listen('webhook.listen');
  const adminListen = listen('admin.listen');
  checkUrls(settings, problems);
  const store = readStoreSetting(settings.get<string>('store'), settings.sourceOf('store'), env, cwd, secrets);
  if (Array.isArray(store)) problems.push(...store);
  // Replicas behind one URL: each calls setwebhook at start, so a secret made up by each would lock the others out.
  if (
    !Array.isArray(store) &&
    store.kind === 'redis' &&
    settings.get<IngressMode>('ingress.mode') === 'webhook' &&
    settings.get('webhook.secret') === undefined
  ) {
    problems.push(
      new ConfigProblem(
        'webhook.secret',
        settings.sourceOf('store'),
        'with a Redis store in webhook mode, set webhook.secret (HEARSAY_WEBHOOK_SECRET) to one value shared by every replica',
      ),
    );
  }
  checkWebhook(settings, problems);
  checkBaseUrlHasNoToken(settings, problems);
  return { webhookListen, adminListen, store: Array.isArray(store) ? { kind: 'file' } : store };
}

function checkUrls(settings: ResolvedSettings, problems: ConfigProblem[]): void {
  for (const key of ['base_url', 'webhook.url']) {
    const raw = settings.get<string | undefined>(key);
    if (raw !== undefined && !URL.canParse(raw)) {
      problems.push(new ConfigProblem(key, settings.sourceOf(key), `${key} is not a valid URL (got '${withoutBotPath(raw)}')`));
    }
  }
}

function checkWebhook(settings: ResolvedSettings, problems: ConfigProblem[]): void {
  if (settings.get<IngressMode>('ingress.mode') === 'webhook' && settings.get<string | undefined>('webhook.url') === undefined) {
    problems.push(
      new ConfigProblem(
        'webhook.url',
        settings.sourceOf('ingress.mode'),
        'ingress.mode is webhook but webhook.url is not set: give the public URL the service should post to (webhook.url, HEARSAY_WEBHOOK_URL or --webhook-url)',
      ),
    );
  }
  const cert = settings.get<string | undefined>('webhook.tls.cert');
  const key = settings.get<string | undefined>('webhook.tls.key');
  if ((cert === undefined) !== (key === undefined)) {
    const missing = cert === undefined ? 'webhook.tls.cert' : 'webhook.tls.key';
    const present = cert === undefined ? 'webhook.tls.key' : 'webhook.tls.cert';
    problems.push(
      new ConfigProblem(missing, settings.sourceOf(present), `${present} is set but ${missing} is not: give both the certificate and the key, or neither`),
    );
  }
}

function checkBaseUrlHasNoToken(settings: ResolvedSettings, problems: ConfigProblem[]): void {
  // A URL copied with its method path carries the token: refuse it without echoing it.
  if (/\/bot\d+:/.test(settings.get<string>('base_url') ?? '')) {
    problems.push(
      new ConfigProblem(
        'base_url',
        settings.sourceOf('base_url'),
        'base_url must be the API root without /bot<token>, such as https://api.telegram.org; the token goes in BOT_TOKEN or BOT_TOKEN_FILE',
      ),
    );
  }
}
