// The bundle step that takes out esbuild's indentation: the code means what it meant (every literal's text, a
// template's indented lines included, is unchanged), every line stays where it was, and the bundle itself has no
// indentation left outside its literals.
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { HEARSAY_BUNDLE } from '../support/cli.js';

const script = new URL('../../scripts/strip-indentation.mjs', import.meta.url).href;
const { stripIndentation } = (await import(script)) as { stripIndentation(code: string): string };

// Indented code around literals whose lines start with spaces: a template (with a nested template and an
// expression spanning lines), a regular expression and strings, and a comment.
const SOURCE = `(() => {
    // src/example.ts
    const name = "Ann";
    const nested = \`outer
      \${[1, 2].map((n) => \`
        item \${n}\`).join(
          ",")}
      end\`;
    /* a block comment
       over two lines */
    const pattern = /  two spaces/;
    const quoted = '  kept';
    if (name)
        return { nested, matches: pattern.test("a  two spaces"), quoted, yaml: \`rules:
  - id: hi
    reply: "Hi \${name}"
\` };
})()`;

describe('stripIndentation', () => {
  it('keeps what the code evaluates to, and the text of every literal', () => {
    const stripped = stripIndentation(SOURCE);
    expect(runInNewContext(stripped)).toEqual(runInNewContext(SOURCE));
    expect((runInNewContext(stripped) as { yaml: string }).yaml).toBe('rules:\n  - id: hi\n    reply: "Hi Ann"\n');
  });

  it('takes the indentation out of code and comments, and keeps every line', () => {
    const stripped = stripIndentation(SOURCE);
    expect(stripped.split('\n')).toHaveLength(SOURCE.split('\n').length);
    expect(stripped).toContain('\n// src/example.ts\nconst name = "Ann";\n');
    expect(stripped).toContain('\nover two lines */\nconst pattern = /  two spaces/;\n');
    expect(stripped).toContain('\nreturn { nested');
    // Lines inside the templates keep their spaces.
    expect(stripped).toContain('`outer\n      ${');
    expect(stripped).toContain('\n        item ${n}`');
    expect(stripped).toContain('rules:\n  - id: hi\n    reply:');
  });

  it('leaves the built bundle no indentation outside its literals', () => {
    const bundle = readFileSync(HEARSAY_BUNDLE, 'utf8');
    expect(stripIndentation(bundle)).toBe(bundle);
    expect(bundle).toContain('\n// src/cli/main.ts\n');
  });
});
