// The clock in rules, as an operator writes it: `timezone:`, `hours:`, `open:` on rules, flow starts and done
// branches, {{now.*}} and {{hours.NAME.*}} in the user's language, defaults ({{var.chat.votes | 0}}), checked
// at load time with file:line:column, and run by `hearsay test` with a settable `clock:` — at the opening and
// closing minute, on holidays, over a weekend and on both DST days of 2026, through the pipeline and the engine.
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SessionOutcome } from '../../src/conversation-tests/test-session.js';
import { checkRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';
import { failureTexts, runTestFile } from '../conversation-tests/test-files.js';

const OFFICE = `timezone: Europe/Berlin
hours:
  office:
    mon-fri: "09:00-18:00"
    sat: "10:00-14:00"
    closed: ["2026-12-24", "2026-12-25", "2027-01-01"]
languages:
  default: en
  supported: [en, de]
rules:
  - id: human-open
    keywords: [human, agent, mensch]
    open: office
    reply: "Connecting you with a colleague."
  - id: human-closed
    keywords: [human, agent, mensch]
    reply:
      en: "We're closed right now; we're back {{hours.office.next_open}}."
      de: "Wir haben gerade zu; wir sind {{hours.office.next_open}} wieder da."
  - id: open-now
    text: "are you open?"
    open: office
    reply: "Yes, until {{hours.office.closes}}."
  - id: closed-now
    text: "are you open?"
    open: { not: office }
    reply: "No; we open {{hours.office.next_open}}."
  - id: clock
    command: now
    reply:
      en: "{{now.weekday}} / {{now.date}} / {{now.time}}"
      de: "{{now.weekday}} / {{now.date}} / {{now.time}}"
  - id: vote
    command: vote
    set: { chat.votes: { increment: 1 }, user.name: "{{user.first_name}}" }
    reply: "Counted."
  - id: votes
    command: votes
    reply: "Votes: {{var.chat.votes | 0}}, by {{var.user.name | 'nobody yet'}}"
flows:
  - id: callback
    start: { command: callback, open: { not: office } }
    steps:
      - id: phone
        ask: "We're closed. Your number, and we call you back {{hours.office.next_open}}?"
    done:
      - open: office
        reply: "We just opened: a colleague calls {{flow.phone}} now."
      - reply: "We call {{flow.phone}} {{hours.office.next_open}}."
`;

async function run(tests: string, driver: 'pipeline' | 'engine', rules = OFFICE): Promise<SessionOutcome> {
  return runTestFile(rules, tests, driver);
}

function failures(outcome: SessionOutcome): string[] {
  expect(outcome.ruleProblems.map((p) => p.format(''))).toEqual([]);
  expect(outcome.testProblems).toEqual([]);
  return failureTexts(outcome, { name: true, line: false });
}

const GERMAN = 'user: { first_name: Jana, language_code: de }';

const CONVERSATIONS = `
tests:
  - name: a minute before opening, at opening, a minute before closing, at closing
    clock: "2026-11-27T08:59:00+01:00"
    steps:
      - say: human
        expect: "We're closed right now; we're back today at 09:00."
      - wait: 1m
      - say: human
        expect: "Connecting you with a colleague."
      - say: are you open?
        expect: "Yes, until 18:00."
      - wait: 539m
      - say: human
        expect: "Connecting you with a colleague."
      - wait: 1m
      - say: human
        expect: "We're closed right now; we're back tomorrow at 10:00."
      - say: are you open?
        expect: "No; we open tomorrow at 10:00."
  - name: Saturday afternoon points to Monday, in German too
    clock: "2026-11-28T15:00:00+01:00"
    ${GERMAN}
    steps:
      - say: mensch
        expect: "Wir haben gerade zu; wir sind Montag um 09:00 wieder da."
      - say: /now
        expect: "Samstag / Samstag, 28. November / 15:00"
  - name: holidays
    clock: "2026-12-23T18:30:00+01:00"
    steps:
      - say: human
        expect: "We're closed right now; we're back Saturday at 10:00."
      - wait: 1d
      - say: human
        expect: "We're closed right now; we're back Saturday at 10:00."
      - say: /now
        expect: "Thursday / Thursday, 24 December / 18:30"
  - name: New Year's Day is closed
    clock: "2026-12-31T19:00:00+01:00"
    steps:
      - say: human
        expect: "We're closed right now; we're back Saturday at 10:00."
      - say: /now
        expect: "Thursday / Thursday, 31 December / 19:00"
      - wait: 5h
      - say: /now
        expect: "Friday / Friday, 1 January / 00:00"
  - name: spring DST day (29 March 2026)
    clock: "2026-03-29T01:59:00+01:00"
    steps:
      - say: /now
        expect: "Sunday / Sunday, 29 March / 01:59"
      - wait: 1m
      - say: /now
        expect: "Sunday / Sunday, 29 March / 03:00"
      - say: human
        expect: "We're closed right now; we're back tomorrow at 09:00."
      - wait: 6h
      - say: /now
        expect: "Sunday / Sunday, 29 March / 09:00"
      - wait: 1d
      - say: human
        expect: "Connecting you with a colleague."
  - name: autumn DST day (25 October 2026)
    clock: "2026-10-25T02:30:00+02:00"
    steps:
      - say: /now
        expect: "Sunday / Sunday, 25 October / 02:30"
      - wait: 1h
      - say: /now
        expect: "Sunday / Sunday, 25 October / 02:30"
      - say: human
        expect: "We're closed right now; we're back tomorrow at 09:00."
      - wait: 1d
      - wait: 389m
      - say: human
        expect: "We're closed right now; we're back today at 09:00."
      - wait: 1m
      - say: human
        expect: "Connecting you with a colleague."
  - name: a flow started only while closed, whose done branch sees the clock of its end
    clock: "2026-11-30T08:50:00+01:00"
    steps:
      - say: /callback
        expect: "We're closed. Your number, and we call you back today at 09:00?"
      - wait: 10m
      - say: "0301234"
        expect: "We just opened: a colleague calls 0301234 now."
      - say: /callback
        expect: nothing
  - name: defaults for empty values
    steps:
      - say: /votes
        expect: "Votes: 0, by nobody yet"
`;

describe.each(['pipeline', 'engine'] as const)('opening hours and the clock through the %s', (driver) => {
  it('answers by the hours at their boundaries, on holidays and on both DST days, in English and German', async () => {
    expect(failures(await run(CONVERSATIONS, driver))).toEqual([]);
  });
});

async function problemsOf(files: Record<string, string>): Promise<string[]> {
  return withRuleDir(files, async (dir) => (await checkRules(dir)).problems.map((p) => p.format(basename(p.file))));
}

describe('check: times, weekdays, zones and hours names', () => {
  it('the example has no problem', async () => {
    expect(await problemsOf({ 'bot.yaml': OFFICE })).toEqual([]);
  });

  it('reports a bad zone, bad days, times and dates, and unknown hours names at their place', async () => {
    const problems = await problemsOf({
      'a.yaml': `timezone: Europe/Berlln
hours:
  office:
    mon-fry: "09:00-18:00"
    sat: "10:00-25:00"
    closed: ["24.12.2026"]
rules:
  - id: a
    command: a
    open: ofice
    reply: "{{hours.shop.next_open}} {{hours.shop.opens}} {{now.hour}}"
`,
      'b.yaml': `hours:
  shop:
    daily: "09:00-18:00"
rules:
  - id: b
    command: b
    reply: b
`,
    });
    // office has mistakes but stays known by name (no second error for `open: ofice`); b.yaml's hours are a second declaration, refused.
    expect(problems).toEqual([
      "a.yaml:1:11: timezone: 'Europe/Berlln' is not a time zone: write an IANA name such as Europe/Berlin, America/New_York or UTC",
      "a.yaml:4:14: hours 'office': 'fry' is not a weekday: write mon, tue, wed, thu, fri, sat or sun (or a range such as mon-fri)",
      "a.yaml:5:10: hours 'office', sat: '10:00-25:00' is not a time range: write HH:MM-HH:MM with times from 00:00 to 24:00, e.g. \"09:00-18:00\" (or closed)",
      "a.yaml:6:14: hours 'office': closed date '24.12.2026' is not a date: write YYYY-MM-DD, e.g. 2026-12-24",
      "a.yaml:10:11: open: rule 'a' names opening hours 'ofice' that are not declared (did you mean 'office'? declared: office)",
      expect.stringMatching(/^a\.yaml:11:12: \{\{hours\.shop\.next_open\}\}: no opening hours are named 'shop' \(declared: office\)/),
      expect.stringMatching(/^a\.yaml:11:12: unknown placeholder \{\{hours\.shop\.opens\}\}; the clock gives/),
      expect.stringMatching(/^a\.yaml:11:12: unknown placeholder \{\{now\.hour\}\}; the clock gives/),
      expect.stringMatching(/^b\.yaml:1:1: hours is declared twice: already at .*a\.yaml:2:1/),
    ]);
  });
});
