// Dates and times in flows, as a guest writes them: "tomorrow", "Freitag", "24.12.", "2026-12-24", "12/24",
// "7pm", "19 Uhr" — kept in ISO form, refused outside the step's range with its own text, written back in the
// user's language ({{flow.date}}) or as kept ({{flow.date.iso}}), and compared in `when` (after/before); run by
// `hearsay test` on a set clock through the pipeline and the engine, and checked at load time.
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { checkRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { failureTexts, runTestFile } from '../conversation-tests/test-files.js';

const BOOKING = `timezone: Europe/Berlin
languages:
  default: en
  supported: [en, de]
flows:
  - id: booking
    start: { command: book }
    steps:
      - id: date
        ask: { en: "For which day?", de: "Für welchen Tag?" }
        accept: { date: { from: today, to: 60d } }
        retry: { en: "A day like tomorrow, Friday or 24.12., please.", de: "Ein Tag wie morgen, Freitag oder 24.12., bitte." }
        retry_past: { en: "That day is over; which day from today?", de: "Der Tag ist vorbei; welcher Tag ab heute?" }
        retry_range: "We take bookings up to 60 days ahead."
      - id: time
        ask: "At what time?"
        accept: { time: { from: "11:00", to: "22:00" } }
        retry_range: "We serve from 11:00 to 22:00."
    done:
      - when: { flow.date: { before: tomorrow } }
        reply: { en: "Today, {{flow.date}} at {{flow.time}}: see you soon ({{flow.date.iso}}).", de: "Heute, {{flow.date}} um {{flow.time}}: bis gleich ({{flow.date.iso}})." }
      - when: { flow.date: { after: today } }
        reply: { en: "Booked: {{flow.date}} at {{flow.time}} ({{flow.date.iso}}).", de: "Gebucht: {{flow.date}} um {{flow.time}} ({{flow.date.iso}})." }
`;

async function run(tests: string, driver: 'pipeline' | 'engine', rules = BOOKING): Promise<SessionOutcome> {
  return runTestFile(rules, tests, driver);
}

function failures(outcome: SessionOutcome): string[] {
  expect(outcome.ruleProblems.map((p) => p.format(''))).toEqual([]);
  expect(outcome.testProblems).toEqual([]);
  return failureTexts(outcome, { name: true, line: false });
}

/** One booking on Friday 27 November 2026, 20:00 Berlin time, answering the date with `said`. */
function booking(name: string, said: string, reply: string, user = ''): string {
  return `  - name: ${name}
    clock: "2026-11-27T20:00:00+01:00"
${user ? `    user: ${user}\n` : ''}    steps:
      - say: /book
      - say: ${JSON.stringify(said)}
      - say: "19:00"
        expect: ${JSON.stringify(reply)}
`;
}

const GERMAN = '{ first_name: Jana, language_code: de }';

const TESTS = `
tests:
${booking('tomorrow', 'tomorrow', 'Booked: Saturday, 28 November at 19:00 (2026-11-28).')}
${booking('today', 'today', 'Today, Friday, 27 November at 19:00: see you soon (2026-11-27).')}
${booking('day after tomorrow', 'day after tomorrow', 'Booked: Sunday, 29 November at 19:00 (2026-11-29).')}
${booking('a weekday is the next one, today included', 'friday', 'Today, Friday, 27 November at 19:00: see you soon (2026-11-27).')}
${booking('next weekday', 'Monday', 'Booked: Monday, 30 November at 19:00 (2026-11-30).')}
${booking('dotted day and month', '24.12.', 'Booked: Thursday, 24 December at 19:00 (2026-12-24).')}
${booking('dotted with year', '24.12.2026', 'Booked: Thursday, 24 December at 19:00 (2026-12-24).')}
${booking('ISO', '2026-12-24', 'Booked: Thursday, 24 December at 19:00 (2026-12-24).')}
${booking('month first with a slash', '12/24', 'Booked: Thursday, 24 December at 19:00 (2026-12-24).')}
${booking('German words', 'morgen', 'Gebucht: Samstag, 28. November um 19:00 (2026-11-28).', GERMAN)}
${booking('übermorgen', 'übermorgen', 'Gebucht: Sonntag, 29. November um 19:00 (2026-11-29).', GERMAN)}
${booking('German weekday', 'Freitag', 'Heute, Freitag, 27. November um 19:00: bis gleich (2026-11-27).', GERMAN)}
  - name: refusals, each with its own text, and times as people write them
    clock: "2026-11-27T20:00:00+01:00"
    steps:
      - say: /book
        expect: "For which day?"
      - say: someday
        expect: "A day like tomorrow, Friday or 24.12., please."
      - say: "2026-11-26"
        expect: "That day is over; which day from today?"
      - say: "2027-02-01"
        expect: "We take bookings up to 60 days ahead."
      - say: "2027-01-26"
        expect: "At what time?"
      - say: "7am"
        expect: "We serve from 11:00 to 22:00."
      - say: "half past"
        expect: "At what time?"
      - say: "7pm"
        expect: "Booked: Tuesday, 26 January 2027 at 19:00 (2027-01-26)."
  - name: German refusal and "19 Uhr"
    clock: "2026-11-27T20:00:00+01:00"
    user: ${GERMAN}
    steps:
      - say: /book
        expect: "Für welchen Tag?"
      - say: gestern
        expect: "Der Tag ist vorbei; welcher Tag ab heute?"
      - say: "28.11."
      - say: "19 Uhr"
        expect: "Gebucht: Samstag, 28. November um 19:00 (2026-11-28)."
  - name: today is judged in Berlin, not in UTC (00:30 on 28 November is still the 27th in UTC)
    clock: "2026-11-28T00:30:00+01:00"
    steps:
      - say: /book
      - say: today
      - say: "19:00"
        expect: "Today, Saturday, 28 November at 19:00: see you soon (2026-11-28)."
`;

describe.each(['pipeline', 'engine'] as const)('dates and times in flows through the %s', (driver) => {
  it('reads dates and times in English and German, refuses with its own texts, writes them back in the language', async () => {
    expect(failures(await run(TESTS, driver))).toEqual([]);
  });
});

async function problemsOf(yaml: string): Promise<string[]> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) => (await checkRules(dir)).problems.map((p) => p.format(basename(p.file))));
}

