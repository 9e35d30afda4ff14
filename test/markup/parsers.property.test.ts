// Properties of the parse_mode parsers over generated input: escaped text comes back unchanged, a tree
// of formatting comes back as exactly its entities, any input either parses into well-formed entities
// or fails with the service's wording, and error offsets count UTF-8 bytes.
import fc from 'fast-check';
import type { MessageEntity } from '@grammyjs/types';
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/markup/html.js';
import { parseMarkdownV2 } from '../../src/markup/markdown-v2.js';
import { EntityParseError } from '../../src/markup/parsed-text.js';

type Style = 'bold' | 'italic' | 'underline' | 'strikethrough' | 'spoiler' | 'code';
type Node = { text: string } | { style: Style; children: Node[] };

const HTML_TAGS: Record<Style, [string, string]> = {
  bold: ['<b>', '</b>'],
  italic: ['<i>', '</i>'],
  underline: ['<u>', '</u>'],
  strikethrough: ['<s>', '</s>'],
  spoiler: ['<tg-spoiler>', '</tg-spoiler>'],
  code: ['<code>', '</code>'],
};
const MD_MARKS: Record<Style, string> = { bold: '*', italic: '_', underline: '__', strikethrough: '~', spoiler: '||', code: '`' };

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeMd = (text: string) => text.replace(/[_*[\]()~`>#+\-=|{}.!\\]/g, '\\$&');
const escapeMdCode = (text: string) => text.replace(/[`\\]/g, '\\$&');

// Text of any characters, including the markup ones and astral characters (two UTF-16 units each).
const anyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('<', '>', '&', '*', '_', '`', '\\', '|', '~', '[', ']', '.', '\n', ' '),
    fc.string({ minLength: 1, maxLength: 1 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
});
const word = fc.string({
  unit: fc.oneof(fc.constantFrom('a', 'é', '😀', '.', '*', '<', '&', ' '), fc.string({ minLength: 1, maxLength: 1 })),
  minLength: 1,
  maxLength: 6,
});

// Every formatted node has text before and after each child, so no two markers touch (MarkdownV2
// cannot tell `___` apart otherwise), and a style never nests inside itself (the service forbids it).
const tree = fc.letrec<{ node: Node; inner: Node[] }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    word.map((text) => ({ text })),
    fc.record({
      style: fc.constantFrom<Style>('bold', 'italic', 'underline', 'strikethrough', 'spoiler', 'code'),
      children: tie('inner'),
    }) as fc.Arbitrary<Node>,
  ),
  inner: fc.array(tie('node'), { maxLength: 3 }).chain((nodes) => word.map((edge) => [{ text: edge }, ...nodes.flatMap((n) => [n, { text: edge }])])),
}));

function clean(node: Node, outer: ReadonlySet<Style> = new Set()): Node {
  if ('text' in node) return node;
  if (outer.has(node.style) || outer.has('code')) return { text: plain(node) };
  const inside = new Set([...outer, node.style]);
  return { style: node.style, children: node.children.map((child) => clean(child, inside)) };
}
const plain = (node: Node): string => ('text' in node ? node.text : node.children.map(plain).join(''));

function expected(node: Node, offset = 0, out: MessageEntity[] = []): MessageEntity[] {
  if ('text' in node) return out;
  const length = plain(node).length;
  if (length > 0) out.push({ type: node.style, offset, length } as MessageEntity);
  let at = offset;
  for (const child of node.children) {
    expected(child, at, out);
    at += plain(child).length;
  }
  return out;
}
const sorted = (entities: MessageEntity[]) => [...entities].sort((a, b) => a.offset - b.offset || b.length - a.length);

function toHtml(node: Node): string {
  if ('text' in node) return escapeHtml(node.text);
  const [open, close] = HTML_TAGS[node.style];
  return open + node.children.map(toHtml).join('') + close;
}
function toMd(node: Node, inCode = false): string {
  if ('text' in node) return inCode ? escapeMdCode(node.text) : escapeMd(node.text);
  const mark = MD_MARKS[node.style];
  return mark + node.children.map((child) => toMd(child, node.style === 'code')).join('') + mark;
}

/** Entities inside the text, non-empty, in the service's order, each pair nested or apart. */
function wellFormed(text: string, entities: MessageEntity[]): void {
  expect(entities).toEqual(sorted(entities));
  for (const entity of entities) {
    expect(entity.length).toBeGreaterThan(0);
    expect(entity.offset + entity.length).toBeLessThanOrEqual(text.length);
  }
  for (const a of entities) {
    for (const b of entities) {
      const apart = a.offset + a.length <= b.offset || b.offset + b.length <= a.offset;
      const nested =
        (a.offset <= b.offset && b.offset + b.length <= a.offset + a.length) || (b.offset <= a.offset && a.offset + a.length <= b.offset + b.length);
      expect(apart || nested).toBe(true);
    }
  }
}

const RUNS = { numRuns: 400 };

describe('HTML, generated', () => {
  it('escaped text comes back unchanged, with no entities', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(parseHtml(escapeHtml(text))).toEqual({ text, entities: [] });
      }),
      RUNS,
    );
  });

  it('a tree of tags comes back as its text and exactly its entities', () => {
    fc.assert(
      fc.property(tree.node, (generated) => {
        const node = clean(generated);
        const parsed = parseHtml(toHtml(node));
        expect(parsed.text).toBe(plain(node));
        expect(parsed.entities).toEqual(sorted(expected(node)));
      }),
      RUNS,
    );
  });

  it('any input parses into well-formed entities or fails with a parse error', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        try {
          const parsed = parseHtml(input);
          wellFormed(parsed.text, parsed.entities);
        } catch (error) {
          expect(error).toBeInstanceOf(EntityParseError);
        }
      }),
      RUNS,
    );
  });

  it('reports the byte offset of an unsupported tag after any escaped text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const prefix = escapeHtml(text);
        expect(() => parseHtml(`${prefix}<div>`)).toThrow(`Unsupported start tag "div" at byte offset ${Buffer.byteLength(prefix)}`);
      }),
      RUNS,
    );
  });
});

describe('MarkdownV2, generated', () => {
  it('escaped text comes back unchanged, with no entities', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(parseMarkdownV2(escapeMd(text))).toEqual({ text, entities: [] });
      }),
      RUNS,
    );
  });

  it('a tree of markup comes back as its text and exactly its entities', () => {
    fc.assert(
      fc.property(tree.node, (generated) => {
        const node = clean(generated);
        const parsed = parseMarkdownV2(toMd(node));
        expect(parsed.text).toBe(plain(node));
        expect(parsed.entities).toEqual(sorted(expected(node)));
      }),
      RUNS,
    );
  });

  it('any input parses into well-formed entities or fails with a parse error', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        try {
          const parsed = parseMarkdownV2(input);
          wellFormed(parsed.text, parsed.entities);
        } catch (error) {
          expect(error).toBeInstanceOf(EntityParseError);
        }
      }),
      RUNS,
    );
  });

  it('reports the byte offset of an unclosed entity after any escaped text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const prefix = escapeMd(text);
        expect(() => parseMarkdownV2(`${prefix}*open`)).toThrow(`Can't find end of Bold entity at byte offset ${Buffer.byteLength(prefix)}`);
      }),
      RUNS,
    );
  });
});
