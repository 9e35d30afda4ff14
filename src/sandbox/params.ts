// Reads Bot API parameters that may come as JSON values or as strings (form body, query string), where
// nested values are JSON-encoded strings, as the real service accepts them.
import { badRequest } from './api-failure.js';

export type Params = Record<string, unknown>;

export function integerParam(params: Params, name: string): number | undefined {
  const value = params[name];
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return Number(value);
  return undefined;
}

export function clampedInteger(params: Params, name: string, fallback: number, min: number, max: number): number {
  const value = integerParam(params, name) ?? fallback;
  return Math.min(max, Math.max(min, value));
}

export function booleanParam(params: Params, name: string): boolean {
  const value = params[name];
  return value === true || value === 1 || value === 'true' || value === '1' || value === 'True';
}

export function stringParam(params: Params, name: string): string | undefined {
  const value = params[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** An object or array parameter, given as JSON or as a JSON-encoded string. */
export function jsonParam(params: Params, name: string): unknown {
  const value = params[name];
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw badRequest(`can't parse ${name} JSON object`);
  }
}
