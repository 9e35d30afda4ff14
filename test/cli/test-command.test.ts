// `hearsay test` as an operator runs it: the built CLI on real test and rule files, its output, exit codes,
// JUnit XML and --update, and the demo bot's own tests.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARSAY_BIN } from '../support/cli.js';

const cli = HEARSAY_BIN;
const repo = new URL('../..', import.meta.url).pathname;
let dir: string;

const RULES = `rules:
  - id: ping
    text: ping
    reply: pong
  - id: hello
    command: start
    reply: "Hello, {{user.first_name}}!"
  - id: unused
    text: never said
    reply: nobody asks
`;

const PASSING = `# the greeting
tests:
  - name: greets by name
    user: { first_name: Zoe }
    steps:
      - say: /start
        expect: "Hello, Zoe!"
      - say: ping
        expect: pong
      - say: something else
        expect: nothing
`;

const FAILING = `tests:
  - name: ping answers
    steps:
      - say: ping
        expect: pong
      - say: ping
        expect: { contains: "ping" }
      - say: /start
        expect: "Hello, Ann!"
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearsay-test-cmd-'));
  await mkdir(join(dir, 'rules'));
  await writeFile(join(dir, 'rules', 'bot.yaml'), RULES);
  await mkdir(join(dir, 'tests'));
  await writeFile(join(dir, 'tests', 'pass.yaml'), PASSING);
  await writeFile(join(dir, 'failing.yaml'), FAILING);
  await writeFile(join(dir, 'broken.yaml'), 'tests:\n  - name: x\n    steps:\n      - sya: ping\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// One of each kind of button pressed, one of each not: the "Kiez" of the poll (its "Site" link is no
// button a test presses), the menu's "less" (data from a template), the flow's "small".
const BUTTON_RULES = `rules:
  - id: poll
    command: poll
    reply: "Where?"
    buttons:
      - [{ text: "Kiez", data: "vote:kiez" }, { text: "Park", data: "vote:park" }]
      - [{ text: "Site", url: "https://example.com" }]
  - id: vote
    callback: '^vote:(?<choice>\\w+)$'
    answer: "Thanks!"
  - id: menu
    command: menu
    reply: "Menu"
    buttons: [[{ text: "less", data: "less:{{user.id}}" }, { text: "more {{user.first_name}}", data: "more:{{user.id}}" }]]
flows:
  - id: size
    start: { command: size }
    steps:
      - id: pick
        ask: "Which size?"
        accept: { choice: { small: [s], large: [l] } }
    done:
      - reply: "{{flow.pick}} it is"
`;

const BUTTON_TESTS = `tests:
  - name: presses some buttons
    steps:
      - say: /poll
      - press: Kiez
        expect: { answer: "Thanks!" }
      - say: /menu
      - press: less
        expect: nothing
      - say: /size
      - press: small
        expect: "small it is"
