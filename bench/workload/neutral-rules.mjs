// The neutral rule list every contestant receives: one ordered list of
// {id, kind, trigger, reply} that each contestant turns into its native form.
// Kinds: command (name), text (whole message), pattern (regex source with one
// capture group), keywords (list of words), fallback (last); with buttons, also
// button (callback data of an inline button, answered with answerCallbackQuery).

/** Share of each trigger kind among the non-fallback rules, in a repeating interleave. */
const KIND_CYCLE = ['command', 'text', 'keywords', 'command', 'text', 'keywords', 'command', 'text', 'keywords', 'pattern'];
/** The presses workload's rule set: one keywords rule in ten becomes a button rule, so the rule count stays the same. */
const KIND_CYCLE_WITH_BUTTONS = ['command', 'text', 'keywords', 'command', 'text', 'keywords', 'command', 'text', 'button', 'pattern'];

/**
 * Builds `count` rules (the last one is the fallback). Kinds are interleaved so the
 * first-match order crosses trigger kinds, as in a real rule file. `buttons` swaps one
 * rule in ten for a button rule (the presses workload).
 */
export function buildNeutralRules(count, { buttons = false } = {}) {
  if (!Number.isInteger(count) || count < 2) throw new RangeError(`rule count must be an integer >= 2, got ${count}`);
  const cycle = buttons ? KIND_CYCLE_WITH_BUTTONS : KIND_CYCLE;
  const rules = [];
  for (let i = 0; i < count - 1; i += 1) {
    const kind = cycle[i % cycle.length];
    const id = `r${i}`;
    switch (kind) {
      case 'command':
        rules.push({ id, kind, command: `c${i}`, reply: `command ${i}` });
        break;
      case 'text':
        rules.push({ id, kind, text: `say ${i} please`, reply: `text ${i}` });
        break;
      case 'keywords':
        rules.push({ id, kind, keywords: [`kw${i}`, `phrase ${i} here`], reply: `keyword ${i}` });
        break;
      case 'pattern':
        // Anchored with a capture, rendered into the reply: exercises captures and templates.
        rules.push({ id, kind, pattern: `^order${i}\\s+(\\d+)$`, reply: `order ${i} #`, replyCapture: true });
        break;
      case 'button':
        rules.push({ id, kind, data: `b${i}`, reply: `button ${i}` });
        break;
      default:
        throw new Error(`unknown kind ${kind}`);
    }
  }
  rules.push({ id: 'fallback', kind: 'fallback', reply: 'sorry, no rule' });
  return rules;
}

/** The reply text a rule gives for a message, `capture` being the pattern's first group. */
export function renderNeutralReply(rule, capture) {
  return rule.replyCapture ? `${rule.reply}${capture ?? ''}` : rule.reply;
}
