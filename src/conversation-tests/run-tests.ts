// Runs conversation tests: each test gets a fresh bot (no variables, no flows), a frozen clock and a Bot
// API double; each step becomes updates, the bot handles them, and what it did is compared with the
// step's expectations. A test stops at its first failing step unless every step's outputs are wanted
// (--update records them all).
import { normalize } from '../engine/normalize.js';
import type { RuleSet } from '../engine/rule-set.js';
import { BotApiDouble, type RecordedOutput } from './bot-api-double.js';
import { ChatWorld, TEST_BOT_ID, type StepUpdate } from './chat-world.js';
import { callDiff, CannedBackends } from './canned-backends.js';
import { compareOutputs, compareState, stateValue, visibleOutputs } from './compare.js';
import type { BotDriver, DecisionRecord, DriverFactory, PressRecord, TestClock } from './driver.js';
import type { ConversationTest, TestFile, TestStep } from './model.js';

/** Where every test's clock starts: Monday 5 January 2026, 09:00 UTC. */
export const TEST_EPOCH = Date.UTC(2026, 0, 5, 9, 0, 0);

export interface StepFailure {
  readonly step: TestStep;
  readonly message: string;
  /** `- expected` / `+ actual` / `  same` lines. */
  readonly diff: readonly string[];
}

/** What one step did, for --update. */
export interface StepRecord {
  readonly step: TestStep;
  readonly outputs: readonly RecordedOutput[];
  /** The values of the keys the step's `state:` lists, after the step. */
  readonly state?: ReadonlyMap<string, string | number | null>;
  readonly failed: boolean;
}

export interface TestResult {
  readonly file: TestFile;
  readonly test: ConversationTest;
  readonly failure?: StepFailure;
  readonly steps: readonly StepRecord[];
  readonly durationMs: number;
}

export interface RunOptions {
  /** The bot under test for a test. */
  readonly driverFor: (test: ConversationTest) => DriverFactory;
  /** Run every step even after a failure (to record all outputs). */
  readonly keepGoing?: boolean;
  readonly onDecision?: (record: DecisionRecord) => void;
  /** Told about every inline button a step pressed. */
  readonly onPress?: (record: PressRecord) => void;
}

/** Runs every test of a file against its rule set, in order. */
export async function runTestFile(file: TestFile, ruleSet: RuleSet, options: RunOptions): Promise<TestResult[]> {
  const results: TestResult[] = [];
  for (const test of file.tests) results.push(await runTest(file, test, ruleSet, options));
  return results;
}

async function runTest(file: TestFile, test: ConversationTest, ruleSet: RuleSet, options: RunOptions): Promise<TestResult> {
  const started = performance.now();
  const clock: TestClock = { now: test.clock ?? TEST_EPOCH };
  const api = new BotApiDouble({ id: TEST_BOT_ID, username: file.botUsername, first_name: 'Bot' }, clock);
  api.setUp(
    new Map(test.chats.flatMap((chat) => (chat.adminRights ? [[chat.id, chat.adminRights] as const] : []))),
    new Map(test.users.map((user) => [user.id, user.key])),
  );
  const world = new ChatWorld(api, clock, file.botUsername);
  const backends = new CannedBackends(test.backends);
  for (const chat of test.chats) if (chat.forum) api.forum.forums.add(chat.id);
  const handoff = test.handoff;
  const driver = options.driverFor(test)({
    ...(handoff ? { handoff: { chatId: handoff.chat.id, idleMs: handoff.idleMs, endWords: new Set(handoff.end.map((word) => normalize(word))) } } : {}),
    ruleSet,
    botUsername: file.botUsername,
    api,
    clock,
    chats: Object.fromEntries(test.chats.filter((chat) => chat.type !== 'private').map((chat) => [chat.key, chat.id])),
    random: seededRandom(test.name),
    backends,
    onDecision: (record) => {
      api.attributeTo(record.ruleId, record.suggested);
      options.onDecision?.(record);
    },
  });
  const steps: StepRecord[] = [];
  let failure: StepFailure | undefined;
  const calls = { backends, checkedUpTo: 0 };
  try {
    for (const step of test.steps) {
      const before = api.outputs.length;
      driver.takeLog?.();
      const notes = new Set<string>();
      const problem = (await perform(step, world, driver, clock, notes, options.onPress)) ?? backends.takeProblems()[0];
      const outputs = placed(visibleOutputs(api.outputs.slice(before)), step, test, api);
      const checked = problem ? { message: problem, diff: [] } : ((await checkStep(step, outputs, driver, world)) ?? checkCalls(step, calls));
      // What the bot logged (a failed edit, a dropped reply) or the service refused often says why.
      const log = [...notes, ...(driver.takeLog?.() ?? []).map((line) => `bot log: ${line}`)];
      const check = checked && log.length > 0 ? { ...checked, diff: [...checked.diff, ...log] } : checked;
      const stateValues = step.state ? await actualState(step, driver, world) : undefined;
      steps.push({ step, outputs, ...(stateValues ? { state: stateValues } : {}), failed: check !== null });
      if (check && !failure) failure = { step, ...check };
      if (failure && !options.keepGoing) break;
    }
  } catch (error) {
    const step = test.steps[steps.length]!;
    failure ??= { step, message: `the bot failed: ${error instanceof Error ? error.message : String(error)}`, diff: [] };
  } finally {
    await driver.close();
  }
  return { file, test, ...(failure ? { failure } : {}), steps, durationMs: performance.now() - started };
}

