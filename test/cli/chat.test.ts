// `hearsay chat` as a person uses it: the built CLI talking to a folder of rules in the terminal, with no sandbox
// and no token — answers, the why under each on request, buttons as numbered choices, acting as another user,
// language or group, and the rules reloaded when a file changes.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARSAY_BIN } from '../support/cli.js';

const repo = new URL('../..', import.meta.url).pathname;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-chat-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `hearsay chat` in `cwd` with `lines` typed, one after the other; the input ends after them. */
function chat(lines: string[], args: string[], cwd = repo): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [HEARSAY_BIN, 'chat', ...args], { cwd, input: `${lines.join('\n')}\n`, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('hearsay chat', () => {
  it('answers in the terminal from the demo rules, with the why under each answer on request', () => {
    const { status, stdout } = chat(['/start', 'shiping costs?'], ['--rules', 'rules', '--why', '--as', 'Ada']);
    expect(status).toBe(0);
    expect(stdout).toContain('hearsay chat: you are Ada in the private chat, talking to the rules in rules.');
    expect(stdout).toContain('bot> Welcome to the Corner Shop desk, Ada!');
    expect(stdout).toContain("  ? rule 'start' (rules/10-commands.yaml:17) answered: its command");
    expect(stdout).toContain('bot> We ship within 2 working days');
    expect(stdout).toContain(`  ? rule 'shipping' (rules/20-conversation.yaml:109) answered: corrected typo shiping → shipping, then keyword "shipping"`);
    expect(stdout).toMatch(/ {2}\? backend calls: none · took [\d.]+ ms/);
  });

  it('shows buttons as numbered choices and presses one by its number; :why toggles the why', () => {
    const { stdout } = chat(['/poll', '2', ':why', '/hours'], ['--rules', 'rules']);
    expect(stdout).toContain('bot> Where should the next meetup be?\n     [1] Café Kiez   [2] Park Café');
    expect(stdout).toContain('bot> (answer to the press) Thanks, You: one vote for Park Café.');
    expect(stdout).toContain('bot> (edited) Where should the next meetup be?');
    // Before :why, no why; after it, one under the answer.
    expect(stdout.split('(why shown under each answer)')[0]).not.toContain('  ? ');
    expect(stdout).toContain("  ? rule 'hours-command' (rules/10-commands.yaml:42) answered: its command");
  });

  it('acts as another user, in another language, and in a group the user joins', () => {
    const { stdout } = chat(
      [':lang de', '/start', ':as Bob', '/start', ':group Team', ':join', 'hello there', '@hearsay_chat_bot hello'],
      ['--rules', 'rules'],
    );
    expect(stdout).toContain('(you are You (de) in the private chat)');
    expect(stdout).toContain('bot> Willkommen am Schalter des Corner Shop, You!');
    expect(stdout).toContain('(you are Bob in the private chat)');
    expect(stdout).toContain('bot> Welcome to the Corner Shop desk, Bob!');
    expect(stdout).toContain('(you are Bob in Team)');
    expect(stdout).toContain('bot> Welcome to Team, Bob!');
    // In a group the bot keeps its privacy mode: a plain message does not reach it.
    expect(stdout).toContain('(the bot does not see this: in a group it sees commands, @hearsay_chat_bot mentions and replies to its messages)');
  });

  it('reloads the rules when a file changes, and keeps the last good ones while an edit is broken', async () => {
    const project = join(dir, 'reload');
    await mkdir(join(project, 'rules'), { recursive: true });
    const file = join(project, 'rules', 'bot.yaml');
    await writeFile(file, 'rules:\n  - id: ping\n    text: ping\n    reply: pong\n');
    const child = spawn(process.execPath, [HEARSAY_BIN, 'chat'], { cwd: project, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const seen = async (text: string, from: number) => {
      for (let waited = 0; !out.slice(from).includes(text); waited += 50) {
        if (waited > 20_000) throw new Error(`no "${text}" in:\n${out}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    try {
      await seen('talking to the rules in rules', 0);
      child.stdin.write('ping\n');
      await seen('bot> pong', 0);
      let mark = out.length;
      await writeFile(file, 'rules:\n  - id: ping\n    text: ping\n    reply: PONG again\n');
      await seen('(rules reloaded: 1 rules)', mark);
      child.stdin.write('ping\n');
      await seen('bot> PONG again', mark);
      mark = out.length;
      await writeFile(file, 'rules:\n  - id: ping\n    txt: ping\n    reply: broken\n');
      await seen('(the rules have problems; the last good rules still answer)', mark);
      expect(out.slice(mark)).toContain("(rules/bot.yaml:3:5: unknown key 'txt' in rule 'ping'; did you mean 'text'?)");
      child.stdin.write('ping\n');
      await seen('bot> PONG again', mark);
      child.stdin.end(':quit\n');
      expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
    } finally {
      child.kill();
    }
  }, 60_000);

  it('exits 1 naming the problem when the rules cannot be loaded, without a stack trace', async () => {
    const empty = join(dir, 'empty');
    await mkdir(empty, { recursive: true });
    const { status, stderr } = chat(['hello'], [], empty);
    expect(status).toBe(1);
    expect(stderr).toMatch(/rules/);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});
