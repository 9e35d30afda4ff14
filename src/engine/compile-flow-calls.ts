// Compiles what a flow asks of the operator's backends: a step whose answer a backend accepts (`accept: { call }`,
// with {{answer}} in its path and body), and a done branch's `call` with its `on` branches (reply, `set`,
// `notify`, media, with {{result.…}} readable) and its `notify` requests.
import type { Call, DoneBranch } from '../generated/rules-schema.js';
import { compileRequest, type RequestSource } from './compile-calls.js';
import type { RuleEnvironment } from './compile-reach.js';
import type { FlowSite } from './compile-flows.js';
import { MEDIA_KEYS } from './compile-media.js';
import { compileNotifies } from './compile-rule-calls.js';
import { handoffWithoutConfig } from './compile-sends.js';
import type { CompiledAccept, CompiledDoneBranch, CompiledFlowBranch } from './rule-set.js';
import type { TemplateContext } from './template.js';
import { compileAssignments } from './variables.js';

type Report = (path: (string | number)[], message: string, severity?: 'error' | 'warning') => void;

/** A step's `accept: { call }`: the answer is accepted when the request answers 2xx. */
export function compileStepCall(
  call: Call,
  context: TemplateContext,
  where: string,
  report: Report,
  environment?: RuleEnvironment,
): CompiledAccept | undefined {
  const request = compileRequest(
    call as RequestSource,
    'call',
    context,
    `the accept call of ${where}`,
    (path, m, s) => report(['call', ...path], m, s),
    environment,
  );
  return request ? { kind: 'call', request } : undefined;
}

/** A done branch's `call` with its branches (absent when it calls none) and its notifies; problems go to the site. */
export function compileDoneCall(branch: DoneBranch, at: (string | number)[], name: string, site: FlowSite): Pick<CompiledDoneBranch, 'call' | 'notifies'> {
  const { report, stepIds, flowContext, template } = site;
  const reportAt: Report = (path, message, severity) => report([...at, ...path], message, severity);
  const settings = site.environment ? { environment: site.environment } : {};
  const notifies = compileNotifies(branch.notify, ['notify'], flowContext(stepIds), name, reportAt, settings) ?? [];
  if (branch.call === undefined) {
    if (branch.on !== undefined) reportAt(['on'], `\`on\` picks a branch by the outcome of a call, and ${name} has no \`call\`: add one, or remove \`on\``);
    return { notifies };
  }
  for (const key of ['reply', ...MEDIA_KEYS] as const)
    if (branch[key] !== undefined) reportAt([key], `${name} calls a backend, so its reply depends on the outcome: move \`${key}\` into the branches of \`on\``);
  if (branch.handoff !== undefined)
    reportAt(
      ['handoff'],
      `${name} calls a backend, so whether it hands off depends on the outcome: move \`handoff: ${branch.handoff}\` into the branch of \`on\` that should hand off, e.g. error: { reply: ..., handoff: true }`,
    );
  const request = compileRequest(
    branch.call as RequestSource,
    'call',
    flowContext(stepIds),
    `the call of ${name}`,
    (p, m, s) => reportAt(['call', ...p], m, s),
    site.environment,
  );
  if (branch.on === undefined) {
    reportAt(['call'], `${name} calls a backend but has no \`on\`: give the branches that answer, e.g. on: { ok: { reply: ... }, error: { reply: ... } }`);
    return { notifies };
  }
  const on = new Map<string, CompiledFlowBranch>();
  const context = flowContext(stepIds, { result: true });
  for (const [key, item] of Object.entries(branch.on)) {
    if (item === undefined) continue;
    const where = `the ${key} branch of ${name}`;
    const path = [...at, 'on', key];
    const set = compileAssignments(item.set, { name: where }, context, (k, m, s) => report([...path, 'set', ...(k ? [k] : [])], m, s));
    const reply = item.reply === undefined ? null : template(item.reply, [...path, 'reply'], context, `the reply of ${where}`);
    const itemNotifies = compileNotifies(item.notify, [...path, 'notify'], context, where, report, settings) ?? [];
    // A broken media is reported (and so refuses the flow): null stands in for it.
    const media = site.media(item, path, context, where) ?? null;
    const missing = item.handoff === true ? handoffWithoutConfig(where, site.environment) : undefined;
    if (missing) report([...path, 'handoff'], missing);
    on.set(key, Object.freeze({ set, reply, notifies: itemNotifies, media, handoff: item.handoff === true }));
  }
  if (!on.has('error'))
    reportAt(
      ['on'],
      `${name} has no \`error\` branch: when ${branch.call.backend} does not answer (or answers an error), the user gets no answer; add error: { reply: ... }`,
      'warning',
    );
  return request ? { call: Object.freeze({ request, on }), notifies } : { notifies };
}
