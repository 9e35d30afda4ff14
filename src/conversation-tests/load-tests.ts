// Reads conversation test files (a file, or a directory's *.yaml/*.yml in name order) with the rule
// loader's YAML reader, checks them against the schema and compiles them into the runner's model, with
// every problem at its file:line:column. A file over the size limit is a problem before it is read: parsing
// holds about a hundred times a file's size in memory at its peak.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { problemAt, RuleProblem } from '../diagnostics/problem.js';
import { durationMs } from '../engine/compile-flows.js';
import { listRuleFiles, readYamlFile } from '../rules/rule-files.js';
import { parseYaml, type NodePath, type ParsedYaml } from '../yaml/source.js';
import {
  DEFAULT_BOT_USERNAME,
  type CannedAnswers,
  type ConversationTest,
  type ExpectedOutput,
  type TestChat,
  type TestHandoff,
  type TestFile,
  type TestStep,
  type TestUser,
} from './model.js';
import { describePath, testSchemaProblems } from './schema-problems.js';
import { compileExpect, stepLabel } from './compile-expect.js';
import { ADMIN_RIGHTS } from './moderation-double.js';
import { cannedAnswers, expectedCalls } from './compile-backends.js';
import { compileAction, topicOfHolds } from './compile-action.js';

type Raw = Record<string, unknown>;

/** The default largest test file, in bytes (as for rule files): far above hand-written tests (about 20,000 steps). */
export const DEFAULT_MAX_TEST_FILE_BYTES = 1_048_576;

export interface LoadedTests {
  readonly files: TestFile[];
  readonly problems: RuleProblem[];
}

/**
 * Loads the test files at `paths`; `defaultRules` is used by files without their own `rules:`, and a file larger
 * than `maxFileBytes` is a problem (`hearsay test --max-file-bytes`).
 */
export async function loadTestFiles(paths: readonly string[], defaultRules: string, maxFileBytes = DEFAULT_MAX_TEST_FILE_BYTES): Promise<LoadedTests> {
  const defaultMissing = !existsSync(defaultRules);
  const files: TestFile[] = [];
  const problems: RuleProblem[] = [];
  for (const path of paths) {
    let names: string[];
    try {
      const listed = await listRuleFiles(path);
      names = listed.files;
      problems.push(...listed.problems);
    } catch {
      problems.push(new RuleProblem(path, 0, 0, 'no such file or directory'));
      continue;
    }
    if (names.length === 0) problems.push(new RuleProblem(path, 0, 0, 'no test files here (*.yaml or *.yml)'));
    for (const name of names) {
      const read = await readYamlFile(name, maxFileBytes, 'hearsay test --max-file-bytes');
      if ('problem' in read) {
        problems.push(read.problem);
        continue;
      }
      const loaded = compileTestFile(parseYaml(name, read.text), defaultRules, defaultMissing);
      problems.push(...loaded.problems);
      if (loaded.file) files.push(loaded.file);
    }
  }
  return { files, problems };
}

/** One parsed file: its model, or the problems that keep it from running (`defaultMissing`: `defaultRules` does not exist). */
export function compileTestFile(parsed: ParsedYaml, defaultRules: string, defaultMissing = false): { file?: TestFile; problems: RuleProblem[] } {
  const problems = [...parsed.problems];
  if (problems.length === 0) problems.push(...testSchemaProblems(parsed));
  if (problems.length > 0) return { problems };
  const data = parsed.data as Raw;
  const report = (path: NodePath, message: string) => problems.push(problemAt(parsed.locate(path), message));
  const tests: ConversationTest[] = [];
  const names = new Map<string, number>();
  const answers = cannedAnswers(data.backends);
  (data.tests as Raw[]).forEach((written, i) => {
    // The file's hand-off applies to a test without its own.
    const raw = written.handoff === undefined && data.handoff !== undefined ? { ...written, handoff: data.handoff } : written;
    const name = raw.name as string;
    const earlier = names.get(name);
    if (earlier !== undefined) report(['tests', i, 'name'], `two tests are named '${name}' (also test ${earlier + 1}): names must be unique in a file`);
    names.set(name, i);
    const test = compileTest(raw, i, parsed, report, answers);
    if (test) tests.push(test);
  });
  if (typeof data.rules !== 'string' && defaultMissing) {
    report([], `this file names no \`rules:\` and there is no ${defaultRules} here: add \`rules: PATH\` (relative to this file) or run with --rules PATH`);
  }
  if (problems.length > 0) return { problems };
  const rules = typeof data.rules === 'string' ? resolve(dirname(parsed.file), data.rules) : resolve(defaultRules);
  const botUsername = ((data.bot as Raw | undefined)?.username as string | undefined) ?? DEFAULT_BOT_USERNAME;
  return { file: { file: parsed.file, rulesPath: rules, botUsername, tests }, problems };
}

