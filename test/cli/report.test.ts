// `hearsay report` as an operator runs it: the built CLI on a JSON log written with log.unmatched, its table,
// --top and --json, standard input, and the usage errors.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARSAY_BIN } from '../support/cli.js';

const cli = HEARSAY_BIN;
let dir: string;

const handled = (fields: Record<string, unknown>) =>
  JSON.stringify({ level: 30, time: 1, update_id: 1, chat_id: 7, duration_ms: 1, ...fields, msg: 'update handled' });
const LOG = [
  handled({ rule: 'hours' }),
  handled({ rule: 'help', unmatched: 'fallback', text: 'Where is my order?' }),
  JSON.stringify({ level: 40, time: 1, msg: 'sendmessage failed; retrying' }),
  handled({ rule: null, unmatched: 'none', text: 'where is  my ORDER' }),
  handled({ rule: 'help', unmatched: 'fallback', text: 'Do you ship to Austria' }),
  handled({ rule: 'help', unmatched: 'fallback', text: 'WHERE IS MY ORDER!!' }),
  handled({ rule: 'help', unmatched: 'fallback', text: 'Gutschein?' }),
  handled({ rule: 'help', unmatched: 'fallback', text: 'do you ship to austria?' }),
  handled({ rule: 'help', unmatched: 'fallback' }),
  'not a JSON line',
  '',
].join('\n');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-report-'));
  await writeFile(join(dir, 'hearsay.log'), LOG);
  await writeFile(join(dir, 'pretty.log'), '[08:00:00.000] INFO: update handled\n    rule: "help"\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const report = (args: string[], input?: string) => spawnSync('node', [cli, 'report', ...args], { cwd: dir, encoding: 'utf8', input });

describe('hearsay report', () => {
  it('lists the unmatched texts, normalised and counted, most frequent first', () => {
    const result = report(['hearsay.log']);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        'hearsay.log: 8 updates handled, 7 unmatched (6 with their text)',
        '',
        'count  fallback  text',
        '    3         2  where is my order',
        '    2         2  do you ship to austria',
        '    1         1  gutschein',
        '',
      ].join('\n'),
    );
  });

  it('--top limits the list; --json gives the same as data; standard input without a file', () => {
    expect(report(['hearsay.log', '--top', '1']).stdout).toContain('    3         2  where is my order\n');
    expect(report(['hearsay.log', '--top', '1']).stdout).not.toContain('austria');
    const json = JSON.parse(report(['--json', '--top', '2'], LOG).stdout) as { handled: number; top: unknown[] };
    expect(json).toMatchObject({ handled: 8, unmatched: 7, withText: 6, notJson: 1 });
    expect(json.top).toEqual([
      { text: 'where is my order', count: 3, fallback: 2 },
      { text: 'do you ship to austria', count: 2, fallback: 2 },
    ]);
  });

  it('says why a report is empty: a pretty log, or unmatched lines without their text', async () => {
    expect(report(['pretty.log']).stdout).toContain('No JSON log lines found: run hearsay with log.format json');
    await writeFile(join(dir, 'no-text.log'), handled({ rule: 'help', unmatched: 'fallback' }));
    expect(report(['no-text.log']).stdout).toContain('turn on log.unmatched (--log-unmatched)');
  });

  it('a missing file or a bad --top is a usage error (exit 2) without a stack trace', () => {
    const missing = report(['nope.log']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('hearsay report: nope.log: no such file\n');
    const badTop = report(['hearsay.log', '--top', '0']);
    expect(badTop.status).toBe(2);
    expect(badTop.stderr).toContain('It must be an integer from 1 to 10000.');
    expect(badTop.stderr).not.toContain('    at ');
  });
});