`;

const run = (args: string[], cwd = dir) => spawnSync('node', [cli, 'test', ...args], { cwd, encoding: 'utf8' });

describe('hearsay test', () => {
  it('runs tests/ against rules/ by default and exits 0 when every test passes', () => {
    const result = run([]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^1 file, 1 test, 3 steps, 0 failed \(\d+ ms\)\n$/);
    expect(result.status).toBe(0);
  });

  it('exits 1 and prints the failing step with its file:line:column and a diff of expected and actual', () => {
    const result = run(['failing.yaml']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'FAIL failing.yaml:6:9: ping answers, step 2 (say: ping): the bot did not answer as expected\n    - { contains: "ping" }\n    + "pong"\n',
    );
    expect(result.stdout).toMatch(/1 file, 1 test, 2 steps, 1 failed/);
  });

  it("uses a test file's own `rules:` where there is no rules/ folder, and names the file that needs one", async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'hearsay-test-own-rules-'));
    try {
      await mkdir(join(elsewhere, 'bot'));
      await writeFile(join(elsewhere, 'bot', 'rules.yaml'), RULES);
      await writeFile(join(elsewhere, 'own.yaml'), `rules: bot/rules.yaml\n${PASSING}`);
      const own = run(['own.yaml'], elsewhere);
      expect(own.stderr).toBe('');
      expect(own.stdout).toMatch(/^1 file, 1 test, 3 steps, 0 failed/);
      expect(own.status).toBe(0);

      await writeFile(join(elsewhere, 'bare.yaml'), PASSING);
      const bare = run(['bare.yaml'], elsewhere);
      expect(bare.stdout).toBe(
        'bare.yaml:2:1: this file names no `rules:` and there is no rules/ here: add `rules: PATH` (relative to this file) or run with --rules PATH\n1 problem in the test files; no test ran\n',
      );
      expect(bare.status).toBe(2);
      // A --rules given on purpose that is not there is a usage error, as before.
      expect(run(['--rules', 'nowhere/', 'own.yaml'], elsewhere).stderr).toBe('hearsay test: --rules nowhere/: no such file or directory\n');
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('exits 2 with the position of a problem in a test file, and runs nothing', () => {
    const result = run(['broken.yaml']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("broken.yaml:4:9: unknown key 'sya' in test 'x', step 1; did you mean 'say'?\n1 problem in the test files; no test ran\n");
  });

  it('exits 1 with the rule problems when the rules under test have errors', async () => {
    await mkdir(join(dir, 'bad-rules'));
    await writeFile(join(dir, 'bad-rules', 'bot.yaml'), 'rules:\n  - id: x\n    text: hi\n    repyl: hello\n');
    const result = run(['--rules', 'bad-rules', 'tests/']);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^bad-rules\/bot\.yaml:4:5: unknown key 'repyl'.*\n1 file, 1 test, 0 steps, 0 failed, 1 not run \(the rules have errors\)/);
  });

  it('exits 2 for a path that does not exist', () => {
    const result = run(['nowhere/']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('hearsay test: nowhere/: no such file or directory\n');
  });

  it('writes well-formed JUnit XML with one testcase per test and the failure in it', async () => {
    const report = join(dir, 'report.xml');
    run(['failing.yaml', 'tests/', '--junit', report]);
    const xml = await readFile(report, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    expect(parsed.testsuites.tests).toBe('2');
    expect(parsed.testsuites.failures).toBe('1');
    const suites = [parsed.testsuites.testsuite].flat();
    expect(suites.map((s: { name: string }) => s.name)).toEqual(['failing.yaml', join('tests', 'pass.yaml')]);
    expect(suites[0].testcase.failure.message).toBe('step 2 (say: ping) at failing.yaml:6:9: the bot did not answer as expected');
    expect(suites[1].testcase.failure).toBeUndefined();
  });

  it('--update records the actual replies into failing and empty expectations and keeps the comments', async () => {
    const file = join(dir, 'update.yaml');
    await writeFile(
      file,
      '# top comment\ntests:\n  - name: records\n    steps:\n      - say: ping # asks\n        expect: wrong # was wrong\n      - say: /start\n        expect:\n      - say: ping\n        expect: { contains: po }\n',
    );
    const first = run(['update.yaml', '--update']);
    expect(first.status).toBe(1);
    expect(first.stdout).toContain('updated update.yaml: 2 steps recorded; review the change');
    expect(await readFile(file, 'utf8')).toBe(
      '# top comment\ntests:\n  - name: records\n    steps:\n      - say: ping # asks\n        expect: pong # was wrong\n      - say: /start\n        expect: Hello, Ann!\n      - say: ping\n        expect: { contains: po }\n',
    );
    const second = run(['update.yaml']);
    expect(second.status).toBe(0);
  });

  it('--coverage lists the rules no test reached', () => {
    const result = run(['--coverage']);
    expect(result.stdout).toContain('coverage: 2 of 3 reached\n  not reached: rule unused (rules/bot.yaml:8:5)\n');
  });

  it("--coverage lists the buttons no test pressed: a rule's buttons by the message it sent, a choice step's by option", async () => {
    await mkdir(join(dir, 'button-rules'));
    await writeFile(join(dir, 'button-rules', 'bot.yaml'), BUTTON_RULES);
    await writeFile(join(dir, 'buttons.yaml'), BUTTON_TESTS);
    const result = run(['--rules', 'button-rules', '--coverage', 'buttons.yaml']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      [
        'coverage: 9 of 12 reached',
        '  not reached: button "Park" (data vote:park) of poll (button-rules/bot.yaml:2:5)',
        '  not reached: button "more {{user.first_name}}" (data more:{{user.id}}) of menu (button-rules/bot.yaml:11:5)',
        '  not reached: button "large" (data size#pick:1) of size#pick (button-rules/bot.yaml:16:5)',
        '',
      ].join('\n'),
    );
  });

  it('runs a `pattern` expectation on RE2 (linear time): a backtracking pattern fails its step at once instead of hanging CI', async () => {
    await mkdir(join(dir, 'echo-rules'));
    await writeFile(join(dir, 'echo-rules', 'bot.yaml'), "rules:\n  - id: echo\n    pattern: '^say (?<rest>.+)$'\n    reply: 'echo {{match.rest}}'\n");
    const said = `${'a'.repeat(34)}!`;
    await writeFile(
      join(dir, 'backtracking.yaml'),
      [
        'tests:',
        '  - name: matches',
        '    steps:',
        '      - say: say aaa',
        "        expect: { pattern: '^echo (a+)+$' }",
        '  - name: backtracks',
        '    steps:',
        `      - say: say ${said}`,
        "        expect: { pattern: '^echo (a+)+$' }",
        '',
      ].join('\n'),
    );
    // A backtracking engine takes about 2^34 steps on this reply: a regression would hang, so the child has a
    // deadline, and what is checked is how it ended, not how long it took.
    const result = spawnSync('node', [cli, 'test', '--rules', 'echo-rules', 'backtracking.yaml'], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
    expect(result.signal).toBeNull();
    expect(result.stdout).toContain(
      `FAIL backtracking.yaml:8:9: backtracks, step 1 (say: say ${said}): the bot did not answer as expected\n    - { pattern: "^echo (a+)+$" }\n    + "echo ${said}"\n`,
    );
    expect(result.stdout).toMatch(/1 file, 2 tests, 2 steps, 1 failed/);
    expect(result.status).toBe(1);
  });

  it('reports an expectation pattern RE2 cannot run (a look-ahead, a back-reference) as a problem in the test file, exit 2', async () => {
    await writeFile(
      join(dir, 'lookaround.yaml'),
      "tests:\n  - name: look\n    steps:\n      - say: ping\n        expect: { pattern: 'p(?=o)' }\n      - say: ping\n        expect: { pattern: '(o)\\1' }\n",
    );
    const result = run(['lookaround.yaml']);
    expect(result.stdout).toBe(
      [
        "lookaround.yaml:5:28: test 'look', step 1: invalid pattern: invalid or unsupported Perl syntax: `(?=` (lookarounds are not supported: RE2 syntax guarantees linear time)",
        "lookaround.yaml:7:28: test 'look', step 2: invalid pattern: invalid escape sequence: `\\1` (back-references are not supported: RE2 syntax guarantees linear time)",
        '2 problems in the test files; no test ran',
        '',
      ].join('\n'),
    );
    expect(result.status).toBe(2);
  });

  it('refuses a test file over the size limit before reading it, naming the file and the limit; --max-file-bytes raises it', async () => {
    // Parsing holds about a hundred times a file's size at its peak: an unbounded file could exhaust memory.
    const big = `# ${'x'.repeat(1_048_576)}\n${PASSING}`;
    await writeFile(join(dir, 'big.yaml'), big);
    const size = Buffer.byteLength(big);
    const refused = run(['big.yaml']);
    expect(refused.stdout).toBe(
      `big.yaml: the file is ${size} bytes, over the limit of 1048576 (hearsay test --max-file-bytes)\n1 problem in the test files; no test ran\n`,
    );
    expect(refused.status).toBe(2);
    const raised = run(['big.yaml', '--max-file-bytes', String(2 * 1_048_576)]);
    expect(raised.stdout).toMatch(/^1 file, 1 test, 3 steps, 0 failed/);
    expect(raised.status).toBe(0);
    const lowered = run(['tests/', '--max-file-bytes', '100']);
    expect(lowered.stdout).toMatch(/^tests\/pass\.yaml: the file is \d+ bytes, over the limit of 100 \(hearsay test --max-file-bytes\)\n/);
    expect(lowered.status).toBe(2);
    const wrong = run(['tests/', '--max-file-bytes', '1MB']);
    expect(wrong.stderr).toContain("option '--max-file-bytes <bytes>' argument '1MB' is invalid. It must be a whole number of bytes, at least 1.");
    expect(wrong.status).toBe(2);
  });

  it("passes the demo bot's own tests, which reach every rule, flow step, ending and button of the demo (the join-request flow too)", () => {
    const result = run(['--coverage'], repo);
    expect(result.stdout).toMatch(/ 0 failed/);
    expect(result.stdout).toMatch(/^coverage: (\d+) of \1 reached\n/);
    expect(result.stdout).not.toContain('not reached');
    expect(result.status).toBe(0);
  });
});
