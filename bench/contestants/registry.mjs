// The contestants: how to start each one as its own process against a stand-in.
// Each entry returns { args, env, cwd? } for `node`; webhook ones get a free port.
// `mode` pairs each with the minimal bot of the same ingress for the ratios; `workloads`
// lists the workloads it can answer (others are skipped for it); `framework` marks the
// contestants whose cost grows with the handler count (they get a prefix of the big runs).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../free-port.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..', '..');
/** What users run from this checkout's build: package.json's `bin`; `ctx.hearsayMain` (--hearsay-dist) may name another build's. */
export const HEARSAY_MAIN = path.join(REPO_ROOT, JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).bin.hearsay);

/**
 * The file to run in another build's dist/ folder: its bundled CLI, or dist/cli/main.js for builds from
 * before the bundle existed (so an old commit can still be measured against this one).
 */
export function hearsayEntryIn(distDir) {
  const bundle = path.join(distDir, path.basename(HEARSAY_MAIN));
  return existsSync(bundle) ? bundle : path.join(distDir, 'cli', 'main.js');
}
const WEBHOOK_SECRET = 'bench_webhook_secret_0123456789';

/**
 * grammY and Telegraf nest one call per handler: with thousands of handlers an update that
 * reaches the end of the chain overflows V8's default stack (~1 MB, "Maximum call stack size
 * exceeded"). For big rule sets they get a 6 MB stack (the OS gives the main thread 8 MB).
 */
export const FRAMEWORK_STACK_KB = 6000;
function frameworkNodeArgs(ctx) {
  return ctx.ruleCount > 1000 ? [`--stack-size=${FRAMEWORK_STACK_KB}`] : [];
}

function frameworkEnv(ctx) {
  return {
    BENCH_BASE_URL: ctx.baseUrl,
    BENCH_TOKEN: ctx.token,
    BENCH_RULES_JSON: ctx.rulesJson,
    BENCH_WORKLOAD: ctx.workload,
    ...(ctx.fault ? { BENCH_FAULT: ctx.fault } : {}),
  };
}

const MESSAGES_ONLY = ['messages'];
const ALL_WORKLOADS = ['messages', 'presses', 'state'];
// The Redis contestants: plain messages, and with a state change committed per update (the two cases).
const STORE_WORKLOADS = ['messages', 'state'];

function hearsayEnv(ctx, mode) {
  return {
    BOT_TOKEN: ctx.token,
    BASE_URL: ctx.baseUrl,
    HEARSAY_MODE: mode,
    HEARSAY_LOG_LEVEL: 'warn',
    HEARSAY_LOG_FORMAT: 'json',
    // hearsay keeps within the real service's rate limits by default (30 messages/s overall);
    // the stand-in has none and no other contestant throttles, so the bench measures it unthrottled.
    HEARSAY_RATE_LIMITS_ENABLED: 'false',
    // A fresh data dir per run: hearsay remembers handled update_ids there and would skip a rerun's.
    HEARSAY_DATA_DIR: path.join(ctx.workDir, `data-${mode}-${ctx.ruleCount}-${process.hrtime.bigint()}`),
    // BENCH_WEBHOOK_MAX_CONNECTIONS: the webhook's max_connections (hearsay's default 40; the service allows 100).
    ...(process.env.BENCH_WEBHOOK_MAX_CONNECTIONS ? { HEARSAY_WEBHOOK_MAX_CONNECTIONS: process.env.BENCH_WEBHOOK_MAX_CONNECTIONS } : {}),
    // BENCH_DELIVERY_CONCURRENCY: how many chats hearsay answers at once (its default 32).
    ...(process.env.BENCH_DELIVERY_CONCURRENCY ? { HEARSAY_DELIVERY_CONCURRENCY: process.env.BENCH_DELIVERY_CONCURRENCY } : {}),
  };
}

/**
 * The Redis contestants' knobs: how many replicas (`--replicas`), and where the wrapper names its parts (the
 * Redis server's pid and port, the replicas' pids) for the bench to measure each.
 */
function redisPartsEnv(ctx) {
  return {
    BENCH_REPLICAS: String(ctx.replicas ?? 1),
    BENCH_PARTS_FILE: path.join(ctx.workDir, `redis-parts-${ctx.ruleCount}-${ctx.replicas ?? 1}-${ctx.round ?? 1}.json`),
  };
}

/**
 * name -> { label, mode, workloads, framework?, replicated? (run once per --replicas count), fixedAnswer?,
 * prepare(ctx) -> Promise<{ args, env, cwd, partsFile? }> }
 */
