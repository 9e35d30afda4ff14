// The webhook's hot path: the service's POST of an update — the webhook path, the right secret, a JSON body of a
// declared length within the limit — read and answered on node:http directly, ahead of Fastify's router. Fastify's
// lifecycle for that one request (routing, hooks, body parser, schema step, reply) cost about 2 µs of the ~40 µs an
// update costs in the bench's webhook run, a twentieth of the throughput (BENCHMARKS.md). Whatever this path does not
// take goes to Fastify, which answers it as before: other methods and paths, a wrong secret (401), a shutdown (503),
// a body sent without a length or over the limit (413), another content type (415), an empty body (400). What it
// does take is judged as Fastify would: the same JSON parser and settings, the same validator, the same messages.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorCodes } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import { validate as validateWebhookUpdate } from '../generated/webhook-update-validator.js';

/** How a webhook request is answered: its status; for a refusal the error told, and whether to add Retry-After. */
export interface WebhookAnswer {
  status: number;
  error?: string;
  retryAfter?: boolean;
}

export interface WebhookPostOptions {
  path: string;
  maxBodyBytes: number;
  /** Whether a request this path could take may be taken now: its secret is right and the webhook is not closing. */
  admits(request: IncomingMessage): boolean;
  /** Hands a valid update on, with the size of the JSON text it was parsed from; resolves with what to answer. */
  receive(update: unknown, bodyBytes: number): Promise<WebhookAnswer>;
  /** The answer to a body that is not a valid update: not JSON, or not the shape of one (`validation`), in Fastify's words. */
  invalid(problem: BodyProblem): WebhookAnswer;
  /** The answer when handing it on failed unexpectedly (a bug): a 500, as Fastify gives for an error it did not expect. */
  failed(error: unknown): WebhookAnswer;
}

/** Why a body was refused, as Fastify's error for it would say. */
export interface BodyProblem {
  message: string;
  /** The schema refused it (else it is not JSON). */
  validation: boolean;
}

/** As Fastify parses JSON bodies by default: prototype and constructor poisoning is refused, not stripped. */
const JSON_PARSE_OPTIONS = { protoAction: 'error', constructorAction: 'error' } as const;
const INVALID_JSON = new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY().message;

/**
 * The request listener's first look: takes the request (and answers it) when it is an update POST it can read on its
 * own, and returns true; otherwise returns false, having touched nothing, for Fastify to handle.
 */
export function createWebhookPostPath(options: WebhookPostOptions): (request: IncomingMessage, response: ServerResponse) => boolean {
  return (request, response) => {
    if (request.method !== 'POST' || request.url !== options.path) return false;
    const length = declaredLength(request, options.maxBodyBytes);
    if (length === null || !isPlainJson(request.headers['content-type']) || !options.admits(request)) return false;
    readBody(request, length, (body) => {
      // Runs in an event handler: nothing may escape it, or it would take the process down.
      try {
        const parsed = parseUpdate(body, options);
        if ('status' in parsed) sendAnswer(response, parsed);
        else
          options.receive(parsed.update, body.length).then(
            (answer) => sendAnswer(response, answer),
            (error: unknown) => sendAnswer(response, options.failed(error)),
          );
      } catch (error) {
        sendAnswer(response, options.failed(error));
      }
    });
    return true;
  };
}

/** Writes `answer`, shaped as Fastify shapes it: a JSON error body for a refusal, no body for a 200. */
export function sendAnswer(response: ServerResponse, answer: WebhookAnswer): void {
  if (answer.error === undefined) {
    response.writeHead(answer.status).end();
    return;
  }
  const body = JSON.stringify({ ok: false, error: answer.error });
  const headers: Record<string, string | number> = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) };
  if (answer.retryAfter) headers['retry-after'] = '1';
  response.writeHead(answer.status, headers).end(body);
}

/** The body's declared length when it is one to read here (no chunked body, nothing empty, nothing over the limit). */
function declaredLength(request: IncomingMessage, maxBodyBytes: number): number | null {
  const header = request.headers['content-length'];
  if (header === undefined || request.headers['transfer-encoding'] !== undefined) return null;
  const length = Number(header);
  return Number.isInteger(length) && length > 0 && length <= maxBodyBytes ? length : null;
}

/** `application/json`, bare or with `charset=utf-8` (what the service sends); anything else is Fastify's to judge. */
function isPlainJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = contentType.toLowerCase();
  return type === 'application/json' || type.replace(/\s+/g, '') === 'application/json;charset=utf-8';
}

/** Collects the body (Node's parser stops at the declared length); a request cut off mid-body is dropped. */
function readBody(request: IncomingMessage, length: number, onBody: (body: Buffer) => void): void {
  // Nearly every body comes in one chunk: an array only for a second one.
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  request.on('data', (chunk: Buffer) => {
    if (first === undefined) first = chunk;
    else if (more === undefined) more = [first, chunk];
    else more.push(chunk);
  });
  request.on('end', () => onBody(more ? Buffer.concat(more, length) : (first ?? Buffer.alloc(0))));
  // The client went away: no update was taken, nothing to answer.
  request.on('error', () => undefined);
}

/**
 * JSON.parse, refusing `__proto__` and `constructor` keys as Fastify does (secure-json-parse). That parser scans the
 * text for either key, plain or written with \u escapes, and filters only when one may be there: a text with no
 * escape and neither word cannot hold one, and is parsed as it is (a byte-order mark dropped, as it does).
 */
function parseJson(text: string): unknown {
  if (text.includes('\\u') || text.includes('proto') || text.includes('constructor')) return secureJsonParse.parse(text, undefined, JSON_PARSE_OPTIONS);
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

function parseUpdate(body: Buffer, options: WebhookPostOptions): { update: unknown } | WebhookAnswer {
  let update: unknown;
  try {
    update = parseJson(body.toString('utf8'));
  } catch {
    return options.invalid({ message: INVALID_JSON, validation: false });
  }
  if (!validateWebhookUpdate(update)) {
    // Fastify's schema error text (its default formatter, the body being "body").
    const message = (validateWebhookUpdate.errors ?? []).map((error) => `body${error.instancePath} ${error.message ?? ''}`).join(', ');
    return options.invalid({ message, validation: true });
  }
  return { update };
}