describe('check: date and time steps', () => {
  it('the example has no problem', async () => {
    expect(await problemsOf(BOOKING)).toEqual([]);
  });

  it('reports bounds that are no date or time, ranges nothing can meet, and misplaced retries', async () => {
    expect(
      await problemsOf(`flows:
  - id: f
    start: { command: f }
    steps:
      - id: date
        ask: "Day?"
        accept: { date: { from: 60d, to: today } }
      - id: time
        ask: "Time?"
        accept: { time: { from: "22:00", to: "11:00" } }
      - id: late
        ask: "Time?"
        accept: { time: { from: "25:00" } }
      - id: name
        ask: "Name?"
        retry_past: "Past?"
    done:
      - when: { flow.date: { after: someday } }
        reply: "{{flow.name.iso}}"
`),
    ).toEqual([
      "bot.yaml:7:25: step 'date' of flow 'f' can never be answered: no date is from 60d to today",
      "bot.yaml:10:25: step 'time' of flow 'f' can never be answered: no time of day is from 22:00 to 11:00",
      "bot.yaml:13:33: '25:00' in step 'late' of flow 'f' is not a time of day: write HH:MM from 00:00 to 23:59",
      "bot.yaml:16:21: warning: retry_past is sent for a date in the past, and step 'name' of flow 'f' takes no date: remove it",
      expect.stringMatching(/^bot\.yaml:18:28: 'after: someday' on 'flow\.date' in done branch #1 of flow 'f' is not a date or time/),
      expect.stringMatching(/^bot\.yaml:19:16: \{\{flow\.name\.iso\}\}: step 'name' of flow 'f' takes no date or time; write \{\{flow\.name\}\}/),
    ]);
  });
});
