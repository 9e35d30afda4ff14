// Reminders as a guest meets them: a booking reminds on the day at 10:00 Berlin time (across the autumn DST
// change), in the user's language of the moment it fires (a user who switched to German after booking gets it
// in German); a later reminder of the same id replaces the pending one,
// `forget_reminder` cancels it, `in:` counts from now, and `at` is checked at load time. Run by `hearsay test`
// through the update pipeline (the outbox performs each reminder when the test's clock reaches it).
import { basename } from 'node:path';
import * as yaml from 'yaml';
import { describe, expect, it, vi } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { checkRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { failureTexts, runTestFile } from '../conversation-tests/test-files.js';

// Counts the YAML node trees built: a clean file is read by the loader's fast reader, which builds none.
vi.mock('yaml', async (original) => {
  const actual = await original<typeof import('yaml')>();
  return { ...actual, parseDocument: vi.fn(actual.parseDocument) };
});

const RULES = `timezone: Europe/Berlin
languages:
  default: en
  supported: [en, de]
rules:
  - id: cancel-booking
    keywords: [cancel, stornieren]
    forget_reminder: booking-day
    reply: "Cancelled."
  - id: to-german
    keywords: [deutsch]
    set: { user.language: de }
    reply: "Ab jetzt auf Deutsch."
  - id: tea
    command: tea
    remind:
      id: tea
      in: 3m
      reply: "Your tea is ready ({{now.time}})."
    reply: "Timer set."
flows:
  - id: booking
    start: { command: book }
    steps:
      - id: date
        ask: "Which day?"
        accept: { date: { from: today, to: 60d } }
      - id: time
        ask: "What time?"
        accept: { time: {} }
    done:
      - reply: { en: "Booked: {{flow.date}} at {{flow.time}}.", de: "Gebucht: {{flow.date}} um {{flow.time}}." }
        remind:
          - id: booking-day
            at: "{{flow.date.iso}} 10:00"
            reply:
              en: "Reminder: your table today at {{flow.time}}. Reply 'cancel' to cancel."
              de: "Erinnerung: Ihr Tisch heute um {{flow.time}}. Antworten Sie 'stornieren' zum Stornieren."
`;

async function run(tests: string, rules = RULES): Promise<SessionOutcome> {
  return runTestFile(rules, tests, 'pipeline');
}

function failures(outcome: SessionOutcome): string[] {
  expect(outcome.ruleProblems.map((p) => p.format(''))).toEqual([]);
  expect(outcome.testProblems).toEqual([]);
  return failureTexts(outcome, { name: true, line: false });
}

const TESTS = `
tests:
  - name: reminded on the day at 10:00 Berlin time, once, across the DST change
    clock: "2026-10-24T20:00:00+02:00"
    steps:
      - say: /book
      - say: tomorrow
      - say: "19:00"
        expect: "Booked: Sunday, 25 October at 19:00."
      - wait: 899m
        expect: nothing
      - wait: 1m
        expect: "Reminder: your table today at 19:00. Reply 'cancel' to cancel."
      - wait: 1d
        expect: nothing
  - name: in German, and a second booking replaces the first reminder
    clock: "2026-11-27T20:00:00+01:00"
    user: { first_name: Jana, language_code: de }
    steps:
      - say: /book
      - say: morgen
      - say: "19 Uhr"
        expect: "Gebucht: Samstag, 28. November um 19:00."
      - say: /book
      - say: übermorgen
      - say: "20 Uhr"
        expect: "Gebucht: Sonntag, 29. November um 20:00."
      - wait: 1d
        expect: nothing
      - wait: 1d
        expect: "Erinnerung: Ihr Tisch heute um 20:00. Antworten Sie 'stornieren' zum Stornieren."
  - name: booked in English, switched to German before the day, reminded in German
    clock: "2026-11-27T20:00:00+01:00"
    steps:
      - say: /book
      - say: tomorrow
      - say: "19:00"
        expect: "Booked: Saturday, 28 November at 19:00."
      - say: deutsch
        expect: "Ab jetzt auf Deutsch."
      - wait: 14h
        expect: "Erinnerung: Ihr Tisch heute um 19:00. Antworten Sie 'stornieren' zum Stornieren."
  - name: cancelled before it is due
    clock: "2026-11-27T20:00:00+01:00"
    steps:
      - say: /book
      - say: tomorrow
      - say: "19:00"
      - say: cancel
        expect: "Cancelled."
      - wait: 2d
        expect: nothing
  - name: in 3 minutes, with its own time
    clock: "2026-11-27T20:00:00+01:00"
    steps:
      - say: /tea
        expect: "Timer set."
      - wait: 2m
        expect: nothing
      - wait: 1m
        expect: "Your tea is ready (20:03)."
`;

describe('reminders through the pipeline', () => {
  it("fire at their time once, in the user's language when they fire, replaced by the same id and cancelled by forget_reminder", async () => {
    expect(failures(await run(TESTS))).toEqual([]);
  });
});

async function problemsOf(yaml: string): Promise<string[]> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) => (await checkRules(dir)).problems.map((p) => p.format(basename(p.file))));
}

