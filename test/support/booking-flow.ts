// The booking flow as the backends issue writes it, shared by the tests that run it through the engine and
// through `hearsay test`: date, party size, a yes/no confirmation, and on yes a backend call whose answer picks the reply.

/** The flow as an item of a rules file's `flows:` list; its `done:` list comes last, so a test may append branches to it. */
export const BOOKING_FLOW = `  - id: booking
    start: { command: book }
    steps:
      - id: date
        ask: "Which date?"
      - id: size
        ask: "How many people?"
        accept: { number: { min: 1, max: 12 } }
      - id: confirm
        ask: "A table for {{flow.size}} on {{flow.date}}?"
        accept: { choice: { "yes": [y], "no": [n] } }
    done:
      - when: { flow.confirm: "yes" }
        call: { backend: shop, post: "/bookings", body: { date: "{{flow.date}}", size: "{{flow.size}}", user: "{{user.id}}" } }
        on:
          ok:    { reply: "Booked! Your reference is {{result.reference}}.", set: { user.booking: "{{result.reference}}" } }
          409:   { reply: "That slot was just taken. Send /book to pick another." }
          error: { reply: "I couldn't book it right now; a colleague will call you." }
`;
