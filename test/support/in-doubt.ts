// Reads what the journal says after a crash: the updates whose replies may have gone out just before the
// kill ("in doubt"), the only ones a crash test allows to be answered twice.

/** The update ids named in doubt in any of the runs' JSON log lines. */
export function inDoubtUpdateIds(runs: ReadonlyArray<{ readonly lines: readonly string[] }>): Set<number> {
  const ids = new Set<number>();
  for (const run of runs) {
    for (const line of run.lines) {
      if (!line.includes('"in_doubt"')) continue;
      for (const id of (JSON.parse(line) as { in_doubt: number[] }).in_doubt) ids.add(id);
    }
  }
  return ids;
}
