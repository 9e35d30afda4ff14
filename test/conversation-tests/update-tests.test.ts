// --update: what the bot did goes into the test file (failing and empty expectations, differing state),
// comments and layout stay, and the updated file then passes.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSession } from '../../src/conversation-tests/test-session.js';
import { updateTestFiles } from '../../src/conversation-tests/update-tests.js';
import { BOOKING } from '../engine/booking-rules.js';
import { withRuleDir } from '../rules/rule-files.js';

const BEFORE = `# booking, recorded
tests:
  - name: booking
    steps:
      - say: /book # starts it
        expect:
      - say: friday
        expect: wrong
        state: { flow.date: monday, flow: booking }
      - say: "2"
      - say: "no"
        expect: { contains: OK } # passes: left alone
      - say: my name is Ann
        expect: [one, two]
`;

const AFTER = `# booking, recorded
tests:
  - name: booking
    steps:
      - say: /book # starts it
        expect: For which date?
      - say: friday
        expect: How many people?
        state: { flow.date: friday, flow: booking }
      - say: "2"
      - say: "no"
        expect: { contains: OK } # passes: left alone
      - say: my name is Ann
        expect: Nice to meet you, Ann!
`;

describe('hearsay test --update', () => {
  it('records actual replies and state, keeps comments, and the result passes', async () => {
    await withRuleDir({ 'bot.yaml': BOOKING }, async (dir) => {
      const file = join(dir, 'tests.yaml');
      await writeFile(file, BEFORE);
      const options = { paths: [file], rules: join(dir, 'bot.yaml'), keepGoing: true };
      const first = await runSession(options);
      expect(first.results[0]!.failure?.step.index).toBe(1);
      expect(await updateTestFiles(first.results)).toEqual([{ file, steps: 3 }]);
      expect(await readFile(file, 'utf8')).toBe(AFTER);
      const second = await runSession(options);
      expect(second.results[0]!.failure).toBeUndefined();
      expect(await updateTestFiles(second.results)).toEqual([]);
    });
  });
});