type Report = (path: NodePath, message: string) => void;

function compileTest(raw: Raw, i: number, parsed: ParsedYaml, report: Report, answers: CannedAnswers): ConversationTest | undefined {
  const base: NodePath = ['tests', i];
  const users = compileUsers(raw);
  const chats = compileChats(raw, (raw.handoff as Raw | undefined)?.chat);
  const handoff = compileHandoff(raw.handoff as Raw | undefined, chats, (message) => report([...base, 'handoff', 'chat'], message));
  const before = users.length;
  const steps: TestStep[] = [];
  const clock = clockOf(raw, (message) => report([...base, 'clock'], message));
  let failed = clock === null;
  (raw.steps as Raw[]).forEach((step, j) => {
    const path: NodePath = [...base, 'steps', j];
    const where = describePath(parsed.data, path);
    const pick = <T extends { key: string }>(list: readonly T[], key: unknown, field: string, what: string): T | undefined => {
      if (key === undefined) return list[0];
      const found = list.find((x) => x.key === key);
      if (!found) report([...path, field], `${where}: no ${what} '${String(key)}' in this test (${what}s: ${list.map((x) => x.key).join(', ')})`);
      return found;
    };
    if (step.as !== undefined && step.from !== undefined) report([...path, 'as'], `${where}: \`as\` and \`from\` both name the user: keep one`);
    const user = pick(users, step.as ?? step.from, step.as !== undefined ? 'as' : 'from', 'user');
    const chat = pick(chats, step.in, 'in', 'chat');
    const stepReport = (field: string, message: string) => report([...path, field], `${where}: ${message}`);
    const action = user && chat ? compileAction(step, users, chat, stepReport) : undefined;
    if (action && !topicOfHolds(step, action, chat!, handoff, stepReport)) failed = true;
    const expect = compileExpect(
      step.expect,
      (sub, message) => report([...path, 'expect', ...sub], `${where}: ${message}`),
      users.map((u) => u.key),
    );
    if (expect && typeof expect !== 'string' && !placesKnown(expect, users, chats, (n, message) => report([...path, 'expect', n], `${where}: ${message}`)))
      failed = true;
    if (!user || !chat || !action || expect === false) {
      failed = true;
      return;
    }
    const state = step.state as Raw | undefined;
    const calls = expectedCalls(step.expect_call);
    steps.push({
      index: j,
      position: parsed.locate(path),
      path,
      action,
      user,
      chat,
      expect,
      ...(state ? { state: new Map(Object.entries(state) as [string, string | number | null][]) } : {}),
      ...(calls ? { expectCalls: calls } : {}),
      label: stepLabel(action, step),
    });
  });
  if (failed || users.length !== before || handoff === null || clock === null) return undefined;
  return assembleTest(raw, parsed.locate(base), { users, chats, steps, handoff, clock }, answers);
}

/** The test as run: its parts, with the canned backend answers of the file and its own. */
function assembleTest(
  raw: Raw,
  position: ConversationTest['position'],
  parts: Pick<ConversationTest, 'users' | 'chats' | 'steps'> & { handoff: TestHandoff | undefined; clock: number | undefined },
  answers: CannedAnswers,
): ConversationTest {
  const { handoff, clock, ...rest } = parts;
  return {
    name: raw.name as string,
    position,
    ...rest,
    backends: cannedAnswers(raw.backends, answers),
    ...(handoff ? { handoff } : {}),
    ...(clock ? { clock } : {}),
  };
}