/** The messages with where they went as the test names it: their chat and, in a hand-off topic, its customer. */
function placed(outputs: RecordedOutput[], step: TestStep, test: ConversationTest, api: BotApiDouble): RecordedOutput[] {
  const here = step.chat.type === 'private' ? step.user.id : step.chat.id;
  return outputs.map((output) => {
    if (output.kind !== 'message') return output;
    const chat = test.chats.find((c) => (c.type === 'private' ? test.users.some((u) => u.id === output.chatId) : c.id === output.chatId));
    const name = output.threadId === undefined ? undefined : api.forum.topicName(output.chatId, output.threadId);
    const owner = name === undefined ? undefined : test.users.find((u) => name.endsWith(`#${u.id}`));
    return { ...output, ...(chat ? { in: chat.key } : {}), ...(owner ? { topicOf: owner.key } : {}), elsewhere: output.chatId !== here };
  });
}

/** Does what the step says; returns a problem with the step itself (a button that is not there), if any. */
async function perform(
  step: TestStep,
  world: ChatWorld,
  driver: BotDriver,
  clock: TestClock,
  notes: Set<string>,
  onPress?: RunOptions['onPress'],
): Promise<string | undefined> {
  const { action, user, chat } = step;
  let made: StepUpdate;
  switch (action.kind) {
    case 'say':
    case 'send':
      // `times`: the same message again and again, each handled before the next arrives, all within the frozen second.
      for (let sent = 0; sent < action.times; sent++) {
        made = action.kind === 'say' ? world.say(user, chat, action.text, action.reply, action.topicOf) : world.send(user, chat, action.fields);
        const problem = await handOver(made, driver, notes);
        if (problem) return problem;
      }
      return undefined;
    case 'press': {
      const press = world.press(user, chat, action.by, action.value);
      if (press.pressed)
        onPress?.({ sentBy: press.pressed.message.sentBy ?? null, row: press.pressed.row, column: press.pressed.column, data: press.pressed.data });
      made = press;
      break;
    }
    case 'join':
    case 'leave':
      made = world.members(action.kind, action.users, chat);
      break;
    case 'request_join':
      made = world.requestJoin(action.user, chat);
      break;
    case 'wait':
      await driver.advanceTo(clock.now + action.ms);
      return undefined;
    case 'none':
      return undefined;
  }
  return handOver(made, driver, notes);
}

/** Hands the updates a step made to the bot (a refused message: its reason into `notes`); returns the problem with the step instead, when it had one. */
async function handOver(made: StepUpdate, driver: BotDriver, notes: Set<string>): Promise<string | undefined> {
  if (made.kind === 'problem') return made.message;
  if (made.kind === 'refused') notes.add(made.message);
  if (made.kind === 'updates') for (const update of made.updates) await driver.handle(update);
  return undefined;
}

async function checkStep(step: TestStep, outputs: readonly RecordedOutput[], driver: BotDriver, world: ChatWorld): Promise<Omit<StepFailure, 'step'> | null> {
  if (step.expect !== undefined && step.expect !== 'record') {
    const diff = compareOutputs(step.expect, outputs);
    if (diff) return { message: 'the bot did not answer as expected', diff };
  }
  if (step.state) {
    const state = await driver.state(world.chatId(step.chat, step.user), step.user.id);
    const diff = compareState(step.state, state);
    if (diff) return { message: 'the state is not as expected', diff };
  }
  return null;
}

/** The step's `expect_call` against the requests made since the last step that checked them. */
function checkCalls(step: TestStep, calls: { backends: CannedBackends; checkedUpTo: number }): Omit<StepFailure, 'step'> | null {
  if (!step.expectCalls) return null;
  const made = calls.backends.calls.slice(calls.checkedUpTo);
  calls.checkedUpTo = calls.backends.calls.length;
  const diff = step.expectCalls.flatMap((expected) => callDiff(expected, made));
  return diff.length > 0 ? { message: 'the bot did not make the backend requests expected', diff } : null;
}

async function actualState(step: TestStep, driver: BotDriver, world: ChatWorld): Promise<Map<string, string | number | null>> {
  const state = await driver.state(world.chatId(step.chat, step.user), step.user.id);
  return new Map([...step.state!.keys()].map((key) => [key, stateValue(state, key)]));
}

/** A reproducible random source per test (mulberry32 seeded by the test's name), so alternatives pick the same reply every run. */
export function seededRandom(seed: string): () => number {
  let a = 2166136261;
  for (const char of seed) a = Math.imul(a ^ char.codePointAt(0)!, 16777619);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
