// Reads what the journal says after a crash: the updates whose replies may have gone out just before the
// kill ("in doubt") and the updates whose effects may have been performed twice, the only ones a crash test
// allows twice, and finds the replies sent twice.

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

/** The ids of the effects the runs reported in doubt ("may have happened twice": performed again after an attempt was cut short). */
export function inDoubtEffectIds(runs: ReadonlyArray<{ readonly lines: readonly string[] }>): Set<string> {
  const ids = new Set<string>();
  for (const run of runs)
    for (const line of run.lines) {
      if (!line.includes('may have happened twice')) continue;
      const effect = (JSON.parse(line) as { effect?: unknown }).effect;
      if (typeof effect === 'string') ids.add(effect);
    }
  return ids;
}

/** The update ids behind the effects the runs reported in doubt (an effect's id starts with its update's). */
export function inDoubtEffectUpdates(runs: ReadonlyArray<{ readonly lines: readonly string[] }>): Set<number> {
  const ids = new Set<number>();
  for (const effect of inDoubtEffectIds(runs)) {
    const match = /^u(\d+)\./.exec(effect);
    if (match) ids.add(Number(match[1]));
  }
  return ids;
}

/** The replies with a reply repeated right after itself (an update answered again) counted once, and where the repeats were. */
export function collapseRepeats(replies: readonly string[]): { once: string[]; repeated: number[] } {
  const once: string[] = [];
  const repeated: number[] = [];
  for (const reply of replies) {
    if (once.length > 0 && once[once.length - 1] === reply) repeated.push(once.length - 1);
    else once.push(reply);
  }
  return { once, repeated };
}
