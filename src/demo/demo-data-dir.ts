// Where the demo keeps its journal. The demo bot lives only as long as the in-memory sandbox, so its
// journal goes to a temporary directory removed at stop, instead of piling up in .hearsay-data; a
// data_dir chosen on purpose (flag, environment, config file: even `data_dir: .hearsay-data`, as the
// hearsay.yaml that `hearsay init` writes has it) is kept as it is.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceConfig } from '../config/index.js';

export interface DemoDataDir {
  /** The data_dir flag to run the demo with, when it is a temporary one. */
  flag: string | undefined;
  /** Removes the temporary directory (nothing for a chosen one). */
  remove(): Promise<void>;
}

export async function demoDataDir(settings: Pick<ServiceConfig, 'dataDirChosen'>): Promise<DemoDataDir> {
  if (settings.dataDirChosen) return { flag: undefined, remove: async () => undefined };
  const dir = await mkdtemp(join(tmpdir(), 'hearsay-demo-'));
  return { flag: dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
