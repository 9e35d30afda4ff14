// `hearsay check` with the configuration: a rule's send, forward and copy to a chat hearsay.yaml does not
// declare, and a hand-off when hearsay.yaml has no `handoff:` block, are problems at their file:line:column.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HEARSAY_BIN } from '../support/cli.js';

const RULES = [
  'rules:',
  '  - id: complaint',
  '    keywords: [complaint]',
  '    reply: "Sorry to hear that!"',
  '    send: { to: staf, text: "Complaint: {{text}}" }',
  '  - id: photos',
  '    keywords: [photo]',
  '    forward: desk',
  '    copy: [staff, archive]',
  '  - id: human',
  '    keywords: [human]',
  '    handoff: true',
  '    reply: "A colleague will answer."',
  '  - id: waiting',
  '    command: status',
  '    when: { handoff: true }',
  '    during_handoff: true',
  '    reply: "A colleague is on it."',
  '',
].join('\n');

describe('hearsay check: chats and hand-off against the configuration', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function project(config: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'hearsay-check-handoff-'));
    dirs.push(dir);
    await mkdir(join(dir, 'rules'));
    await writeFile(join(dir, 'hearsay.yaml'), config);
    await writeFile(join(dir, 'rules', 'bot.yaml'), RULES);
    return dir;
  }
  const check = (cwd: string) => spawnSync('node', [HEARSAY_BIN, 'check', 'rules'], { cwd, encoding: 'utf8' });

  it('reports send, forward and copy to undeclared chats, and a hand-off without a handoff: block', async () => {
    const result = check(await project('chats:\n  staff: -1001234567890\n'));
    const lines = result.stdout.trim().split('\n');
    expect(lines.filter((line) => line.includes("'staf'"))).toEqual([expect.stringMatching(/^rules\/bot\.yaml:5:\d+: .*'staf'.*hearsay\.yaml/)]);
    expect(lines.some((line) => /^rules\/bot\.yaml:8:\d+: .*'desk'/.test(line))).toBe(true);
    expect(lines.some((line) => /^rules\/bot\.yaml:9:\d+: .*'archive'/.test(line))).toBe(true);
    expect(lines.some((line) => line.includes("'staff'"))).toBe(false);
    expect(lines).toContainEqual(
      "rules/bot.yaml:12:14: rule 'human' hands off to a person, but hearsay.yaml has no handoff: block; add one, e.g. handoff: { chat: staff }",
    );
    expect(result.status).toBe(1);
  });

  it('reports handoff beside a call at its file:line:column, and takes it in a branch of on', async () => {
    const dir = await project('backends:\n  shop: { url: "http://127.0.0.1:9/api" }\nchats:\n  staff: -1001234567890\nhandoff: { chat: staff }\n');
    const calling = [
      'rules:',
      '  - id: order',
      "    pattern: 'order (?<num>\\d+)'",
      '    call: { backend: shop, get: "/orders/{{match.num}}" }',
      '    handoff: true',
      '    on:',
      '      ok: { reply: "Order {{match.num}}: {{result.status}}." }',
      '      error: { reply: "Our shop is down; a colleague takes over.", handoff: true }',
      '',
    ].join('\n');
    await writeFile(join(dir, 'rules', 'bot.yaml'), calling);
    const misplaced = check(dir);
    expect(misplaced.stdout).toContain(
      "rules/bot.yaml:5:14: rule 'order' calls a backend, so whether it hands off depends on the outcome: move `handoff: true` into the branch of `on` that should hand off, e.g. error: { reply: ..., handoff: true }",
    );
    expect(misplaced.status).toBe(1);
    await writeFile(join(dir, 'rules', 'bot.yaml'), calling.replace('    handoff: true\n', ''));
    const placed = check(dir);
    expect(placed.stdout).toMatch(/^1 file, 1 rule, 0 problems$/m);
    expect(placed.status).toBe(0);
  });

  it('passes once the chats and the handoff block are declared', async () => {
    const result = check(await project('chats:\n  staff: -1001234567890\n  staf: -1002\n  desk: -1003\n  archive: -1004\nhandoff: { chat: staff }\n'));
    expect(result.stdout).toMatch(/^1 file, 4 rules, 0 problems$/m);
    expect(result.status).toBe(0);
  });
});
