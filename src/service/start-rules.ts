// The rules part of the service: the watched rule set, its reloads reflected in health and metrics, and
// start-up failures as HearsayErrors (every problem listed, nothing started).
import { RuleLoadError, type RuleProblem } from '../diagnostics/problem.js';
import type { Logger } from '../log/logger.js';
import type { HealthState } from '../ops/health.js';
import type { ServiceMetrics } from '../ops/metrics.js';
import type { RuleLimits } from '../rules/rule-files.js';
import type { RuleEnvironment } from '../engine/compile-reach.js';
import { RuleWatcher } from '../rules/watch.js';
import { HearsayError } from '../errors/hearsay-error.js';
import { rulesStartupError } from './errors.js';

export interface StartRulesOptions {
  rulesPath: string;
  logger: Logger;
  metrics: ServiceMetrics;
  health: HealthState;
  debounceMs?: number;
  /** Rule file size and rule count limits (rule_limits.*). */
  limits?: RuleLimits;
  /** What the configuration declares for the rules to name. */
  environment?: RuleEnvironment;
}

/** Loads and watches the rules; throws a HearsayError when they cannot be loaded. */
export async function startRules(options: StartRulesOptions): Promise<RuleWatcher> {
  const { rulesPath, logger, metrics, health } = options;
  const rules = new RuleWatcher({
    path: rulesPath,
    logger,
    limits: options.limits,
    ...(options.environment ? { environment: options.environment } : {}),
    ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
  });
  let ruleSet;
  try {
    ruleSet = await rules.start();
  } catch (error) {
    await rules.close().catch(() => undefined);
    if (error instanceof RuleLoadError) throw rulesStartupError(rulesPath, error.problems);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new HearsayError('HS_ERR_RULES_MISSING', [rulesPath], { cause: error });
    throw new HearsayError('HS_ERR_RULES_UNREADABLE', [(error as Error).message], { cause: error });
  }
  health.rulesActive = ruleSet.rules.length;
  metrics.rulesActive.set(ruleSet.rules.length);
  rules.on('reload', (event) => {
    health.rulesActive = event.ruleCount;
    metrics.rulesActive.set(event.ruleCount);
    metrics.reloads.inc({ result: 'success' });
    metrics.reloadSuccess.set(1);
  });
  rules.on('reloadFailed', () => {
    metrics.reloads.inc({ result: 'failure' });
    metrics.reloadSuccess.set(0);
  });
  return rules;
}

/** Subscribes `listener` to every reload: the problems when it failed, an empty list when it succeeded. Returns an unsubscribe function. */
export function onRuleReload(rules: RuleWatcher, listener: (problems: readonly RuleProblem[]) => void): () => void {
  const succeeded = () => listener([]);
  const failed = (event: { problems: RuleProblem[] }) => listener(event.problems);
  rules.on('reload', succeeded);
  rules.on('reloadFailed', failed);
  return () => {
    rules.off('reload', succeeded);
    rules.off('reloadFailed', failed);
  };
}
