// hearsay check on `schedules:`: a recurrence that is no time (every, cron), a chat the configuration does not
// declare, an id used twice, and a text that reads variables a post written for a whole chat cannot have — each
// at its file:line:column.
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../src/rules/load.js';
import { withRuleDir } from '../rules/rule-files.js';

const BAD = `
schedules:
  - id: digest
    every: "mon 25:00"
    to: community
    reply: "Digest"
  - id: cron
    cron: "0 9 * * 8"
    to: -1001
    reply: "Cron"
  - id: staff
    every: "1st 10:00"
    to: staff
    reply: "Monthly"
  - id: digest
    every: "day 08:30"
    to: community
    reply: "Hello {{var.user.name}}"
rules:
  - id: ping
    command: ping
    reply: pong
`;

describe('check: schedules', () => {
  it('reports bad times, undeclared chats, a duplicate id and variables, each at its place', async () => {
    const outcome = await withRuleDir({ 'bot.yaml': BAD }, (dir) => loadRules(dir, undefined, { chats: new Set(['community']), configFile: 'hearsay.yaml' }));
    expect(outcome.ruleSet).toBeUndefined();
    expect(outcome.problems.map((p) => `${p.line}:${p.column}: ${p.message}`)).toEqual([
      "4:12: schedule 'digest': '25:00' in 'mon 25:00' is not a time of day: write HH:MM from 00:00 to 23:59",
      expect.stringMatching(/^8:11: schedule 'cron': .*day of the week/),
      "13:9: schedule 'staff': chat 'staff' is not declared in hearsay.yaml: add it under chats:, e.g. chats: { staff: -1001234567890 } (declared: community)",
      "15:9: schedule id 'digest' is used twice: schedule #1 has it already",
      expect.stringMatching(/^18:12: schedule 'digest' is written by the bot on its own/),
    ]);
  });

  it('takes every, cron and per-language texts in the rules zone', async () => {
    const outcome = await withRuleDir(
      {
        'bot.yaml': `
timezone: Europe/Berlin
languages: { default: en, supported: [en, de] }
schedules:
  - { id: a, every: "mon-fri 08:30", to: 5, reply: { en: "Morning, {{now.weekday}}", de: "Morgen, {{now.weekday}}" } }
  - { id: b, cron: "0 9 * * 1", to: 5, reply: "Weekly", late_after: 2h, parse_mode: HTML, disable_notification: true }
rules:
  - { id: ping, command: ping, reply: pong }
`,
      },
      (dir) => loadRules(dir),
    );
    expect(outcome.problems).toEqual([]);
    expect(outcome.ruleSet!.schedules.map((s) => [s.id, s.zone, s.lateAfterMs])).toEqual([
      ['a', 'Europe/Berlin', 3_600_000],
      ['b', 'Europe/Berlin', 7_200_000],
    ]);
  });
});
