// The engine's configuration for the embedded demo: the usual layers (defaults < file < environment <
// flags), with the sandbox as base_url, the token the assistant gave, in webhook mode a local webhook the
// sandbox can reach (a configured public webhook.url would point elsewhere, so it is replaced), and the
// sandbox's demo shop as the `shop` backend the demo rules ask.
import { defaultBackend, isLoopback, loadConfig, type ServiceConfig } from '../config/index.js';
import { DEMO_SHOP_PATH } from '../sandbox/demo-shop.js';
import { formatListenAddress } from '../config/listen-address.js';
import type { Secrets } from '../log/secrets.js';
import { connectableHost, freePort, hostForUrl } from './free-port.js';

export interface DemoConfigOptions {
  configPath?: string;
  /** Flag values by setting key, as `hearsay run` takes them. */
  flags: Record<string, string | boolean | undefined>;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  secrets: Secrets;
}

// Stands in for the token until the assistant has issued the real one, so every other setting can be
// checked (and wrong ones reported, exit 2) before anything starts.
const PLACEHOLDER_TOKEN = '0:hearsay-demo-placeholder';
const PLACEHOLDER_WEBHOOK_URL = 'http://127.0.0.1:1';

function withoutToken(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy.BOT_TOKEN;
  delete copy.BOT_TOKEN_FILE;
  return copy;
}

/** Checks every setting; the result has the mode, the log settings and the webhook listen address. */
export function loadDemoSettings(options: DemoConfigOptions): Promise<ServiceConfig> {
  return loadConfig({
    ...(options.configPath !== undefined ? { configPath: options.configPath } : {}),
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    env: { ...withoutToken(options.env ?? process.env), BOT_TOKEN: PLACEHOLDER_TOKEN },
    flags: { ...options.flags, 'webhook.url': PLACEHOLDER_WEBHOOK_URL },
    secrets: options.secrets,
  });
}

/** The real configuration, once the sandbox listens at `sandboxUrl` and the assistant issued `token`. */
export async function loadDemoConfig(options: DemoConfigOptions, settings: ServiceConfig, sandboxUrl: string, token: string): Promise<ServiceConfig> {
  const flags: Record<string, string | boolean | undefined> = { ...options.flags, base_url: sandboxUrl };
  if (settings.mode === 'webhook') {
    const listen = settings.webhook.listen;
    const port = listen.port === 0 ? await freePort(listen.host) : listen.port;
    flags['webhook.listen'] = formatListenAddress({ host: listen.host, port });
    flags['webhook.url'] = `http://${hostForUrl(connectableHost(listen.host))}:${port}`;
  }
  const config = await loadConfig({
    ...(options.configPath !== undefined ? { configPath: options.configPath } : {}),
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    env: { ...withoutToken(options.env ?? process.env), BOT_TOKEN: token },
    flags,
    secrets: options.secrets,
  });
  return withDemoShop(config, sandboxUrl);
}

/**
 * The demo bot's order lookups ask the `shop` backend: the small shop this sandbox serves, unless the configuration
 * gives `shop` a shop of its own (a `shop` at some local sandbox's demo shop is pointed at this one).
 */
function withDemoShop(config: ServiceConfig, sandboxUrl: string): ServiceConfig {
  const declared = config.backends.shop;
  if (declared && !isDemoShop(declared.url)) return config;
  const url = `${sandboxUrl}${DEMO_SHOP_PATH}`;
  return { ...config, backends: { ...config.backends, shop: declared ? { ...declared, url } : defaultBackend('shop', url) } };
}

function isDemoShop(url: string): boolean {
  const parsed = new URL(url);
  return parsed.pathname.replace(/\/+$/, '') === DEMO_SHOP_PATH && isLoopback(parsed.hostname);
}
