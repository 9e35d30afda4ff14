// Long HTML and MarkdownV2 replies are split outside their markup and re-balanced: every part fits, every part
// is well-formed on its own (each element opened in it is closed in it, no tag, entity, escape or link cut in
// two), and together the parts show the same text. Property-tested on generated documents with small limits
// (many cuts each; each limit above the longest unbreakable piece, a link, plus the markup open around it: a
// link longer than a whole message is the one case left to plain splitting), plus the 4096 case the issue reproduced.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitFormattedText } from '../../src/delivery/split-formatted.js';

const words = fc.array(fc.oneof(fc.constantFrom('alpha', 'beta', 'gamma', 'δέλτα', 'emoji😀', 'x', 'longerwordhere'), fc.constantFrom(' ', ' ', '\n', '  ')), {
  minLength: 1,
  maxLength: 12,
});

/** HTML text with its special characters written as entities, as a rule author must. */
const htmlText = words.map((w) => w.join('').replace(/a/g, '&amp;').replace(/x/g, '&lt;'));
const htmlTags = [
  ['<b>', '</b>'],
  ['<i>', '</i>'],
  ['<u>', '</u>'],
  ['<s>', '</s>'],
  ['<tg-spoiler>', '</tg-spoiler>'],
  ['<a href="https://example.com/a?b=1&amp;c=2">', '</a>'],
  ['<code>', '</code>'],
] as const;

const { html } = fc.letrec<{ html: string }>((tie) => ({
  html: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    htmlText,
    fc.tuple(fc.constantFrom(...htmlTags), tie('html')).map(([[open, close], inner]) => `${open}${inner}${close}`),
    fc.array(tie('html'), { minLength: 1, maxLength: 5 }).map((parts) => parts.join('')),
  ),
}));

const mdText = words.map((w) => w.join('').replace(/a/g, '\\.').replace(/x/g, '\\*'));
const mdMarkers = ['*', '_', '__', '~', '||'] as const;

/** MarkdownV2 with each marker used at most once on a path (the service does not nest an entity in itself). */
function markdown(depth: number, used: readonly string[]): fc.Arbitrary<string> {
  const leaf = fc.oneof(
    mdText,
    words.map((w) => `\`${w.join('').replace(/[`\\]/g, '')}\``),
    words.map((w) => `\`\`\`python\n${w.join('').replace(/[`\\]/g, '')}\n\`\`\``),
    words.map((w) => `[${w.join('').trim() || 'link'}](https://example.com/\\)x)`),
  );
  if (depth === 0) return leaf;
  const free = mdMarkers.filter((m) => !used.some((u) => u.includes(m[0]!) || m.includes(u[0]!)));
  const branches: fc.Arbitrary<string>[] = [leaf, fc.array(markdown(depth - 1, used), { minLength: 1, maxLength: 4 }).map((p) => p.join(' '))];
  // A letter on each side keeps a marker from touching the next one (`___` would be ambiguous).
  for (const marker of free) branches.push(markdown(depth - 1, [...used, marker]).map((inner) => `${marker}w${inner}w${marker}`));
  return fc.oneof(...branches);
}

/** Checks that an HTML part is well-formed: tags balanced and whole, entities whole. */
function htmlProblems(part: string): string[] {
  const stack: string[] = [];
  const problems: string[] = [];
  for (const match of part.matchAll(/<(\/?)([a-z-]+)[^>]*>|&[a-z#0-9]*;?|[<>]/g)) {
    if (match[0].startsWith('&')) {
      if (!/^&(amp|lt|gt|quot|#\d+);$/.test(match[0])) problems.push(`broken entity ${match[0]}`);
    } else if (match[2] === undefined) problems.push(`broken tag at ${match.index}`);
    else if (match[1] === '/') {
      if (stack.pop() !== match[2]) problems.push(`</${match[2]}> closes nothing open`);
    } else stack.push(match[2]);
  }
  if (stack.length > 0) problems.push(`left open: ${stack.join(', ')}`);
  return problems;
}

/** Checks that a MarkdownV2 part is well-formed: escapes whole, markers, code and links balanced. */
function markdownProblems(part: string): string[] {
  const open: string[] = [];
  let i = 0;
  while (i < part.length) {
    const inPre = open.at(-1) === '```';
    const inCode = open.at(-1) === '`';
    if (part[i] === '\\') {
      if (i + 1 >= part.length) return ['escape cut in two'];
      i += 2;
    } else if (part.startsWith('```', i) && !inCode) {
      if (inPre) open.pop();
      else open.push('```');
      i += 3;
    } else if (part[i] === '`' && !inPre) {
      if (inCode) open.pop();
      else open.push('`');
      i += 1;
    } else if (inPre || inCode) {
      i += 1;
    } else if (part[i] === '[') {
      const link = /^\[(?:\\.|[^\]\\])*\]\((?:\\.|[^)\\])*\)/.exec(part.slice(i));
      if (!link) return [`broken link at ${i}`];
      i += link[0].length;
    } else {
      const marker = mdMarkers.find((m) => part.startsWith(m, i) && (m !== '_' || !part.startsWith('__', i)));
      if (marker) {
        if (open.at(-1) === marker) open.pop();
        else open.push(marker);
        i += marker.length;
      } else i += 1;
    }
  }
  return open.length > 0 ? [`left open: ${open.join(' ')}`] : [];
}

const visibleHtml = (text: string) => text.replace(/<[^>]*>/g, '').replace(/\s/g, '');
const visibleMarkdown = (text: string) =>
  text
    .replace(/```python\n/g, '')
    .replace(/\]\((?:\\.|[^)\\])*\)/g, '')
    .replace(/\\(.)/g, '\u0000$1')
    .replace(/[`*_~|[]/g, '')
    .replace(/\s/g, '');

describe('splitting formatted replies', () => {
  it('HTML: parts fit, are well-formed alone, and keep the text', () => {
    fc.assert(
      fc.property(fc.array(html, { minLength: 1, maxLength: 8 }), fc.integer({ min: 250, max: 600 }), (pieces, limit) => {
        const text = pieces.join('\n');
        const parts = splitFormattedText(text, 'HTML', limit);
        for (const part of parts) {
          expect(part.length).toBeLessThanOrEqual(limit);
          expect(htmlProblems(part), part).toEqual([]);
        }
        expect(parts.map(visibleHtml).join('')).toBe(visibleHtml(text));
      }),
      { numRuns: 300 },
    );
  });

  it('MarkdownV2: parts fit, are well-formed alone, and keep the text', () => {
    fc.assert(
      fc.property(fc.array(markdown(3, []), { minLength: 1, maxLength: 8 }), fc.integer({ min: 300, max: 600 }), (pieces, limit) => {
        const text = pieces.join('\n');
        expect(markdownProblems(text)).toEqual([]);
        const parts = splitFormattedText(text, 'MarkdownV2', limit);
        for (const part of parts) {
          expect(part.length).toBeLessThanOrEqual(limit);
          expect(markdownProblems(part), part).toEqual([]);
        }
        expect(parts.map(visibleMarkdown).join('')).toBe(visibleMarkdown(text));
      }),
      { numRuns: 300 },
    );
  });

  it('a 6,000-character <i> reply becomes two messages, each with its own <i>…</i>', () => {
    const text = `<b>Report</b>\n<i>${'word '.repeat(1200)}</i>`;
    const parts = splitFormattedText(text, 'HTML');
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatch(/^<b>Report<\/b>\n<i>word .*word<\/i>$/s);
    expect(parts[1]).toMatch(/^<i>word .*<\/i>$/s);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(4096);
  });
});
