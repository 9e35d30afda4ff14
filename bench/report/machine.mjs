// The machine and software versions a result was measured on, for BENCHMARKS.md.
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../contestants/registry.mjs';

async function packageVersion(name) {
  try {
    return JSON.parse(await readFile(path.join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'not installed';
  }
}

export async function machineInfo() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    platform: `${os.type()} ${os.release()}`,
    node: process.version,
    // Other work on the machine skews the numbers; the load average at the start says how much.
    loadAverage: os.loadavg().map((v) => Math.round(v * 100) / 100),
    versions: {
      hearsay: JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')).version,
      grammy: await packageVersion('grammy'),
      '@grammyjs/runner': await packageVersion('@grammyjs/runner'),
      telegraf: await packageVersion('telegraf'),
    },
  };
}
