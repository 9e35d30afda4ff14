// What every framework contestant process reads from its environment: the stand-in's
// address and token, the neutral rule list, the workload's name, and an optional injected
// fault (harness test only).
import { readFileSync } from 'node:fs';

export function readChildEnv() {
  const { BENCH_BASE_URL, BENCH_TOKEN, BENCH_RULES_JSON, BENCH_FAULT, BENCH_WORKLOAD } = process.env;
  if (!BENCH_BASE_URL || !BENCH_TOKEN || !BENCH_RULES_JSON) {
    throw new Error('BENCH_BASE_URL, BENCH_TOKEN and BENCH_RULES_JSON must be set');
  }
  return {
    baseUrl: BENCH_BASE_URL,
    token: BENCH_TOKEN,
    rules: JSON.parse(readFileSync(BENCH_RULES_JSON, 'utf8')),
    fault: parseFault(BENCH_FAULT),
    workload: BENCH_WORKLOAD ?? 'messages',
  };
}

/**
 * "wrong:17" answers update 17 with a wrong text; "drop:17" does not answer it. The minimal
 * bot also knows "dup:17" (answers it twice) and "late:17" (answers it only after the next
 * update of its chat); the framework contestants treat those as drop.
 */
function parseFault(value) {
  if (!value) return null;
  const m = /^(wrong|drop|dup|late):(\d+)$/.exec(value);
  if (!m) throw new Error(`BENCH_FAULT must be wrong:, drop:, dup: or late:<update_id>, got ${value}`);
  return { kind: m[1], updateId: Number(m[2]) };
}

/** Listens on 127.0.0.1 port 0 and resolves to the URL for setwebhook. */
export function listenLocal(server, path) {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}${path}`));
  });
}
