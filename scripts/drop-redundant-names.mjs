// esbuild's keepNames wraps every named function and class in `__name(fn, "name")` (Object.defineProperty), so
// that names survive its renaming of identifiers that clash across modules (CommanderError2, ...; libraries read
// `constructor.name`). Where nothing was renamed the call sets the name JavaScript already gave, yet it costs:
// it runs for every closure made per update (the matcher's `consider`, the client's `onAbort`), and the bundle
// with all of them used ~15% more CPU per update in polling than without (measured, see BENCHMARKS.md). This
// pass removes exactly those calls, found with TypeScript's parser; the ones restoring a renamed name stay.
import ts from 'typescript';

/** True for a function whose `.name` JavaScript sets to `name` by itself when it is bound to `name`. */
function namedByBinding(fn, name) {
  if (ts.isArrowFunction(fn)) return true;
  if (ts.isFunctionExpression(fn)) return fn.name === undefined || fn.name.text === name;
  return false;
}

/** The name JavaScript gives an anonymous function or class at `node` from its binding (variable, assignment, property). */
function bindingName(node) {
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.right === node && ts.isIdentifier(parent.left))
    return parent.left.text;
  if (ts.isPropertyAssignment(parent) && parent.initializer === node && (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name)))
    return parent.name.text;
  return undefined;
}

/**
 * `__name(foo, "foo");`: esbuild writes this statement form only for a declaration (function or class) whose
 * name is the identifier, so when the two agree the call changes nothing.
 */
function isDeclarationNameStatement(call, name) {
  const [target] = call.arguments;
  return ts.isIdentifier(target) && target.text === name && ts.isExpressionStatement(call.parent);
}

/** The name a class already has: its own, or the one its binding gives an anonymous class expression. */
function className(node) {
  return node.name ? node.name.text : bindingName(node);
}

/** `static { __name(this, "Foo"); }` inside a class already named Foo: the block, or just the statement. */
function classNameStatement(call, name, source) {
  const statement = call.parent;
  if (call.arguments[0].kind !== ts.SyntaxKind.ThisKeyword || !ts.isExpressionStatement(statement)) return undefined;
  const block = statement.parent?.parent;
  if (!block || !ts.isClassStaticBlockDeclaration(block) || className(block.parent) !== name) return undefined;
  const whole = block.body.statements.length === 1 ? block : statement;
  return [whole.getStart(source), whole.end];
}

/**
 * Returns `code` without the `__name` calls that set a name the function already has, and how many went.
 * Calls that restore a renamed identifier's name (and every class's) are kept.
 */
export function dropRedundantNames(code, fileName = 'bundle.cjs') {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = [];
  let dropped = 0;
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === '__name' && node.arguments.length === 2) {
      const [target, literal] = node.arguments;
      if (ts.isStringLiteral(literal)) {
        const name = literal.text;
        const inClass = classNameStatement(node, name, source);
        const before = edits.length;
        if (inClass) edits.push(inClass);
        else if (isDeclarationNameStatement(node, name)) edits.push([node.parent.getStart(source), node.parent.end]);
        else if ((ts.isFunctionExpression(target) && target.name?.text === name) || (bindingName(node) === name && namedByBinding(target, name))) {
          // Unwrap: drop `__name(` and `, "name")`, keeping the function (and the edits inside it) in place.
          edits.push([node.getStart(source), target.getStart(source)], [target.end, node.end]);
        }
        if (edits.length > before) dropped += 1;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // Every edit is a deletion and none overlaps another, so they apply in order of position.
  edits.sort((a, b) => a[0] - b[0]);
  const parts = [];
  let at = 0;
  for (const [start, end] of edits) {
    parts.push(code.slice(at, start));
    at = end;
  }
  parts.push(code.slice(at));
  return { code: parts.join(''), dropped };
}
