// `hearsay check` as a user runs it: the built CLI on real files, its output and exit codes.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARSAY_BIN } from '../support/cli.js';

const cli = HEARSAY_BIN;
const repo = new URL('../..', import.meta.url).pathname;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-check-'));
  await mkdir(join(dir, 'good'));
  await writeFile(join(dir, 'good', '10-a.yaml'), 'rules:\n  - id: ping\n    text: ping\n    reply: pong\n    examples: [ping]\n');
  await writeFile(join(dir, 'good', '20-b.yml'), 'rules:\n  - id: again\n    text: PING\n    reply: never\n  - id: fb\n    fallback: true\n    reply: "?"\n');
  await mkdir(join(dir, 'bad'));
  await writeFile(
    join(dir, 'bad', 'bot.yaml'),
    "rules:\n  - id: greet\n    text: hi\n    pattern: '^hi'\n    reply: hello\n  - id: s\n    command: /start\n    reply: x\n",
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const check = (args: string[], cwd = dir) => spawnSync('node', [cli, 'check', ...args], { cwd, encoding: 'utf8' });

describe('hearsay check', () => {
  it('exits 0 for valid rules; warnings are printed and counted but do not fail', () => {
    const result = check(['good']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      "good/20-b.yml:3:11: warning: rule 'again' can never fire: rule 'ping' at " +
        'good/10-a.yaml:2:5 has the same text trigger and comes first\n' +
        '2 files, 3 rules, 0 problems, 1 warning\n',
    );
  });

  it('--strict turns warnings into a failure (exit 1), with the same output', () => {
    const result = check(['--strict', 'good']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('2 files, 3 rules, 0 problems, 1 warning\n');
    expect(check(['--strict', join('good', '10-a.yaml')]).status).toBe(0);
  });

  it('exits 1 and prints every problem as path:line:column: message, then the summary', () => {
    const result = check([join('bad', 'bot.yaml')]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe(
      "bad/bot.yaml:4:5: rule 'greet' has two triggers (text, pattern): keep one\n" +
        "bad/bot.yaml:7:14: write the command without the slash: 'start'\n" +
        '1 file, 2 rules, 2 problems\n',
    );
  });

  it('prints absolute paths for files outside the working directory', () => {
    const result = check([join(dir, 'bad')], repo);
    expect(result.stdout).toContain(`${join(dir, 'bad', 'bot.yaml')}:4:5: `);
  });

  it('checks rules/ by default: the shipped demo bot is valid', () => {
    const result = check([], repo);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\d+ files, \d+ rules, 0 problems\n$/);
  });

  it('says in its help what it prints and what each exit code means', () => {
    const help = spawnSync('node', [cli, 'check', '--help'], { encoding: 'utf8' }).stdout;
    expect(help).toContain('path:line:column: message');
    expect(help).toContain('Exit codes: 0 valid (warnings allowed, unless --strict), 1 problems found (or warnings with --strict), 2 usage error.');
    expect(help).toMatch(/--strict +fail on warnings too/);
  });

  it('exits 2 on a usage error: a missing path or an unknown flag', () => {
    const missing = check(['nowhere']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('nowhere: no such file or directory');
    const flag = check(['--frobnicate']);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain("unknown option '--frobnicate'");
  });

  it('checks calls against the backends of --config (or ./hearsay.yaml): an undeclared name, a bad notify, a missing error branch', async () => {
    const project = join(dir, 'shop');
    await mkdir(join(project, 'rules'), { recursive: true });
    await writeFile(
      join(project, 'hearsay.yaml'),
      'backends:\n  shop: { url: "https://shop.example.com/api", headers: { Authorization: "Bearer ${SHOP_API_TOKEN}" } }\n',
    );
    await writeFile(
      join(project, 'rules', 'bot.yaml'),
      [
        'rules:',
        '  - id: order-status',
        "    pattern: 'order (?<num>\\d+)'",
        '    call: { backend: shop, get: "/orders/{{match.num}}" }',
        '    on: { ok: { reply: "{{result.status}}" } }',
        '  - id: tell-crm',
        '    command: hi',
        '    reply: hi',
        '    notify: { backend: crm, post: /events }',
        '',
      ].join('\n'),
    );
    // No secret is needed to check: the names are what counts.
    const result = check(['rules'], project);
    expect(result.stdout).toBe(
      "rules/bot.yaml:5:9: warning: rule 'order-status' has no `error` branch: when shop does not answer (or answers an error), the user gets no answer; add error: { reply: ... }\n" +
        "rules/bot.yaml:9:13: the notify of rule 'tell-crm' is a POST without a body: give one (body: { ... }), since nobody reads the answer to learn it was empty\n" +
        "rules/bot.yaml:9:24: backend 'crm' is not declared in hearsay.yaml: add it under backends:, e.g. backends: { crm: { url: https://... } } (declared: shop)\n" +
        '1 file, 2 rules, 2 problems, 1 warning\n',
    );
    expect(result.status).toBe(1);
  });
});
