// The parse_mode parsers against the service's documented behaviour: the entities each markup gives, the
// exact "can't parse entities" wording with UTF-8 byte offsets, and the entities found without markup.
import { describe, expect, it } from 'vitest';
import { withDetectedEntities } from '../../src/markup/auto-entities.js';
import { formatText } from '../../src/markup/format-text.js';
import { parseHtml } from '../../src/markup/html.js';
import { parseMarkdown } from '../../src/markup/markdown.js';
import { parseMarkdownV2 } from '../../src/markup/markdown-v2.js';

const errorOf = (parse: () => unknown): string => {
  try {
    parse();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a parse error');
};

describe('HTML', () => {
  it('turns the supported tags into entities, nested ones included', () => {
    expect(parseHtml('<b>bold <i>both</i></b> <u>u</u> <s>s</s> <del>d</del> <tg-spoiler>sp</tg-spoiler> <span class="tg-spoiler">sp2</span>')).toEqual({
      text: 'bold both u s d sp sp2',
      entities: [
        { type: 'bold', offset: 0, length: 9 },
        { type: 'italic', offset: 5, length: 4 },
        { type: 'underline', offset: 10, length: 1 },
        { type: 'strikethrough', offset: 12, length: 1 },
        { type: 'strikethrough', offset: 14, length: 1 },
        { type: 'spoiler', offset: 16, length: 2 },
        { type: 'spoiler', offset: 19, length: 3 },
      ],
    });
  });

  it('reads links, code, pre with a language and block quotes', () => {
    expect(parseHtml('<a href="https://example.com/a?b=1&amp;c=2">link</a> <a href=\'example.org\'>bare</a>').entities).toEqual([
      { type: 'text_link', offset: 0, length: 4, url: 'https://example.com/a?b=1&c=2' },
      { type: 'text_link', offset: 5, length: 4, url: 'http://example.org/' },
    ]);
    expect(parseHtml('<code class="language-js">x</code> <pre><code class="language-py">print(1)</code></pre> <pre>raw</pre>').entities).toEqual([
      { type: 'code', offset: 0, length: 1 },
      { type: 'pre', offset: 2, length: 8, language: 'py' },
      { type: 'pre', offset: 11, length: 3 },
    ]);
    expect(parseHtml('<blockquote>q</blockquote><blockquote expandable>e</blockquote>').entities).toEqual([
      { type: 'blockquote', offset: 0, length: 1 },
      { type: 'expandable_blockquote', offset: 1, length: 1 },
    ]);
  });

  it('decodes the named and numeric character references and keeps unknown ones as text', () => {
    expect(parseHtml('&lt;b&gt; &amp; &quot; &#65;&#x42; &#128512; &nbsp; &copy').text).toBe('<b> & " AB 😀 &nbsp; &copy');
    // Found by the property test: names of Object.prototype members are no references either.
    expect(parseHtml('&toString; &constructor &__proto__;').text).toBe('&toString; &constructor &__proto__;');
  });

  it('drops empty entities and links that are not links', () => {
    expect(parseHtml('<b></b>x<a href="not a link">y</a>')).toEqual({ text: 'xy', entities: [] });
  });

  it.each([
    ['a < b', 'Unsupported start tag "" at byte offset 2'],
    ['<div>x</div>', 'Unsupported start tag "div" at byte offset 0'],
    ['é<br>', 'Unsupported start tag "br" at byte offset 2'],
    ['<b>x', 'Can\'t find end tag corresponding to start tag "b"'],
    ['x</b>', 'Unexpected end tag at byte offset 1'],
    ['<b>x</i>', 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'],
    ['<b', 'Unclosed start tag at byte offset 0'],
    ['<b>x</b', 'Unclosed end tag at byte offset 4'],
    ['<span>s</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'],
    ['<a href=x$y>z</a>', 'Unexpected end of name token at byte offset 8'],
    ['<b =1>x</b>', 'Empty attribute name in the tag "b" at byte offset 0'],
  ])('%j is refused: %s', (input, message) => {
    expect(errorOf(() => parseHtml(input))).toBe(message);
  });
});

describe('MarkdownV2', () => {
  it('turns the markup into entities', () => {
    expect(parseMarkdownV2('*bold _italic_* __under__ ~s~ ||sp|| `co\\`de` [t](http://x.com/a\\)b) \\*not\\*')).toEqual({
      text: 'bold italic under s sp co`de t *not*',
      entities: [
        { type: 'bold', offset: 0, length: 11 },
        { type: 'italic', offset: 5, length: 6 },
        { type: 'underline', offset: 12, length: 5 },
        { type: 'strikethrough', offset: 18, length: 1 },
        { type: 'spoiler', offset: 20, length: 2 },
        { type: 'code', offset: 23, length: 5 },
        { type: 'text_link', offset: 29, length: 1, url: 'http://x.com/a)b' },
      ],
    });
  });

  it('reads pre blocks with a language and block quotes, expandable ones too', () => {
    expect(parseMarkdownV2('```python\nprint(1)\n```')).toEqual({ text: 'print(1)\n', entities: [{ type: 'pre', offset: 0, length: 9, language: 'python' }] });
    expect(parseMarkdownV2('>one\n>two\nafter')).toEqual({ text: 'one\ntwo\nafter', entities: [{ type: 'blockquote', offset: 0, length: 7 }] });
    expect(parseMarkdownV2('**>one\n>two||')).toEqual({ text: 'one\ntwo', entities: [{ type: 'expandable_blockquote', offset: 0, length: 7 }] });
  });

  it.each([
    ['Hello.', "Character '.' is reserved and must be escaped with the preceding '\\'"],
    ['a-b', "Character '-' is reserved and must be escaped with the preceding '\\'"],
    ['x > y', "Character '>' is reserved and must be escaped with the preceding '\\'"],
    ['*bold', "Can't find end of Bold entity at byte offset 0"],
    ['héllo _x', "Can't find end of Italic entity at byte offset 7"],
    ['__u', "Can't find end of Underline entity at byte offset 0"],
    ['`code', "Can't find end of Code entity at byte offset 0"],
    ['```\ncode', "Can't find end of Pre entity at byte offset 0"],
    ['[x](http://a', "Can't find end of a URL at byte offset 4"],
    ['>quote *bold\nnext', "Can't find end of Bold entity at byte offset 7"],
  ])('%j is refused: %s', (input, message) => {
    expect(errorOf(() => parseMarkdownV2(input))).toBe(message);
  });
});

describe('Markdown (legacy)', () => {
  it('reads *bold*, _italic_, `code`, ```pre``` and [links](…), with no reserved characters', () => {
    expect(parseMarkdown('*b* _i_ `c` [l](example.org) 1.5-2 ```js\nx```')).toEqual({
      text: 'b i c l 1.5-2 x',
      entities: [
        { type: 'bold', offset: 0, length: 1 },
        { type: 'italic', offset: 2, length: 1 },
        { type: 'code', offset: 4, length: 1 },
        { type: 'text_link', offset: 6, length: 1, url: 'http://example.org/' },
        { type: 'pre', offset: 14, length: 1, language: 'js' },
      ],
    });
    expect(errorOf(() => parseMarkdown('ü *open'))).toBe("Can't find end of the entity starting at byte offset 3");
  });
});

describe('entities the service finds by itself', () => {
  it('marks commands, links, e-mail addresses, mentions and hashtags, but not file names', () => {
    const text = 'Try /help or https://example.com/x. Mail support@example.com #tag @some_bot, see rules/faq.yaml';
    const found = withDetectedEntities(text, []).map((e) => [e.type, text.slice(e.offset, e.offset + e.length)]);
    expect(found).toEqual([
      ['bot_command', '/help'],
      ['url', 'https://example.com/x'],
      ['email', 'support@example.com'],
      ['hashtag', '#tag'],
      ['mention', '@some_bot'],
    ]);
  });

  it('finds nothing inside code, pre or a text link', () => {
    const parsed = formatText('<code>/help</code> <a href="https://x.com">/start</a> /ok', 'HTML');
    expect(parsed.entities.map((e) => e.type)).toEqual(['code', 'text_link', 'bot_command']);
  });
});
