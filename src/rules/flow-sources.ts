// Reads the `flows:` of a parsed rule file for the loader: each schema-valid flow becomes a FlowSource and
// each of its starts a rule in the global order (after the rules of the same file), placed at `flows[i].start`.
import { flowStartRules, type FlowSource } from '../engine/compile-flows.js';
import type { Rule } from '../generated/rules-schema.js';
import type { Flow } from '../generated/rules-schema.js';
import type { NodePath, ParsedYaml } from '../yaml/source.js';

/** Where a rule of the global order comes from: its file and the path of its mapping (a rule, or a flow's start). */
export interface RuleOrigin {
  parsed: ParsedYaml;
  base: NodePath;
}

function flowsOf(parsed: ParsedYaml): unknown[] {
  const data = parsed.data;
  const flows = data !== null && typeof data === 'object' ? (data as { flows?: unknown }).flows : undefined;
  return Array.isArray(flows) ? flows : [];
}

/** Appends the file's valid flows: their starts to `rules` (with origins) and the flows to `flows`. */
export function addFlows(parsed: ParsedYaml, validFlows: readonly number[], rules: Rule[], origins: RuleOrigin[], flows: FlowSource[]): void {
  const all = flowsOf(parsed);
  for (const index of validFlows) {
    const flow = all[index] as Flow;
    const starts = flowStartRules(flow);
    flows.push({ flow, locate: (path) => parsed.locate(['flows', index, ...path]), startOrders: starts.map((_, i) => rules.length + i) });
    // Several starts are each a rule, tried at its place: `start: [{ command: book }, { keywords: [book] }]`.
    starts.forEach((start, i) => {
      rules.push(start);
      origins.push({ parsed, base: Array.isArray(flow.start) ? ['flows', index, 'start', i] : ['flows', index, 'start'] });
    });
  }
}

/** The ids of every flow of the file that has one (valid or not), for the duplicate check. */
export function flowIds(parsed: ParsedYaml): { id: string; parsed: ParsedYaml; path: NodePath }[] {
  const ids: { id: string; parsed: ParsedYaml; path: NodePath }[] = [];
  flowsOf(parsed).forEach((flow, index) => {
    const id = flow !== null && typeof flow === 'object' ? (flow as { id?: unknown }).id : undefined;
    if (typeof id === 'string') ids.push({ id, parsed, path: ['flows', index, 'id'] });
  });
  return ids;
}
