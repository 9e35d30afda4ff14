// Where a running process's memory goes (Linux): its resident pages from /proc/PID/smaps grouped by what holds
// them (the node binary, other libraries, malloc, anonymous pages: V8's heap and the rest), and optionally what a
// V8 heap snapshot of it holds live, by kind, with its largest strings. What BENCHMARKS.md's "where the memory
// goes" is made from.
// Usage: node bench/report/memory-map.mjs PID [--snapshot FILE.heapsnapshot]
//   (a snapshot of a bench contestant: BENCH_NODE_ARGS="--heapsnapshot-signal=SIGUSR2", then kill -USR2 PID)
import { readFileSync, readlinkSync } from 'node:fs';
import { parseArgs } from 'node:util';

const MB = 2 ** 20;

/** The group a mapping's resident pages count for, from its smaps header line's path and permissions. */
function groupOf(path, permissions, executable) {
  if (path === executable) return 'the node binary (code and read-only data)';
  if (path === '[heap]') return 'malloc';
  if (path.startsWith('/')) return 'other files (shared libraries)';
  if (path.startsWith('[')) return 'kernel and stacks';
  if (path === '') return permissions.includes('x') ? 'anonymous, executable (compiled code)' : 'anonymous (V8 heap, buffers)';
  return 'other';
}

/**
 * Resident bytes of `smapsText` by group, and the largest anonymous mappings (where V8's pages are).
 * @returns {{ total: number, groups: Map<string, number>, largestAnonymous: number[] }}
 */
export function residentByGroup(smapsText, executable) {
  const groups = new Map();
  const anonymous = [];
  let group = null;
  let total = 0;
  for (const line of smapsText.split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      group = groupOf(header[2], header[1], executable);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB$/.exec(line);
    if (!rss || group === null) continue;
    const bytes = Number(rss[1]) * 1024;
    total += bytes;
    groups.set(group, (groups.get(group) ?? 0) + bytes);
    if (group.startsWith('anonymous (')) anonymous.push(bytes);
  }
  return { total, groups, largestAnonymous: anonymous.sort((a, b) => b - a).slice(0, 5) };
}

/**
 * What a heap snapshot holds live: self sizes by node kind (strings, compiled code, objects by constructor …), and
 * the strings over 100 KB (a bundle's source is one).
 * @returns {{ total: number, kinds: [string, number][], largeStrings: [string, number][] }}
 */
export function liveByKind(snapshot) {
  const {
    node_fields: fields,
    node_types: [types],
  } = snapshot.snapshot.meta;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field));
  const kinds = new Map();
  const largeStrings = [];
  let total = 0;
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt]];
    const name = snapshot.strings[snapshot.nodes[i + nameAt]];
    const size = snapshot.nodes[i + sizeAt];
    total += size;
    const stringy = type === 'string' || type === 'concatenated string' || type === 'sliced string';
    if (stringy && size > 100_000) largeStrings.push([name.slice(0, 60).replace(/\s+/g, ' '), size]);
    const kind = stringy ? 'strings' : type === 'code' ? 'compiled code and its metadata' : type === 'object' ? `object ${name}` : type;
    kinds.set(kind, (kinds.get(kind) ?? 0) + size);
  }
  return { total, kinds: [...kinds].sort((a, b) => b[1] - a[1]), largeStrings: largeStrings.sort((a, b) => b[1] - a[1]) };
}

const megabytes = (bytes) => `${(bytes / MB).toFixed(1)} MB`;

/** The report for process `pid` (and a snapshot file of it, if given), as lines. */
export function memoryReport(pid, snapshotFile) {
  const executable = readlinkSync(`/proc/${pid}/exe`);
  const { total, groups, largestAnonymous } = residentByGroup(readFileSync(`/proc/${pid}/smaps`, 'utf8'), executable);
  const lines = [`process ${pid}: ${megabytes(total)} resident`];
  for (const [group, bytes] of [...groups].sort((a, b) => b[1] - a[1])) lines.push(`  ${megabytes(bytes).padStart(9)}  ${group}`);
  lines.push(`  largest anonymous mappings: ${largestAnonymous.map(megabytes).join(', ')}`);
  if (snapshotFile) {
    const live = liveByKind(JSON.parse(readFileSync(snapshotFile, 'utf8')));
    lines.push(`heap snapshot: ${megabytes(live.total)} live`);
    for (const [kind, bytes] of live.kinds.slice(0, 12)) lines.push(`  ${megabytes(bytes).padStart(9)}  ${kind}`);
    for (const [start, bytes] of live.largeStrings) lines.push(`  string of ${megabytes(bytes)}: ${JSON.stringify(start)}`);
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { snapshot: { type: 'string' } } });
  if (positionals.length !== 1 || !/^\d+$/.test(positionals[0])) {
    console.error('usage: node bench/report/memory-map.mjs PID [--snapshot FILE.heapsnapshot]');
    process.exit(2);
  }
  console.log(memoryReport(positionals[0], values.snapshot).join('\n'));
}
