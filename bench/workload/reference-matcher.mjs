// The straightforward reference: first match in list order, one rule at a time.
// It computes every update's expected reply, and is the "naive linear scan" the
// matching micro-benchmark compares hearsay's index against.
import { renderNeutralReply } from './neutral-rules.mjs';

const WORD_CHAR = '[\\p{L}\\p{M}\\p{N}]';

function escapeRegExp(source) {
  return source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A keyword regex with Unicode word edges (not \b, which is ASCII-only). */
export function keywordRegExp(keywords) {
  const alternatives = keywords.map((k) => escapeRegExp(k).replace(/ /g, '\\s+')).join('|');
  return new RegExp(`(?<!${WORD_CHAR})(?:${alternatives})(?!${WORD_CHAR})`, 'iu');
}

export function patternRegExp(source) {
  return new RegExp(source, 'i');
}

/** Parses "/name[@bot] args" the way Telegram commands are written. */
export function parseCommand(text, botUsername) {
  const m = /^\/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]+))?(?:\s|$)/.exec(text);
  if (!m) return null;
  if (m[2] && m[2].toLowerCase() !== botUsername.toLowerCase()) return null;
  return m[1].toLowerCase();
}

export function normaliseText(text) {
  return text.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ');
}

/** Precompiles the list once; `match(text)` scans it linearly. */
export function createReferenceMatcher(rules, botUsername) {
  const compiled = rules.map((rule) => {
    switch (rule.kind) {
      case 'command':
        return { rule, test: (m) => m.command === rule.command.toLowerCase() };
      case 'text': {
        const want = normaliseText(rule.text);
        return { rule, test: (m) => m.normalised === want };
      }
      case 'pattern': {
        const re = patternRegExp(rule.pattern);
        return { rule, test: (m) => re.exec(m.text) };
      }
      case 'keywords': {
        const re = keywordRegExp(rule.keywords);
        // A substring check first: a necessary condition, far cheaper than the regex.
        const lowered = rule.keywords.map((k) => normaliseText(k));
        return { rule, test: (m) => lowered.some((k) => m.normalised.includes(k)) && re.test(m.normalised) };
      }
      case 'fallback':
      case 'button':
        return { rule, test: () => false };
      default:
        throw new Error(`unknown kind ${rule.kind}`);
    }
  });
  const fallback = rules.find((r) => r.kind === 'fallback') ?? null;
  const buttons = rules.filter((r) => r.kind === 'button');
  return {
    /** The button rule whose callback data is `data`, first in list order, or null. */
    matchPress(data) {
      for (const rule of buttons) if (rule.data === data) return { rule, reply: rule.reply };
      return null;
    },
    /** Returns { rule, reply } or null. */
    match(text) {
      const m = { text, command: parseCommand(text, botUsername), normalised: normaliseText(text) };
      for (const { rule, test } of compiled) {
        const hit = test(m);
        if (hit) return { rule, reply: renderNeutralReply(rule, Array.isArray(hit) ? hit[1] : undefined) };
      }
      return fallback ? { rule: fallback, reply: renderNeutralReply(fallback) } : null;
    },
  };
}
