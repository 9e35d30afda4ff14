// Takes out the indentation esbuild writes into the bundle: a fifth of its bytes, which V8 keeps in memory for as
// long as a bot runs (it compiles functions lazily from the source; BENCHMARKS.md, "fifteenth pass"). Every line
// stays where it was, so a stack trace's line numbers and the `// src/...` markers of each module are the same;
// a line that starts inside a literal (a template's text, where the spaces are part of the value) keeps them.
import ts from 'typescript';

/** The kinds of token whose text is a value: whitespace at a line start inside one of them is kept. */
const LITERALS = new Set([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.TemplateMiddle,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.RegularExpressionLiteral,
]);

/** Start and end of every literal token in `code`, in order of position. */
function literalSpans(code, fileName) {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const spans = [];
  const visit = (node) => {
    if (LITERALS.has(node.kind)) spans.push([node.getStart(source), node.end]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  spans.sort((a, b) => a[0] - b[0]);
  return spans;
}

/**
 * Returns `code` with the spaces and tabs at the start of each line removed, except where a line starts inside a
 * literal. Lines, comments and every token stay as they were: only whitespace that separates nothing goes.
 */
export function stripIndentation(code, fileName = 'bundle.cjs') {
  const spans = literalSpans(code, fileName);
  const parts = [];
  let span = 0;
  let at = 0;
  for (let lineStart = 0; lineStart < code.length;) {
    const newline = code.indexOf('\n', lineStart);
    const lineEnd = newline < 0 ? code.length : newline + 1;
    while (span < spans.length && spans[span][1] <= lineStart) span += 1;
    const insideLiteral = span < spans.length && spans[span][0] < lineStart;
    let textStart = lineStart;
    if (!insideLiteral) while (code[textStart] === ' ' || code[textStart] === '\t') textStart += 1;
    if (textStart > lineStart) {
      parts.push(code.slice(at, lineStart));
      at = textStart;
    }
    lineStart = lineEnd;
  }
  parts.push(code.slice(at));
  return parts.join('');
}
