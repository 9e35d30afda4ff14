// The conversations issue's example bot (name memory and table booking), shared by the engine and check tests.
import { NAME_MEMORY_RULES } from '../support/name-memory-rules.js';

/** The rule file, as the issue writes it, plus the plain greeting it falls back to. */
export const BOOKING = `
rules:
${NAME_MEMORY_RULES}  - id: help
    command: help
    during_flows: true
    reply: "Answer the question, or say cancel."
flows:
  - id: booking
    start: { command: book }
    cancel: { keywords: [cancel, stop], reply: "OK, booking cancelled." }
    timeout: { after: 15m, reply: "Booking timed out; send /book to start again." }
    steps:
      - id: date
        ask: "For which date?"
        accept: { pattern: '^(?<value>friday|\\d{1,2}\\.\\d{1,2}\\.?)$' }
        retry: "A date like Friday or 24.12., please."
      - id: size
        ask: "How many people?"
        accept: { number: { min: 1, max: 12 } }
        retry: "A number from 1 to 12, please."
      - id: confirm
        ask: "A table for {{flow.size}} on {{flow.date}}?"
        accept: { choice: { "yes": [yes, ja, y], "no": [no, nein, n] } }
    done:
      - when: { flow.confirm: "yes" }
        set: { user.last_booking: "{{flow.date}}" }
        reply: "Booked: {{flow.size}} people on {{flow.date}}."
      - reply: "OK, nothing booked."
`;
