// The configuration module's public surface.
export { loadConfig, joinUrlPath, DEFAULT_CONFIG_FILE, type LoadConfigOptions } from './load.js';
export { ConfigError, ConfigProblem, type ConfigSource } from './errors.js';
export { SETTINGS, type SettingSpec } from './settings.js';
export { parseListenAddress, formatListenAddress } from './listen-address.js';
export { defaultBackend, isLoopback } from './backends.js';
export type { ServiceConfig, ListenAddress, IngressMode, LogLevel, LogFormat } from './types.js';
