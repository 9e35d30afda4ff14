// Reply templates are compiled once, at load time, into literal parts and variable references, and
// every placeholder is checked against what the rule's trigger can fill. Rendering never evaluates
// code or reads object properties by a user-given name: it only switches over this closed set.

export type TemplateVariable =
  | { kind: 'user.first_name' | 'user.last_name' | 'user.username' | 'user.id' }
  | { kind: 'chat.id' | 'chat.type' | 'chat.title' | 'text' | 'args' }
  | { kind: 'match'; group: number | string };

export type TemplatePart = string | TemplateVariable;

export interface Template {
  readonly source: string;
  readonly parts: readonly TemplatePart[];
  /** True when the text has no placeholders (its length is then known at check time). */
  readonly isStatic: boolean;
}

export type TriggerKind = 'command' | 'text' | 'pattern' | 'keywords' | 'fallback';

export interface TemplateContext {
  trigger: TriggerKind;
  /** For pattern rules: number of capturing groups and the named ones. */
  groupCount?: number;
  groupNames?: ReadonlySet<string>;
}

const SIMPLE = ['user.first_name', 'user.last_name', 'user.username', 'user.id', 'chat.id', 'chat.type', 'chat.title', 'text', 'args'] as const;
export const TEMPLATE_VARIABLES: readonly string[] = [...SIMPLE, 'match.N', 'match.NAME'];
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

export type TemplateResult = { ok: true; template: Template } | { ok: false; errors: string[] };

export function compileTemplate(source: string, context: TemplateContext): TemplateResult {
  const parts: TemplatePart[] = [];
  const errors: string[] = [];
  let last = 0;
  for (const m of source.matchAll(PLACEHOLDER)) {
    if (m.index > last) parts.push(source.slice(last, m.index));
    last = m.index + m[0].length;
    const name = m[1]!.trim();
    const result = resolve(name, context);
    if (typeof result === 'string') errors.push(result);
    else parts.push(result);
  }
  if (last < source.length) parts.push(source.slice(last));
  const stray = source.replace(PLACEHOLDER, '');
  if (stray.includes('{{') || stray.includes('}}')) {
    errors.push(`unbalanced '{{' or '}}' in "${shorten(source)}": placeholders look like {{user.first_name}}`);
  }
  if (errors.length > 0) return { ok: false, errors };
  const merged = mergeLiterals(parts);
  return { ok: true, template: { source, parts: merged, isStatic: merged.every((p) => typeof p === 'string') } };
}

function resolve(name: string, context: TemplateContext): TemplateVariable | string {
  if ((SIMPLE as readonly string[]).includes(name)) {
    if (name === 'args' && context.trigger !== 'command') {
      return `{{args}} is only available in command rules (it holds the text after the command)`;
    }
    return { kind: name as (typeof SIMPLE)[number] };
  }
  const match = /^match\.(\w+)$/.exec(name);
  if (match) {
    const group = match[1]!;
    if (context.trigger !== 'pattern') return `{{${name}}} needs a pattern rule: only patterns have captures`;
    if (/^\d+$/.test(group)) {
      const n = Number(group);
      const count = context.groupCount ?? 0;
      if (n > count) return `{{${name}}}: the pattern has ${count === 0 ? 'no capturing groups' : `only ${count} capturing group${count === 1 ? '' : 's'}`}`;
      return { kind: 'match', group: n };
    }
    if (!context.groupNames?.has(group)) {
      const names = [...(context.groupNames ?? [])];
      return `{{${name}}}: the pattern has no group named '${group}'${names.length ? ` (it has ${names.map((n) => `'${n}'`).join(', ')})` : ''}; name one with (?<${group}>...)`;
    }
    return { kind: 'match', group };
  }
  return `unknown placeholder {{${name}}}; available: ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`;
}

function mergeLiterals(parts: TemplatePart[]): TemplatePart[] {
  const out: TemplatePart[] = [];
  for (const part of parts) {
    const prev = out[out.length - 1];
    if (typeof part === 'string' && typeof prev === 'string') out[out.length - 1] = prev + part;
    else out.push(part);
  }
  return out;
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
