// Compiles the requests of `call` and `notify` (a backend, one method with its path, a JSON body) and renders
// them at decide time. Values inserted into the path or the query are percent-encoded for their place, so a user
// typing `../admin?x=1` stays one path segment; the body's texts are templates inserted as they are (the body is
// JSON-encoded, never interpreted). Whether a backend is declared is the configuration's business, checked
// where both are known (the service, `hearsay check` with a config).
import type { JsonValue } from './actions.js';
import type { BackendMethod, BackendRequest } from './backend-calls.js';
import type { RuleEnvironment } from './compile-reach.js';
import { renderEscaped, type RenderValues } from './render.js';
import { compileTemplate, type Template, type TemplateContext } from './template.js';

/** A call or notify as written: the backend, one method key with its path, and a body. */
export interface RequestSource {
  readonly backend: string;
  readonly get?: string;
  readonly post?: string;
  readonly put?: string;
  readonly patch?: string;
  readonly delete?: string;
  readonly body?: unknown;
}

/** A body's compiled form: its texts as templates, everything else as written. */
export type BodyTemplate =
  | { readonly kind: 'text'; readonly template: Template }
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'list'; readonly items: readonly BodyTemplate[] }
  | { readonly kind: 'object'; readonly entries: readonly (readonly [string, BodyTemplate])[] };

/** A compiled request: rendered into a BackendRequest for each event. */
export interface CompiledRequest {
  readonly backend: string;
  readonly method: BackendMethod;
  /** The path as written, with its query: what logs show. */
  readonly source: string;
  readonly path: Template;
  /** What follows the first `?`, when the path has a query. */
  readonly query: Template | null;
  readonly body?: BodyTemplate;
}

/** Reports a problem at a path inside the request (`['get']`, `['body', 'date']`). */
export type RequestProblemSink = (path: (string | number)[], message: string, severity?: 'error' | 'warning') => void;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Methods whose request carries a body. */
const BODY_METHODS: ReadonlySet<BackendMethod> = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Compiles a request of `what` (e.g. "the call of rule 'order-status'"); undefined when it has an error
 * (reported). `kind` says whether the answer is awaited (`call`) or not (`notify`: a body is then required
 * where the method sends one, since nobody reads an answer to learn it was missing).
 */
export function compileRequest(
  source: RequestSource,
  kind: 'call' | 'notify',
  context: TemplateContext,
  what: string,
  report: RequestProblemSink,
  environment?: RuleEnvironment,
): CompiledRequest | undefined {
  const key = METHODS.find((method) => source[method] !== undefined)!;
  const method = key.toUpperCase() as BackendMethod;
  const written = source[key]!;
  if (environment && !environment.backends?.has(source.backend)) report(['backend'], undeclaredBackend(source.backend, environment));
  let ok = true;
  const question = written.indexOf('?');
  const template = (text: string, path: (string | number)[]): Template | null => {
    const result = compileTemplate(text, context);
    if (result.ok) return result.template;
    for (const message of result.errors) report(path, `${message} (in ${what})`);
    ok = false;
    return null;
  };
  const path = template(question < 0 ? written : written.slice(0, question), [key]);
  const query = question < 0 ? null : template(written.slice(question + 1), [key]);
  if (source.body !== undefined && !BODY_METHODS.has(method) && method !== 'DELETE')
    report(['body'], `${what} is a ${method}, which sends no body: remove the body, or use post, put or patch`);
  if (kind === 'notify' && source.body === undefined && BODY_METHODS.has(method))
    report([], `${what} is a ${method} without a body: give one (body: { ... }), since nobody reads the answer to learn it was empty`);
  const bodyProblem = (at: (string | number)[], message: string) => {
    ok = false;
    report(at, `${message} (in ${what})`);
  };
  const body = source.body === undefined ? undefined : compileBody(source.body, ['body'], bodyProblem, context);
  if (!ok || !path) return undefined;
  return Object.freeze({ backend: source.backend, method, source: written, path, query, ...(body ? { body } : {}) });
}

/** Why a backend name cannot be used, and what to do. */
export function undeclaredBackend(name: string, environment: RuleEnvironment): string {
  const where = environment.configFile ?? 'the configuration (no config file was read: pass --config, or run where hearsay.yaml is)';
  const declared = [...(environment.backends ?? [])];
  const known = declared.length > 0 ? ` (declared: ${declared.join(', ')})` : '';
  return `backend '${name}' is not declared in ${where}: add it under backends:, e.g. backends: { ${name}: { url: https://... } }${known}`;
}

function compileBody(
  value: unknown,
  at: (string | number)[],
  report: (path: (string | number)[], message: string) => void,
  context: TemplateContext,
): BodyTemplate {
  if (typeof value === 'string') {
    const result = compileTemplate(value, context);
    if (result.ok) return result.template.isStatic ? { kind: 'value', value } : { kind: 'text', template: result.template };
    for (const message of result.errors) report(at, message);
    return { kind: 'value', value };
  }
  if (Array.isArray(value)) return { kind: 'list', items: value.map((item, i) => compileBody(item, [...at, i], report, context)) };
  if (typeof value === 'object' && value !== null)
    return { kind: 'object', entries: Object.entries(value).map(([key, item]) => [key, compileBody(item, [...at, key], report, context)] as const) };
  return { kind: 'value', value: value as JsonValue };
}

/**
 * The request for these values. Every value inserted in the path is percent-encoded as a segment (a `/`, `?`,
 * `#` or `.` in it cannot change the path), every value in the query as a query component.
 */
export function renderRequest(request: CompiledRequest, values: RenderValues): BackendRequest {
  let path = renderEscaped(request.path, values, encodePathValue);
  if (request.query) path += `?${renderEscaped(request.query, values, encodeURIComponent)}`;
  return {
    backend: request.backend,
    method: request.method,
    path,
    template: request.source,
    ...(request.body ? { body: renderBody(request.body, values) } : {}),
  };
}

/** A value for a path segment: everything but letters, digits and `-_~` percent-encoded (dots too, so no value makes `..`). */
export function encodePathValue(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*.]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function renderBody(body: BodyTemplate, values: RenderValues): JsonValue {
  switch (body.kind) {
    case 'value':
      return body.value;
    case 'text':
      return renderEscaped(body.template, values, (value) => value);
    case 'list':
      return body.items.map((item) => renderBody(item, values));
    case 'object': {
      const out: { [key: string]: JsonValue } = {};
      for (const [key, item] of body.entries)
        Object.defineProperty(out, key, { value: renderBody(item, values), enumerable: true, writable: true, configurable: true });
      return out;
    }
  }
}