/** `clock:` in ms since the epoch; undefined when absent, null when it is no date and time (reported). */
function clockOf(raw: Raw, report: (message: string) => void): number | null | undefined {
  if (raw.clock === undefined) return undefined;
  const clock = Date.parse(raw.clock as string);
  if (!Number.isNaN(clock)) return clock;
  report(`clock: '${String(raw.clock)}' is no date and time; write e.g. "2026-11-27T20:00:00+01:00"`);
  return null;
}

/** The test's `handoff:` with its staff group found among the chats; null when it names none that can be one. */
function compileHandoff(raw: Raw | undefined, chats: readonly TestChat[], report: (message: string) => void): TestHandoff | null | undefined {
  if (!raw) return undefined;
  const chat = chats.find((c) => c.key === raw.chat);
  if (!chat || chat.type !== 'supergroup') {
    report(`handoff.chat must name a supergroup among this test's chats (${chats.map((c) => `${c.key}: ${c.type}`).join(', ')})`);
    return null;
  }
  return { chat, idleMs: typeof raw.idle === 'string' ? durationMs(raw.idle) : null, end: (raw.end as string[] | undefined) ?? ['done', '/done'] };
}

/** The chats and users an expectation's `in` and `topic_of` name are the test's. */
function placesKnown(expect: readonly ExpectedOutput[], users: readonly TestUser[], chats: readonly TestChat[], report: (n: number, message: string) => void) {
  let known = true;
  expect.forEach((output, n) => {
    if (output.kind !== 'message') return;
    if (output.in !== undefined && !chats.some((c) => c.key === output.in)) {
      report(n, `no chat '${output.in}' in this test (chats: ${chats.map((c) => c.key).join(', ')})`);
      known = false;
    }
    if (output.topicOf !== undefined && !users.some((u) => u.key === output.topicOf)) {
      report(n, `no user '${output.topicOf}' in this test (users: ${users.map((u) => u.key).join(', ')})`);
      known = false;
    }
  });
  return known;
}

function compileUsers(raw: Raw): TestUser[] {
  const named = raw.users as Record<string, Raw> | undefined;
  const entries: [string, Raw][] = named ? Object.entries(named) : [['user', (raw.user as Raw | undefined) ?? {}]];
  return entries.map(([key, user], n) => ({
    key,
    id: (user.id as number | undefined) ?? 1001 + n,
    first_name: (user.first_name as string | undefined) ?? (named ? key.charAt(0).toUpperCase() + key.slice(1) : 'Ann'),
    ...(user.last_name !== undefined ? { last_name: user.last_name as string } : {}),
    ...(user.username !== undefined ? { username: user.username as string } : {}),
    ...(user.language_code !== undefined ? { language_code: user.language_code as string } : {}),
  }));
}

/** The test's chats; the hand-off's staff group (`staffKey`) has privacy mode off unless it says otherwise: the bot is an administrator there. */
function compileChats(raw: Raw, staffKey: unknown): TestChat[] {
  const named = raw.chats as Record<string, unknown> | undefined;
  const entries: [string, unknown][] = named ? Object.entries(named) : [['chat', raw.chat ?? 'private']];
  return entries.map(([key, chat], n) => {
    const spec = (typeof chat === 'string' ? { type: chat } : chat) as Raw;
    const type = spec.type as TestChat['type'];
    return {
      key,
      type,
      id: (spec.id as number | undefined) ?? (type === 'supergroup' ? -1001000000001 - n : -1001 - n),
      title: (spec.title as string | undefined) ?? (named ? key : 'Test group'),
      privacy: (spec.privacy as boolean | undefined) ?? key !== staffKey,
      ...(spec.forum === true ? { forum: true } : {}),
      ...(spec.admin !== undefined && spec.admin !== false ? { adminRights: new Set(spec.admin === true ? ADMIN_RIGHTS : (spec.admin as string[])) } : {}),
    };
  });
}
