// The demo's journal: a temporary directory (removed at stop) unless a data_dir was chosen on purpose.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { demoDataDir } from '../../src/demo/demo-data-dir.js';
import { Secrets } from '../../src/log/secrets.js';

const env = { BOT_TOKEN: '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };
let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'hearsay-demo-dir-'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('the demo data directory', () => {
  it('is a fresh temporary directory for the default data_dir, removed again', async () => {
    const settings = await loadConfig({ cwd, env, flags: {}, secrets: new Secrets() });
    const dir = await demoDataDir(settings);
    expect(dir.flag).toBeDefined();
    expect(dir.flag!.startsWith(tmpdir())).toBe(true);
    expect(existsSync(dir.flag!)).toBe(true);
    await dir.remove();
    expect(existsSync(dir.flag!)).toBe(false);
  });

  it('keeps a data_dir chosen by a flag or in the config file', async () => {
    const flagged = await loadConfig({ cwd, env, flags: { data_dir: join(cwd, 'mine') }, secrets: new Secrets() });
    expect((await demoDataDir(flagged)).flag).toBeUndefined();
    await writeFile(join(cwd, 'hearsay.yaml'), 'data_dir: state\n');
    const filed = await loadConfig({ cwd, env, flags: {}, secrets: new Secrets() });
    expect((await demoDataDir(filed)).flag).toBeUndefined();
  });

  it("keeps the config file's data_dir even when it is the default's folder, as init's hearsay.yaml writes it", async () => {
    await writeFile(join(cwd, 'hearsay.yaml'), 'data_dir: .hearsay-data\n');
    const filed = await loadConfig({ cwd, env, flags: {}, secrets: new Secrets() });
    expect((await demoDataDir(filed)).flag).toBeUndefined();
    const environment = await loadConfig({ cwd: tmpdir(), env: { ...env, HEARSAY_DATA_DIR: join(cwd, '.hearsay-data') }, flags: {}, secrets: new Secrets() });
    expect((await demoDataDir(environment)).flag).toBeUndefined();
  });
});
