// The error registry: every code is unique, well formed and has a message, an action and an exit code;
// docs/operations.md lists exactly the registry's codes (with their exit codes and metric kinds); the
// metric kinds of hearsay_errors_total are the registry's; HearsayError fills the template and carries the data.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigProblem } from '../../src/config/errors.js';
import { SETTINGS } from '../../src/config/settings.js';
import { RuleLoadError, RuleProblem } from '../../src/diagnostics/problem.js';
import { FAILURE_EXIT_CODE, USAGE_EXIT_CODE } from '../../src/errors/exit-codes.js';
import { HearsayError, isHearsayError } from '../../src/errors/hearsay-error.js';
import { ERRORS, ERROR_KINDS, type ErrorSpec } from '../../src/errors/registry.js';
import { ServiceMetrics } from '../../src/ops/metrics.js';

const specs = Object.entries(ERRORS) as Array<[string, ErrorSpec]>;
const guide = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
const documentedRows = guide.split('\n').filter((line) => /^\| `HS_ERR_[A-Z_]+` \|/.test(line));

describe('the error registry', () => {
  it('has well-formed codes, each with a message, an action, a label and a known exit code', () => {
    expect(specs.length).toBeGreaterThan(30);
    for (const [code, spec] of specs) {
      expect(code).toMatch(/^HS_ERR_[A-Z]+(_[A-Z]+)*$/);
      expect(spec.message.trim(), code).not.toBe('');
      expect(spec.action.trim().length, code).toBeGreaterThan(10);
      expect(spec.label, code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect([FAILURE_EXIT_CODE, USAGE_EXIT_CODE], code).toContain(spec.exitCode);
      if (spec.setting)
        expect(
          SETTINGS.map((s) => s.key),
          code,
        ).toContain(spec.setting);
    }
  });

  it('has unique metric kinds, which are exactly the labels of hearsay_errors_total', async () => {
    expect(new Set(ERROR_KINDS).size).toBe(ERROR_KINDS.length);
    const metrics = new ServiceMetrics({ processMetrics: false });
    const series = (await metrics.registry.getSingleMetric('hearsay_errors_total')!.get()).values.map((v) => v.labels.kind);
    expect(series).toEqual(ERROR_KINDS);
  });

  it('docs/operations.md lists every code once, with its exit code or its metric kind, and no other code', () => {
    const documented = documentedRows.map((row) => row.split('|')[1]!.trim().replaceAll('`', ''));
    expect(documented).toEqual(specs.map(([code]) => code));
    for (const row of documentedRows) {
      const cells = row.split('|').map((cell) => cell.trim());
      const spec = ERRORS[cells[1]!.replaceAll('`', '') as keyof typeof ERRORS] as ErrorSpec;
      expect(cells[2], cells[1]).toBe(spec.kind ? `\`${spec.kind}\`` : String(spec.exitCode));
      expect(row).toContain(spec.action);
    }
  });

  it('a HearsayError fills its template in order and carries the exit code, label, setting and details', () => {
    const error = new HearsayError('HS_ERR_STATE_OPEN_FAILED', ['/var/lib/hearsay/1', 'EACCES'], { details: ['more'], cause: new Error('x') });
    expect(error.message).toBe('cannot open the service state in /var/lib/hearsay/1: EACCES; check data_dir (HEARSAY_DATA_DIR)');
    expect(error).toMatchObject({ code: 'HS_ERR_STATE_OPEN_FAILED', exitCode: 1, label: 'state', setting: 'data_dir', details: ['more'] });
    expect(isHearsayError(error, 'HS_ERR_STATE_OPEN_FAILED')).toBe(true);
    expect(isHearsayError(error, 'HS_ERR_CONFIG_INVALID')).toBe(false);
    expect(isHearsayError(new Error('plain'))).toBe(false);
  });

  it('the config and rule errors are registered ones, with their messages as before', () => {
    const config = new ConfigError([new ConfigProblem('polling.limit', { kind: 'env', name: 'HEARSAY_POLLING_LIMIT' }, 'must be at most 100')]);
    expect(config).toMatchObject({ code: 'HS_ERR_CONFIG_INVALID', exitCode: USAGE_EXIT_CODE, name: 'ConfigError' });
    expect(config.message).toBe('environment variable HEARSAY_POLLING_LIMIT: must be at most 100');
    const rules = new RuleLoadError([new RuleProblem('a.yaml', 3, 5, 'unknown key'), new RuleProblem('b.yaml', 1, 1, 'bad')]);
    expect(rules).toMatchObject({ code: 'HS_ERR_RULE_PROBLEMS', exitCode: FAILURE_EXIT_CODE });
    expect(rules.message).toBe('2 problems in the rules:\na.yaml:3:5: unknown key\nb.yaml:1:1: bad');
  });
});
