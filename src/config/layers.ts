// The settings' layers, merged per setting: default (from the SETTINGS table) < config file < environment
// < flags. Environment and flag strings are turned into the schema's types and checked; paths are resolved
// (a file's paths against the file). Every problem is collected, so one run shows everything to fix.
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { configSchema } from '../generated/config-schema.js';
import { redactTokenShapes } from '../log/secrets.js';
import { ConfigProblem, type ConfigSource } from './errors.js';
import type { LoadedConfigFile } from './file.js';
import { settingValueMessages } from './schema-messages.js';
import { SETTINGS, type SettingSpec } from './settings.js';

/** Where the raw values come from. */
export interface SettingSources {
  file: LoadedConfigFile | null;
  env: NodeJS.ProcessEnv;
  /** Flag values by setting key (`polling.timeout`), as given on the command line. */
  flags: Record<string, string | boolean | undefined>;
  cwd: string;
}

interface Layered {
  value: unknown;
  source: ConfigSource;
}

/** Every setting's chosen value and where it came from. */
export class ResolvedSettings {
  constructor(private readonly layers: ReadonlyMap<string, Layered>) {}

  get<T>(key: string): T {
    return this.layers.get(key)?.value as T;
  }

  sourceOf(key: string): ConfigSource {
    return this.layers.get(key)?.source ?? { kind: 'default' };
  }
}

/** Merges the layers of every setting; `problems` receives each wrong environment or flag value. */
export function resolveSettings(sources: SettingSources, problems: ConfigProblem[]): ResolvedSettings {
  const layers = new Map<string, Layered>();
  for (const spec of SETTINGS) {
    const chosen = chooseValue(spec, sources, problems);
    if (chosen) layers.set(spec.key, spec.kind === 'path' ? resolvePath(chosen, spec.key, sources) : chosen);
  }
  return new ResolvedSettings(layers);
}

/** The setting's default, read from its `defaultText` as an environment value would be; none for a computed one. */
export function defaultValue(spec: SettingSpec): unknown {
  if (spec.defaultText === undefined || spec.computedDefault) return undefined;
  const coerced = coerce(spec, spec.defaultText);
  if (typeof coerced === 'string') throw new Error(`the default of ${spec.key} is not a valid value: ${coerced}`);
  return coerced.value;
}

function chooseValue(spec: SettingSpec, { file, env, flags, cwd }: SettingSources, problems: ConfigProblem[]): Layered | undefined {
  const fallback = defaultValue(spec);
  let chosen: Layered | undefined = fallback !== undefined ? { value: fallback, source: { kind: 'default' } } : undefined;
  const inFile = file ? fileValue(file, spec.key) : undefined;
  if (file && inFile !== undefined) {
    chosen = { value: inFile, source: { kind: 'file', file: relative(cwd, file.path) || file.path, ...file.positionOf(spec.key) } };
  }
  const outside: Array<[ConfigSource, string | boolean | undefined]> = [
    [{ kind: 'env', name: spec.env }, env[spec.env]],
    [{ kind: 'flag', name: spec.flag ?? '' }, spec.flag ? flags[spec.key] : undefined],
  ];
  for (const [source, raw] of outside) {
    // An empty environment variable counts as unset, as in most tools.
    if (raw === undefined || raw === '') continue;
    const coerced = coerce(spec, raw);
    if (typeof coerced === 'string') {
      problems.push(new ConfigProblem(spec.key, source, coerced));
      continue;
    }
    // A URL setting is quoted back without a pasted `/bot<token>` segment.
    const messages = settingValueMessages(spec.key, coerced.value).map(withoutBotPath);
    if (messages.length > 0) {
      problems.push(...messages.map((m) => new ConfigProblem(spec.key, source, m)));
      continue;
    }
    chosen = { value: coerced.value, source };
  }
  return chosen;
}

/** A file's paths are relative to the file; the default data directory sits beside the file too. */
function resolvePath(chosen: Layered, key: string, { file, cwd }: SettingSources): Layered {
  const value = String(chosen.value);
  if (isAbsolute(value)) return chosen;
  const besideFile = file && (chosen.source.kind === 'file' || (chosen.source.kind === 'default' && key === 'data_dir'));
  return { ...chosen, value: resolve(besideFile ? dirname(file.path) : cwd, value) };
}

function schemaType(key: string): string | undefined {
  let node: { properties?: Record<string, unknown>; type?: string } = configSchema as never;
  for (const part of key.split('.')) node = node.properties?.[part] as typeof node;
  return node?.type;
}

/** Turns an environment or flag string into the type the schema wants, or returns a message. */
function coerce(spec: SettingSpec, raw: string | boolean): { value: unknown } | string {
  if (typeof raw === 'boolean') return { value: raw };
  const text = raw.trim();
  const got = spec.key === 'webhook.secret' ? '' : ` (got '${text}')`;
  const type = schemaType(spec.key);
  if (type === 'integer') return /^[+-]?\d+$/.test(text) ? { value: Number(text) } : `${spec.key} must be an integer${got}`;
  if (type === 'number') {
    const n = Number(text);
    return text !== '' && Number.isFinite(n) ? { value: n } : `${spec.key} must be a number${got}`;
  }
  if (type === 'boolean') {
    const lowered = text.toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(lowered)) return { value: true };
    if (['false', '0', 'no', 'off'].includes(lowered)) return { value: false };
    return `${spec.key} must be true or false${got}`;
  }
  return { value: text };
}

function fileValue(file: LoadedConfigFile, key: string): unknown {
  let node: unknown = file.content;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** A URL as it may be shown: a `/bot<token>` segment or anything token-shaped, if someone pasted one, is cut out. */
export function withoutBotPath(raw: string): string {
  return redactTokenShapes(raw.replace(/\/bot[^/?#]*/gi, '/bot<redacted>'));
}
