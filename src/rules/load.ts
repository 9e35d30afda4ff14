// Reads rule files from disk (a directory's *.yaml/*.yml in name order, or one file) and turns them
// into a RuleSet, collecting every problem of every file with its position.
import { compileProblems, compileRulesCollecting, PatternCache } from '../engine/compile.js';
import type { FlowSource } from '../engine/compile-flows.js';
import type { RuleSet } from '../engine/rule-set.js';
import type { RuleEnvironment } from '../engine/compile-reach.js';
import type { Rule } from '../generated/rules-schema.js';
import { RuleLoadError, RuleProblem, type RuleLocator, type SourcePosition } from '../diagnostics/problem.js';
import { buttonWarnings } from './check-buttons.js';
import { flowWarnings } from './check-flows.js';
import { fuzzyWarnings } from './check-fuzzy.js';
import { suggestWarnings } from './check-suggest.js';
import { addFlows, flowIds, type RuleOrigin } from './flow-sources.js';
import { reachabilityWarnings } from './reachability.js';
import { ruleSetSettings, type DeclaredSettings } from './rule-set-settings.js';
import { salvageRule } from './salvage.js';
import { schemaProblems, type SchemaCheck } from './schema-problems.js';
import { DEFAULT_RULE_LIMITS, describeFsError, listRuleFiles, readRuleFile, type RuleLimits } from './rule-files.js';
import { parseYaml, type ParsedYaml } from '../yaml/source.js';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { mediaValues, resolveMedia, type KnownMediaFile, type ResolvedMedia } from './media-files.js';

export interface LoadOutcome {
  /** Present when there were no errors (warnings alone do not prevent loading). */
  ruleSet?: RuleSet;
  problems: RuleProblem[];
  files: string[];
  ruleCount: number;
  /** Files whose text was unchanged since the loader's previous load: their parse and schema check were reused. */
  reusedFiles: number;
  /** The files next to the rules that rules send (found or not): a change to one reloads the rules. */
  mediaPaths: readonly string[];
}

export { isRuleFileName, type RuleLimits } from './rule-files.js';

/**
 * Loads rules, and reloads them cheaply: it keeps the clean files of its latest load, by path, and the
 * patterns its latest compile validated. A reload re-reads every file but parses and validates only those
 * whose text changed (editing one file of many is the common case), and validates only new patterns.
 * Files with problems are never kept, so their messages are always computed afresh. One loader per
 * watched rule path (the RuleWatcher owns one); it holds one load's files and patterns at most.
 */
export class RuleLoader {
  private readonly memory: LoaderMemory = { files: new Map(), patterns: new PatternCache(), media: new Map() };

  /**
   * Loads every rule file at `path` within `limits` (file size before reading, rule count before validating);
   * with an `environment`, the names the rules use must be among those the configuration declares.
   */
  load(path: string, limits: RuleLimits = DEFAULT_RULE_LIMITS, environment?: RuleEnvironment): Promise<LoadOutcome> {
    return loadWith(path, limits, this.memory, environment);
  }
}

/** A one-shot load (`hearsay check`, a test run): nothing is kept for a reload. */
export function loadRules(path: string, limits: RuleLimits = DEFAULT_RULE_LIMITS, environment?: RuleEnvironment): Promise<LoadOutcome> {
  return new RuleLoader().load(path, limits, environment);
}

async function loadWith(path: string, limits: RuleLimits, memory: LoaderMemory, environment: RuleEnvironment | undefined): Promise<LoadOutcome> {
  let listed: Awaited<ReturnType<typeof listRuleFiles>>;
  try {
    listed = await listRuleFiles(path);
  } catch (error) {
    return {
      problems: [new RuleProblem(path, 0, 0, `cannot read the rules: ${describeFsError(error)}`)],
      files: [],
      ruleCount: 0,
      reusedFiles: 0,
      mediaPaths: [],
    };
  }
  const { files } = listed;
  if (files.length === 0 && listed.problems.length === 0) {
    return { problems: [new RuleProblem(path, 0, 0, 'no rule files here (*.yaml or *.yml)')], files, ruleCount: 0, reusedFiles: 0, mediaPaths: [] };
  }
  const gathered: Gathered = {
    problems: [...listed.problems],
    rules: [],
    origins: [],
    flows: [],
    salvaged: [],
    salvagedOrigins: [],
    ids: [],
    declared: [],
    ruleCount: 0,
    reusedFiles: 0,
    cleanFiles: new Map(),
  };
  for (const file of files) {
    const read = await readRuleFile(file, limits);
    if ('problem' in read) gathered.problems.push(read.problem);
    else if (gatherFile(file, read.text, limits, memory, gathered) === 'over the rule limit') break;
  }
  memory.files = gathered.cleanFiles;
  // The files rules send are read now (size, content hash), so that compiling can judge them without I/O.
  const values = mediaValues([gathered.rules, gathered.flows.map((source) => source.flow), gathered.salvaged]);
  const media = await resolveMedia(values, await rulesDirectory(path), memory.media);
  return compileGathered(gathered, files, memory.patterns, environment, media);
}

