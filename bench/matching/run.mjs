#!/usr/bin/env node
// Matching at scale: per rule-set size (10 … 100,000 rules), match time per message by
// trigger kind for hearsay's indexed rule set, its linear scan over the same compiled
// rules, and the bench's independent reference scan; plus load/reload time and RSS.
// Each size runs in its own process. Options: --sizes 10,100,1000,10000,100000, --out FILE.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { REPO_ROOT } from '../contestants/registry.mjs';
import { buildNeutralRules } from '../workload/neutral-rules.mjs';
import { writeHearsayRules } from '../workload/hearsay-yaml.mjs';
import { formatMatchingTable } from './table.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const execFileAsync = promisify(execFile);
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10,100,1000,10000,100000' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results', 'matching.json') },
  },
});
const sizes = values.sizes.split(',').map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 10)) throw new Error(`--sizes: comma-separated integers >= 10, got ${values.sizes}`);

const workDir = await mkdtemp(path.join(os.tmpdir(), 'hearsay-matching-'));
const results = [];
try {
  for (const size of sizes) {
    const dir = path.join(workDir, `rules-${size}`);
    const files = await writeHearsayRules(buildNeutralRules(size), dir);
    const { stdout } = await execFileAsync(
      process.execPath,
      [
        '--expose-gc',
        path.join(here, 'measure-size.mjs'),
        '--size',
        String(size),
        '--dir',
        dir,
        '--files',
        String(files),
        '--messages',
        size >= 100_000 ? '100' : '500',
      ],
      { maxBuffer: 1 << 20, timeout: 600_000 },
    );
    const result = JSON.parse(stdout);
    results.push(result);
    process.stderr.write(
      `${size} rules: reload ${result.reloadMs.toFixed(0)} ms, RSS ${result.rssAfterMb.toFixed(0)} MB, command ${(result.perKind.command.indexedNs / 1000).toFixed(1)} µs\n`,
    );
    await rm(dir, { recursive: true, force: true });
  }
  await mkdir(path.dirname(values.out), { recursive: true });
  await writeFile(values.out, `${JSON.stringify({ when: new Date().toISOString(), results }, null, 2)}\n`);
  process.stdout.write(`${formatMatchingTable(results)}\n\nresults written to ${path.relative(process.cwd(), values.out)}\n`);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
