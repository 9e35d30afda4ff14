// The memory map report: a process's resident pages grouped by what holds them (from /proc/PID/smaps), and what a
// heap snapshot holds live by kind, on hand-made inputs and on this test's own process.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { liveByKind, memoryReport, residentByGroup, type HeapSnapshot } from '../../bench/report/memory-map.mjs';

const SMAPS = `
55d0c0000000-55d0c2000000 r-xp 00000000 08:01 123 /usr/bin/node
Size:              32768 kB
Rss:               20480 kB
55d0c2000000-55d0c3000000 r--p 02000000 08:01 123 /usr/bin/node
Rss:               10240 kB
55d0c4000000-55d0c4800000 rw-p 00000000 00:00 0 [heap]
Rss:                8192 kB
7f0000000000-7f0000040000 rw-p 00000000 00:00 0
Rss:                 256 kB
7f0000100000-7f0000900000 rw-p 00000000 00:00 0
Rss:                7168 kB
7f0001000000-7f0001040000 rwxp 00000000 00:00 0
Rss:                 128 kB
7f0002000000-7f0002100000 r-xp 00000000 08:01 456 /usr/lib/x86_64-linux-gnu/libc.so.6
Rss:                1024 kB
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]
Rss:                  64 kB
`;

describe('residentByGroup', () => {
  it('groups resident pages by what holds them, and names the largest anonymous mappings', () => {
    const { total, groups, largestAnonymous } = residentByGroup(SMAPS, '/usr/bin/node');
    expect(total).toBe((20480 + 10240 + 8192 + 256 + 7168 + 128 + 1024 + 64) * 1024);
    expect(Object.fromEntries(groups)).toEqual({
      'the node binary (code and read-only data)': 30720 * 1024,
      malloc: 8192 * 1024,
      'anonymous (V8 heap, buffers)': (256 + 7168) * 1024,
      'anonymous, executable (compiled code)': 128 * 1024,
      'other files (shared libraries)': 1024 * 1024,
      'kernel and stacks': 64 * 1024,
    });
    expect(largestAnonymous).toEqual([7168 * 1024, 256 * 1024]);
  });
});

describe('liveByKind', () => {
  it('sums self sizes by kind, largest first, and names the strings over 100 KB', () => {
    const snapshot: HeapSnapshot = {
      snapshot: { meta: { node_fields: ['type', 'name', 'id', 'self_size'], node_types: [['hidden', 'object', 'string', 'code']] } },
      strings: ['#!/usr/bin/env node\n"use strict";', 'Map', 'x', ''],
      nodes: [2, 0, 1, 300_000, 1, 1, 2, 64, 1, 1, 3, 64, 2, 2, 4, 20, 3, 3, 5, 1000],
    };
    const live = liveByKind(snapshot);
    expect(live.total).toBe(300_000 + 64 + 64 + 20 + 1000);
    expect(live.kinds).toEqual([
      ['strings', 300_020],
      ['compiled code and its metadata', 1000],
      ['object Map', 128],
    ]);
    expect(live.largeStrings).toEqual([['#!/usr/bin/env node "use strict";', 300_000]]);
  });
});

describe.runIf(existsSync('/proc/self/smaps'))('memoryReport of a live process', () => {
  it("finds this process's node binary and its resident total", () => {
    const [first, ...groups] = memoryReport(process.pid);
    expect(first).toMatch(new RegExp(`^process ${process.pid}: \\d+\\.\\d MB resident$`));
    expect(groups.some((line) => line.includes('the node binary'))).toBe(true);
    expect(groups.some((line) => line.includes('anonymous (V8 heap, buffers)'))).toBe(true);
  });
});
