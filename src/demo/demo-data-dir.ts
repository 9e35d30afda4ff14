// Where the demo keeps its journal. The demo bot lives only as long as the in-memory sandbox, so its
// journal goes to a temporary directory removed at stop, instead of piling up in .hearsay-data; a
// data_dir chosen on purpose (flag, environment, config file) is kept as it is.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { ServiceConfig } from '../config/index.js';

export interface DemoDataDir {
  /** The data_dir flag to run the demo with, when it is a temporary one. */
  flag: string | undefined;
  /** Removes the temporary directory (nothing for a chosen one). */
  remove(): Promise<void>;
}

export async function demoDataDir(settings: ServiceConfig, cwd: string = process.cwd()): Promise<DemoDataDir> {
  const defaultDir = resolve(settings.configFile ? dirname(settings.configFile) : cwd, '.hearsay-data');
  if (resolve(settings.dataDir) !== defaultDir) return { flag: undefined, remove: async () => undefined };
  const dir = await mkdtemp(join(tmpdir(), 'hearsay-demo-'));
  return { flag: dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