describe('check: reminders', () => {
  it('the example has no problem', async () => {
    expect(await problemsOf(RULES)).toEqual([]);
  });

  it('reports an `at` that can never be a time and a reminder id used with different texts', async () => {
    expect(
      await problemsOf(`flows:
  - id: f
    start: { command: f }
    steps:
      - id: name
        ask: "Name?"
      - id: date
        ask: "Day?"
        accept: { date: {} }
    done:
      - remind:
          - { id: a, at: "{{flow.name}} 10:00", reply: "x" }
          - { id: b, at: "{{flow.date.iso}} 25:00", reply: "x" }
          - { id: d, at: "tomorrow", reply: "x" }
`),
    ).toEqual([
      'bot.yaml:13:26: the `at` of reminder \'b\' of done branch #1 of flow \'f\' can never be a time: \'{{flow.date.iso}} 25:00\' gives e.g. \'2026-01-05 25:00\'; write "YYYY-MM-DD HH:MM", "YYYY-MM-DD" or "HH:MM", e.g. "{{flow.date.iso}} 10:00"',
      expect.stringMatching(/^bot\.yaml:14:26: the `at` of reminder 'd' of done branch #1 of flow 'f' can never be a time: 'tomorrow' gives e\.g\. 'tomorrow'/),
    ]);
    expect(
      await problemsOf(`flows:
  - id: f
    start: { command: f }
    steps:
      - { id: date, ask: "Day?", accept: { date: {} } }
    done:
      - remind: { id: c, at: "{{flow.date.iso}} 10:00", reply: "one text" }
rules:
  - id: r
    command: r
    reply: ok
    remind: { id: c, in: 1h, reply: "another text" }
`),
    ).toEqual([expect.stringMatching(/^bot\.yaml:7:17: warning: reminder 'c' is set with different texts \(also at .*bot\.yaml:12:13\)/)]);
  });

  it("places a reminder only to warn about it, without building a clean file's YAML node tree otherwise", async () => {
    // Written as lists: a reminder's position is then deeper than a rule's own keys, where only yaml's tree places it.
    const timers = (secondText: string) =>
      ['rules:', '  - id: tea', '    command: tea', '    remind:', '      - id: tea', '        in: 3m', '        reply: "Your tea is ready."']
        .concat(['    reply: "Timer set."', '  - id: again', '    command: again', '    remind:', '      - id: tea', '        in: 5m'])
        .concat([`        reply: "${secondText}"`, '    reply: "Set again."', ''])
        .join('\n');
    const trees = vi.mocked(yaml.parseDocument);
    trees.mockClear();
    expect(await problemsOf(timers('Your tea is ready.'))).toEqual([]);
    expect(trees).not.toHaveBeenCalled();
    const [warning, ...others] = await problemsOf(timers('Your coffee is ready.'));
    expect(others).toEqual([]);
    expect(warning).toMatch(/^bot\.yaml:12:9: warning: reminder 'tea' is set with different texts \(also at \S*bot\.yaml:5:9\)/);
    expect(trees).toHaveBeenCalledTimes(1);
  });
});
