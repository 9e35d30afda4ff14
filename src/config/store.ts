// The `store` setting: where the ledger, the chat state and the shared rate limits live — the embedded
// file store in the data directory (the default, one instance), or a Redis server shared by replicas
// (`redis://host:port/db`, `rediss://` for TLS), or a Redis Cluster (`redis-cluster://host1:7000,host2:7001`,
// `rediss-cluster://` for TLS). The password comes from the URL, HEARSAY_STORE_PASSWORD or the file named by
// HEARSAY_STORE_PASSWORD_FILE, is registered as a secret at once and never shown.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Secrets } from '../log/secrets.js';
import { ConfigProblem, type ConfigSource } from './errors.js';

/** Where the service keeps what it must not lose. */
export type StoreConfig = { kind: 'file' } | RedisStoreConfig;

/** One Redis server's address. */
export interface RedisNode {
  host: string;
  port: number;
}

/** A Redis server (or a Redis Cluster) shared by every replica of one bot. */
export interface RedisStoreConfig {
  kind: 'redis';
  /** The URL as it may be shown: without any password. */
  url: string;
  /** The server's host (a cluster: its first node's, for messages). */
  host: string;
  port: number;
  /** `redis-cluster://`: the nodes to learn the cluster from (the client finds the others); one server: just it. */
  nodes: RedisNode[];
  /** A Redis Cluster, reached with ioredis's cluster client. */
  cluster: boolean;
  /** The logical database (the URL's path), 0 by default (always 0 in a cluster). */
  db: number;
  /** `rediss://`: TLS to the server. */
  tls: boolean;
  username: string | null;
  /** Never logged; registered with the process secrets as soon as it is read. */
  password: string | null;
}

const PASSWORD_ENV = 'HEARSAY_STORE_PASSWORD';
const PASSWORD_FILE_ENV = 'HEARSAY_STORE_PASSWORD_FILE';
/** Shortest password redacted wherever it appears (shorter ones would blank ordinary words; the URL form is always cut). */
const PASSWORD_REDACT_MIN = 4;

// `scheme://user:password@host…`: the user info runs to the last `@` (as a URL parser reads `redis://:p@ss@host`),
// the user name to the first `:` in it. A password holding an unencoded `/`, `?` or `#` makes the URL invalid,
// and its message must still not show any of it.
const USER_INFO = /^([a-z][a-z0-9+.-]*:\/\/[^:/]*):([\s\S]*)@/i;

/** The URL with any password cut out, for messages (the password itself is also a registered secret). */
export function storeUrlForDisplay(raw: string): string {
  return raw.replace(USER_INFO, '$1:<redacted>@');
}

/** Registers any password in a store URL as a secret before anything could echo the URL. */
export function registerStoreUrlSecret(raw: unknown, secrets: Secrets): void {
  if (typeof raw !== 'string') return;
  const value = raw.trim();
  // The password as written up to the last `@`, and as the URL parser takes it when that differs (an `@` in the path).
  const passwords = [USER_INFO.exec(value)?.[2], URL.canParse(value) ? new URL(value).password : undefined];
  for (const password of passwords) {
    if (!password) continue;
    secrets.add(password, PASSWORD_REDACT_MIN);
    try {
      secrets.add(decodeURIComponent(password), PASSWORD_REDACT_MIN);
    } catch {
      /* not percent-encoded */
    }
  }
}