/** The directory media paths are relative to: the rules directory, or the one holding the single rule file. */
async function rulesDirectory(path: string): Promise<string> {
  try {
    return (await stat(path)).isDirectory() ? path : dirname(path);
  } catch {
    return dirname(path);
  }
}

/** What one load takes in from its files, in file order, before compiling. */
interface Gathered {
  problems: RuleProblem[];
  /** Rules that passed the schema (and flow starts, see addFlows), with where each came from. */
  rules: Rule[];
  origins: RuleOrigin[];
  flows: FlowSource[];
  /** Rules that failed the schema but can still be compiled for their other problems. */
  salvaged: Rule[];
  salvagedOrigins: RuleOrigin[];
  ids: RuleId[];
  declared: DeclaredSettings[];
  ruleCount: number;
  reusedFiles: number;
  /** The files without problems, kept for the next load. */
  cleanFiles: Map<string, CachedFile>;
}

/** Parses and checks one file's text (or reuses the previous load's work on it) and adds what it holds to `gathered`. */
function gatherFile(file: string, text: string, limits: RuleLimits, memory: LoaderMemory, gathered: Gathered): 'over the rule limit' | undefined {
  const cached = memory.files.get(file);
  const reused = cached?.text === text;
  if (reused) gathered.reusedFiles++;
  const { parsed, schema } = reused ? cached : { parsed: parseYaml(file, text), schema: undefined };
  gathered.problems.push(...parsed.problems);
  // A YAML error hides nothing the parser could still read: the intact rules are checked as usual.
  const intact = parsed.problems.length > 0 ? parsed.intact : undefined;
  if (parsed.problems.length > 0 && !intact) return undefined;
  // Counted before validating and compiling, the costly steps: past the limit nothing more is taken in.
  const fileRules = rulesIn(parsed.data);
  if (gathered.ruleCount + (fileRules?.length ?? 0) > limits.maxRules) {
    gathered.problems.push(
      new RuleProblem(file, 0, 0, `more than ${limits.maxRules} rules in all (rule_limits.max_rules); this file and the ones after it were not checked`),
    );
    gathered.ruleCount += fileRules?.length ?? 0;
    return 'over the rule limit';
  }
  const checked = schema ?? schemaProblems(parsed);
  const schemaIssues = intact ? checked.problems.filter((problem) => intact.holdsLine(problem.line)) : checked.problems;
  const validRules = intact ? checked.validRules.filter((index) => intact.indexes.has(index)) : checked.validRules;
  // Flows of a file with a YAML error are left to its YAML errors.
  const validFlows = intact ? [] : checked.validFlows;
  const clean = schemaIssues.length === 0 && !intact;
  if (clean) gathered.cleanFiles.set(file, { text, parsed, schema: { problems: schemaIssues, validRules, validFlows } });
  gathered.problems.push(...schemaIssues);
  // Settings are read from every file that parses, whatever else is wrong in it (see rule-set-settings.ts).
  gathered.declared.push({ parsed, data: parsed.data, valid: clean });
  if (fileRules) gathered.ruleCount += fileRules.length;
  takeRulesAndFlows(parsed, fileRules, { validRules, validFlows, clean, intact }, gathered);
  return undefined;
}

/** Adds a checked file's ids, valid rules and flows, and salvageable invalid rules to `gathered`. */
function takeRulesAndFlows(
  parsed: ParsedYaml,
  fileRules: unknown[] | undefined,
  { validRules, validFlows, clean, intact }: { validRules: number[]; validFlows: number[]; clean: boolean; intact: ParsedYaml['intact'] },
  gathered: Gathered,
): void {
  fileRules?.forEach((rule: unknown, index) => {
    const id = rule !== null && typeof rule === 'object' ? (rule as { id?: unknown }).id : undefined;
    if (typeof id === 'string' && (!intact || intact.indexes.has(index))) gathered.ids.push({ id, parsed, path: ['rules', index, 'id'] });
  });
  for (const index of validRules) {
    gathered.rules.push((fileRules as Rule[])[index]!);
    gathered.origins.push({ parsed, base: ['rules', index] });
  }
  // A file's flow starts are tried after its rules, before the next file's.
  addFlows(parsed, validFlows, gathered.rules, gathered.origins, gathered.flows);
  if (!intact) gathered.ids.push(...flowIds(parsed));
  if (clean || !fileRules) return;
  const valid = new Set(validRules);
  fileRules.forEach((raw: unknown, index) => {
    const rule = valid.has(index) || (intact && !intact.indexes.has(index)) ? undefined : salvageRule(raw, index);
    if (rule) {
      gathered.salvaged.push(rule);
      gathered.salvagedOrigins.push({ parsed, base: ['rules', index] });
    }
  });
}