export const CONTESTANTS = {
  ceiling: {
    label: 'ceiling (HTTP only)',
    mode: 'polling',
    workloads: ['messages', 'presses'],
    fixedAnswer: 'ok',
    prepare: async (ctx) => ({ args: [path.join(here, 'ceiling.mjs')], env: frameworkEnv(ctx) }),
  },
  'minimal-polling': {
    label: 'minimal bot polling',
    mode: 'polling',
    workloads: ALL_WORKLOADS,
    prepare: async (ctx) => ({ args: [path.join(here, 'minimal.mjs'), 'polling'], env: frameworkEnv(ctx) }),
  },
  'minimal-webhook': {
    label: 'minimal bot webhook',
    mode: 'webhook',
    workloads: ALL_WORKLOADS,
    prepare: async (ctx) => ({ args: [path.join(here, 'minimal.mjs'), 'webhook'], env: frameworkEnv(ctx) }),
  },
  'hearsay-polling': {
    label: 'hearsay polling',
    mode: 'polling',
    workloads: ALL_WORKLOADS,
    prepare: async (ctx) => ({
      args: [ctx.hearsayMain ?? HEARSAY_MAIN, 'run', '--rules', ctx.hearsayRulesDir],
      env: hearsayEnv(ctx, 'polling'),
      cwd: ctx.workDir,
    }),
  },
  'hearsay-webhook': {
    label: 'hearsay webhook',
    mode: 'webhook',
    workloads: ALL_WORKLOADS,
    prepare: async (ctx) => {
      const port = await freePort();
      return {
        args: [ctx.hearsayMain ?? HEARSAY_MAIN, 'run', '--rules', ctx.hearsayRulesDir],
        env: {
          ...hearsayEnv(ctx, 'webhook'),
          // hearsay appends its webhook path to this URL.
          HEARSAY_WEBHOOK_URL: `http://127.0.0.1:${port}`,
          HEARSAY_WEBHOOK_LISTEN: `127.0.0.1:${port}`,
          HEARSAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
        },
        cwd: ctx.workDir,
      };
    },
  },
  'hearsay-polling-redis': {
    label: 'hearsay polling, Redis store',
    mode: 'polling',
    workloads: STORE_WORKLOADS,
    replicated: true,
    prepare: async (ctx) => ({
      args: [path.join(here, 'hearsay-redis.mjs'), ctx.hearsayMain ?? HEARSAY_MAIN, 'run', '--rules', ctx.hearsayRulesDir],
      env: { ...hearsayEnv(ctx, 'polling'), ...redisPartsEnv(ctx) },
      cwd: ctx.workDir,
      partsFile: redisPartsEnv(ctx).BENCH_PARTS_FILE,
    }),
  },
  'hearsay-webhook-redis': {
    label: 'hearsay webhook, Redis store',
    mode: 'webhook',
    workloads: STORE_WORKLOADS,
    replicated: true,
    // The replicas' ports and the balancer in front of them are the wrapper's (hearsay-redis.mjs).
    prepare: async (ctx) => ({
      args: [path.join(here, 'hearsay-redis.mjs'), ctx.hearsayMain ?? HEARSAY_MAIN, 'run', '--rules', ctx.hearsayRulesDir],
      env: { ...hearsayEnv(ctx, 'webhook'), ...redisPartsEnv(ctx), HEARSAY_WEBHOOK_SECRET: WEBHOOK_SECRET },
      cwd: ctx.workDir,
      partsFile: redisPartsEnv(ctx).BENCH_PARTS_FILE,
    }),
  },
  'grammy-polling': {
    label: 'grammY bot.start()',
    mode: 'polling',
    workloads: MESSAGES_ONLY,
    framework: true,
    prepare: async (ctx) => ({ args: [...frameworkNodeArgs(ctx), path.join(here, 'grammy.mjs'), 'polling'], env: frameworkEnv(ctx) }),
  },
  'grammy-runner': {
    label: 'grammY runner run(bot)',
    mode: 'polling',
    workloads: MESSAGES_ONLY,
    framework: true,
    prepare: async (ctx) => ({ args: [...frameworkNodeArgs(ctx), path.join(here, 'grammy.mjs'), 'runner'], env: frameworkEnv(ctx) }),
  },
  'grammy-webhook': {
    label: 'grammY webhook',
    mode: 'webhook',
    workloads: MESSAGES_ONLY,
    framework: true,
    prepare: async (ctx) => ({ args: [...frameworkNodeArgs(ctx), path.join(here, 'grammy.mjs'), 'webhook'], env: frameworkEnv(ctx) }),
  },
  'telegraf-polling': {
    label: 'Telegraf launch()',
    mode: 'polling',
    workloads: MESSAGES_ONLY,
    framework: true,
    prepare: async (ctx) => ({ args: [...frameworkNodeArgs(ctx), path.join(here, 'telegraf.mjs'), 'polling'], env: frameworkEnv(ctx) }),
  },
  'telegraf-webhook': {
    label: 'Telegraf webhook',
    mode: 'webhook',
    workloads: MESSAGES_ONLY,
    framework: true,
    prepare: async (ctx) => ({ args: [...frameworkNodeArgs(ctx), path.join(here, 'telegraf.mjs'), 'webhook'], env: frameworkEnv(ctx) }),
  },
};
