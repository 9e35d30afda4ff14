// Which rules the demo answers with. A rules/ folder where the user runs it wins; without one (the single
// executable run anywhere), the demo's own rules and the files they send, built in, are written to a temporary
// folder removed at stop. A rule path chosen on purpose that does not exist is an error that says what to do.
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { ServiceConfig } from '../config/index.js';
import { DEMO_MEDIA, DEMO_RULES } from '../generated/demo-rules.js';
import { HearsayError } from '../errors/hearsay-error.js';

export interface DemoRules {
  /** The rules flag to run the demo with, when the built-in rules are used. */
  flag: string | undefined;
  /** Removes the temporary folder (nothing for the user's rules). */
  remove(): Promise<void>;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The rules for the demo; `hearsay` is how the user starts hearsay, for the hint in an error. */
export async function demoRules(settings: ServiceConfig, hearsay: string, cwd: string = process.cwd()): Promise<DemoRules> {
  const keep: DemoRules = { flag: undefined, remove: async () => undefined };
  if (await exists(settings.rulesPath)) return keep;
  const defaultPath = resolve(settings.configFile ? dirname(settings.configFile) : cwd, 'rules');
  if (resolve(settings.rulesPath) !== defaultPath) {
    throw new HearsayError('HS_ERR_DEMO_NO_RULES', [settings.rulesPath, hearsay]);
  }
  const dir = await mkdtemp(join(tmpdir(), 'hearsay-demo-rules-'));
  for (const [name, content] of Object.entries(DEMO_RULES)) await writeFile(join(dir, name), content);
  // The photo the menu rule sends, next to the rules as in the repository's rules/media/.
  await mkdir(join(dir, 'media'));
  for (const [name, content] of Object.entries(DEMO_MEDIA)) await writeFile(join(dir, 'media', name), Buffer.from(content, 'base64'));
  return { flag: dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