/** Compiles what the files gave, adds the problems found across files (duplicate ids, settings, reachability …) and sorts them. */
function compileGathered(
  gathered: Gathered,
  files: string[],
  patterns: PatternCache,
  environment: RuleEnvironment | undefined,
  media: ResolvedMedia,
): LoadOutcome {
  const { problems, rules, origins, flows, ruleCount, reusedFiles } = gathered;
  const locatorOf =
    (from: readonly RuleOrigin[]): RuleLocator =>
    (ruleIndex, path) => {
      const origin = from[ruleIndex]!;
      return origin.parsed.locate([...origin.base, ...path], path.length === 1 && path[0] === 'fallback');
    };
  const locate = locatorOf(origins);
  problems.push(...duplicateIds(gathered.ids));
  const declared = { ...ruleSetSettings(gathered.declared, problems), media: media.lookup };
  const settings = environment ? { ...declared, environment } : declared;
  if (gathered.salvaged.length > 0) problems.push(...compileProblems(gathered.salvaged, locatorOf(gathered.salvagedOrigins), settings));
  const compiled = compileRulesCollecting(rules, locate, files, flows, patterns, settings);
  problems.push(...compiled.problems);
  const hasErrors = problems.some((p) => p.severity === 'error');
  if (compiled.ruleSet && !hasErrors)
    problems.push(
      ...reachabilityWarnings(compiled.ruleSet, locate),
      ...flowWarnings(compiled.ruleSet, locate, flows),
      ...buttonWarnings(compiled.ruleSet, locate),
      ...fuzzyWarnings(compiled.ruleSet, locate),
      ...suggestWarnings(compiled.ruleSet, locate),
    );
  const outcome = { problems: sortProblems(problems, files), files, ruleCount, reusedFiles, mediaPaths: media.paths };
  return hasErrors || !compiled.ruleSet ? outcome : { ...outcome, ruleSet: compiled.ruleSet };
}

/** The `rules:` list of a parsed file, if it has one. */
function rulesIn(data: unknown): unknown[] | undefined {
  const list = data !== null && typeof data === 'object' ? (data as { rules?: unknown }).rules : undefined;
  return Array.isArray(list) ? list : undefined;
}

/** A rule's or flow's id and where to find it; the position is looked up only for a duplicate (it may need a re-parse). */
type RuleId = ReturnType<typeof flowIds>[number];

/** A clean file of a loader's latest load: its text, and what parsing and the schema made of it. */
interface CachedFile {
  text: string;
  parsed: ParsedYaml;
  schema: SchemaCheck;
}

/** What a RuleLoader keeps between its loads: the latest load's clean files by path, and its patterns. */
interface LoaderMemory {
  files: ReadonlyMap<string, CachedFile>;
  readonly patterns: PatternCache;
  /** The media files read by the latest loads, by path: one unchanged since is not read again. */
  readonly media: Map<string, KnownMediaFile>;
}

/** Ids are checked on every rule that has one, even rules with other problems, so all are reported at once. */
function duplicateIds(ids: readonly RuleId[]): RuleProblem[] {
  const first = new Map<string, RuleId>();
  const problems: RuleProblem[] = [];
  const where = (r: RuleId): SourcePosition => r.parsed.locate(r.path);
  for (const rule of ids) {
    const earlier = first.get(rule.id);
    if (earlier) {
      const here = where(rule);
      const there = where(earlier);
      problems.push(
        new RuleProblem(
          here.file,
          here.line,
          here.column,
          `duplicate ${rule.path[0] === 'flows' ? 'flow' : 'rule'} id '${rule.id}': already used at ${there.file}:${there.line}:${there.column}; ids ${rule.path[0] === 'flows' || earlier.path[0] === 'flows' ? 'of rules and flows ' : ''}must be unique across all rule files`,
        ),
      );
    } else {
      first.set(rule.id, rule);
    }
  }
  return problems;
}

function sortProblems(problems: RuleProblem[], files: string[]): RuleProblem[] {
  const rank = (file: string) => {
    const i = files.indexOf(file);
    return i < 0 ? -1 : i;
  };
  return problems.sort((a, b) => rank(a.file) - rank(b.file) || a.line - b.line || a.column - b.column);
}

/** One-shot load for the engine: the rule set, or a RuleLoadError listing every problem. */
export async function loadRuleSet(path: string, limits?: RuleLimits): Promise<RuleSet> {
  const outcome = await loadRules(path, limits);
  if (!outcome.ruleSet) throw new RuleLoadError(outcome.problems);
  return outcome.ruleSet;
}

/** For `hearsay check`: every problem (errors and warnings) and the counts for the summary line. */
export async function checkRules(
  path: string,
  limits?: RuleLimits,
  environment?: RuleEnvironment,
): Promise<{ problems: RuleProblem[]; fileCount: number; ruleCount: number }> {
  const outcome = await loadRules(path, limits, environment);
  return { problems: outcome.problems, fileCount: outcome.files.length, ruleCount: outcome.ruleCount };
}