/** Why a URL whose password holds characters a URL cannot carry as they are fails to parse, for its messages. */
function passwordHint(value: string): string {
  const password = USER_INFO.exec(value)?.[2] ?? '';
  return /[/?#]/.test(password) ? '; a password holding / ? or # must be percent-encoded in the URL, or set in HEARSAY_STORE_PASSWORD' : '';
}

/**
 * The store named by the setting's value (`file`, `redis://…`, `rediss://…`), with the password from the
 * URL or the environment; a ConfigProblem (its message never carrying the password) when it is wrong.
 */
export function readStoreSetting(raw: string, source: ConfigSource, env: NodeJS.ProcessEnv, cwd: string, secrets: Secrets): StoreConfig | ConfigProblem[] {
  const value = raw.trim();
  if (value === 'file') return { kind: 'file' };
  const shown = storeUrlForDisplay(value);
  const hint = passwordHint(value);
  const problem = (message: string) => [new ConfigProblem('store', source, message + hint)];
  if (/^rediss?-cluster:\/\//i.test(value)) return readClusterSetting(value, source, env, cwd, secrets);
  if (!/^rediss?:\/\//i.test(value) || !URL.canParse(value)) {
    return problem(`store must be file, redis://host:port/db, rediss://host:port/db or redis-cluster://host1:port1,host2:port2 (got '${shown}')`);
  }
  const url = new URL(value);
  if (!url.hostname) return problem(`store has no host (got '${shown}')`);
  const path = url.pathname.replace(/^\/+|\/+$/g, '');
  if (!/^\d{0,5}$/.test(path)) return problem(`store: the path must be a database number such as /0 (got '${shown}')`);
  if (url.search || url.hash) return problem(`store takes no query or fragment; give only redis://host:port/db (got '${shown}')`);
  const credentials = readCredentials(url, env, cwd, secrets);
  if (credentials instanceof ConfigProblem) return [credentials];
  const tls = url.protocol.toLowerCase() === 'rediss:';
  const node = nodeOf(url);
  return {
    kind: 'redis',
    url: `${tls ? 'rediss' : 'redis'}://${url.host}/${path || '0'}`,
    ...node,
    nodes: [node],
    cluster: false,
    db: path ? Number(path) : 0,
    tls,
    ...credentials,
  };
}

const nodeOf = (url: URL): RedisNode => ({ host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port ? Number(url.port) : 6379 });

/** The user name and password: from the URL or the environment (one place only). */
function readCredentials(
  url: URL,
  env: NodeJS.ProcessEnv,
  cwd: string,
  secrets: Secrets,
): { username: string | null; password: string | null } | ConfigProblem {
  const fromUrl = url.password ? decodeURIComponent(url.password) : null;
  const fromEnv = readPasswordEnv(env, cwd, secrets);
  if (fromEnv instanceof ConfigProblem) return fromEnv;
  if (fromUrl !== null && fromEnv !== null) {
    return new ConfigProblem('store', { kind: 'env', name: fromEnv.source }, `the store URL already carries a password; set it in one place only`);
  }
  return { username: url.username ? decodeURIComponent(url.username) : null, password: fromUrl ?? fromEnv?.password ?? null };
}

/**
 * `redis-cluster://[user:password@]host1:port1,host2:port2[/]`: the nodes to start from, each read as a
 * redis:// address would be (so the password is taken and percent-decoded the same way); no database (a
 * cluster has only 0), no query.
 */
function readClusterSetting(value: string, source: ConfigSource, env: NodeJS.ProcessEnv, cwd: string, secrets: Secrets): StoreConfig | ConfigProblem[] {
  const shown = storeUrlForDisplay(value);
  const problem = (message: string) => [new ConfigProblem('store', source, message + passwordHint(value))];
  const tls = /^rediss-/i.test(value);
  const rest = value.slice(value.indexOf('://') + 3);
  const at = USER_INFO.exec(value) ? rest.lastIndexOf('@') : -1;
  const userInfo = at >= 0 ? `${rest.slice(0, at)}@` : '';
  const [hosts = '', ...path] = rest.slice(at + 1).split('/');
  if (path.some((part) => part !== '' && part !== '0'))
    return problem(`store: a Redis Cluster has only database 0; give redis-cluster://host1:port1,host2:port2 (got '${shown}')`);
  const entries = hosts.split(',').map((entry) => entry.trim());
  const urls = entries.map((entry) => `redis://${userInfo}${entry}`);
  const bad = entries.findIndex((entry, i) => entry === '' || /[?#]/.test(entry) || !URL.canParse(urls[i]!) || !new URL(urls[i]!).hostname);
  if (bad >= 0 || /[?#]/.test(value)) {
    return problem(
      `store: redis-cluster:// takes a comma-separated list of host:port and nothing else, such as redis-cluster://host1:7000,host2:7001 (got '${shown}')`,
    );
  }
  const parsed = urls.map((url) => new URL(url));
  const credentials = readCredentials(parsed[0]!, env, cwd, secrets);
  if (credentials instanceof ConfigProblem) return [credentials];
  const nodes = parsed.map(nodeOf);
  return {
    kind: 'redis',
    url: `${tls ? 'rediss' : 'redis'}-cluster://${parsed.map((url) => url.host).join(',')}`,
    ...nodes[0]!,
    nodes,
    cluster: true,
    db: 0,
    tls,
    ...credentials,
  };
}

/** HEARSAY_STORE_PASSWORD or the file named by HEARSAY_STORE_PASSWORD_FILE; null when neither is set. */
function readPasswordEnv(env: NodeJS.ProcessEnv, cwd: string, secrets: Secrets): { password: string; source: string } | ConfigProblem | null {
  const direct = env[PASSWORD_ENV] || undefined;
  const file = env[PASSWORD_FILE_ENV]?.trim() || undefined;
  if (direct) secrets.add(direct, PASSWORD_REDACT_MIN);
  if (direct && file)
    return new ConfigProblem('store', { kind: 'env', name: PASSWORD_FILE_ENV }, `set either ${PASSWORD_ENV} or ${PASSWORD_FILE_ENV}, not both`);
  if (direct) return { password: direct, source: PASSWORD_ENV };
  if (!file) return null;
  let password: string;
  try {
    // Only the trailing newline an editor adds is dropped: a password may well start or end with spaces.
    password = readFileSync(resolve(cwd, file), 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return new ConfigProblem('store', { kind: 'env', name: PASSWORD_FILE_ENV }, `cannot read the store password file ${file} (${code})`);
  }
  secrets.add(password, PASSWORD_REDACT_MIN);
  if (!password) return new ConfigProblem('store', { kind: 'env', name: PASSWORD_FILE_ENV }, `the store password file ${file} is empty`);
  return { password, source: PASSWORD_FILE_ENV };
}
