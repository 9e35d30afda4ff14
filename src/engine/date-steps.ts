// Answers to date and time steps: "tomorrow", "Freitag", "24.12.", "7pm", "19 Uhr" read into the ISO form a
// flow keeps (2026-12-24, 19:00), judged against the step's `from`/`to` on the day the answer comes, in the
// rules' zone; a date before today or outside the range is refused with its own retry text.
import { isoDate, clockTime } from '../calendar/civil-date.js';
import { localDay } from '../calendar/opening-hours.js';
import { readDate, readTimeOfDay } from '../calendar/read-date.js';
import { dayOf } from './date-bounds.js';
import type { CompiledAccept, CompiledStep } from './rule-set.js';
import type { StateValue } from './state.js';
import type { Template } from './template.js';

/** An answer was read but is refused: a date in the past, or a date or time outside from … to. */
export interface RefusedAnswer {
  readonly refused: 'past' | 'range';
}

/** What an answer gives a step: its value, undefined when it is not an answer to it, or why it is refused. */
export type StepAnswer = StateValue | undefined | RefusedAnswer;

/** The value of an answer to a date or time step at `now`. */
export function dateOrTimeAnswer(accept: Extract<CompiledAccept, { kind: 'date' | 'time' }>, text: string, now: number): StepAnswer {
  if (accept.kind === 'time') {
    const minute = readTimeOfDay(text);
    if (minute === undefined) return undefined;
    if ((accept.from !== null && minute < accept.from) || (accept.to !== null && minute > accept.to)) return { refused: 'range' };
    return clockTime(minute);
  }
  const today = localDay(now, accept.zone);
  const day = readDate(text, today);
  if (day === undefined) return undefined;
  const from = accept.from === null ? null : dayOf(accept.from, now, accept.zone);
  const to = accept.to === null ? null : dayOf(accept.to, now, accept.zone);
  // Before the first day taken: "in the past" when it is before today and the range starts today or later.
  if (from !== null && day < from) return { refused: day < today && from >= today ? 'past' : 'range' };
  if (to !== null && day > to) return { refused: 'range' };
  return isoDate(day);
}

/** The text sent when an answer is not taken: the refusal's own text, else the step's retry (null: ask again). */
export function retryText(step: CompiledStep, answer: undefined | RefusedAnswer): Template | null {
  if (answer?.refused === 'past') return step.retryPast ?? step.retryRange ?? step.retry;
  if (answer?.refused === 'range') return step.retryRange ?? step.retry;
  return step.retry;
}
