// A flow's question as a message: where it goes, and what it carries so the answer can reach the bot. A
// choice step shows its options as buttons (or a reply keyboard), labelled in the user's language, and a
// press of one is read back as choosing it; in a group any other question asks for a reply from that user only.
import type { InlineKeyboardButton } from '@grammyjs/types';
import type { SendMessageAction } from './actions.js';
import { staticTextIn } from './languages.js';
import type { CompiledStep } from './rule-set.js';

/** Where a question goes: the chat, whether it is private, (in a group) the user's message it answers, and the user's language (for choice labels). */
export interface AskTarget {
  readonly chatId: number;
  readonly private: boolean;
  readonly replyTo?: number;
  readonly language?: string | undefined;
}

/** Options per row of choice buttons: short options side by side, more on the next row. */
const CHOICES_PER_ROW = 3;

/**
 * The callback data of the button for option `index` of a choice step: `<flow>#<step>:<index>`, or, when
 * that is over the service's 64 bytes, the flow and step as a hash (`#<8 hex digits>:<index>`).
 */
export function choiceData(flowId: string, stepId: string, index: number): string {
  return `${choicePrefix(flowId, stepId)}${index}`;
}

/** The option index a press's data names for this step, or undefined when the button is not one of its options. */
export function choiceIndex(data: string, flowId: string, stepId: string): number | undefined {
  const prefix = choicePrefix(flowId, stepId);
  if (!data.startsWith(prefix)) return undefined;
  const rest = data.slice(prefix.length);
  return /^\d{1,3}$/.test(rest) ? Number(rest) : undefined;
}

function choicePrefix(flowId: string, stepId: string): string {
  const plain = `${flowId}#${stepId}:`;
  // Ids are ASCII (the schema says so), so characters are bytes; 3 more for the index.
  return plain.length + 3 <= 64 ? plain : `#${fnv1a(`${flowId}#${stepId}`)}:`;
}

/** FNV-1a, 32 bits, as 8 hex digits: a short stable name for a long flow and step id. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * The question of `step` of flow `flowId` with `text`. A choice step carries its options as inline buttons
 * (a press chooses) or as a one-time reply keyboard (a press sends the option's text). In a group the
 * question replies to the user's message; a question without buttons there asks for a reply from that user
 * only (force_reply, selective): with privacy mode on, a bot sees only replies to its messages, so the
 * answer could not reach it otherwise, and other members' clients are not switched to reply mode.
 */
export function askQuestion(flowId: string, step: CompiledStep, target: AskTarget, text: string): SendMessageAction {
  const base: SendMessageAction = { type: 'send_message', chatId: target.chatId, text };
  const group = !target.private && target.replyTo !== undefined ? { replyToMessageId: target.replyTo } : {};
  const choices = step.accept.kind === 'choice' ? choiceLabels(step.accept, target.language) : [];
  if (choices.length > 0 && step.buttons === 'inline') {
    const buttons = choices.map((choice, i): InlineKeyboardButton => ({ text: choice, callback_data: choiceData(flowId, step.id, i) }));
    return { ...base, ...group, replyMarkup: { inline_keyboard: rows(buttons) } };
  }
  if (choices.length > 0 && step.buttons === 'keyboard') {
    const keyboard = rows(choices.map((choice) => ({ text: choice })));
    const selective = !target.private && target.replyTo !== undefined ? { selective: true } : {};
    return { ...base, ...group, replyMarkup: { keyboard, one_time_keyboard: true, resize_keyboard: true, ...selective } };
  }
  if (target.private) return base;
  // Without the user's message to reply to (a question after a press), the reply is asked of everyone.
  return { ...base, ...group, replyMarkup: target.replyTo !== undefined ? { force_reply: true, selective: true } : { force_reply: true } };
}

/** What each option's button shows: its label in `language` (or the default language's), else its key. */
function choiceLabels(accept: Extract<CompiledStep['accept'], { kind: 'choice' }>, language: string | undefined): string[] {
  return accept.choices.map((choice, i) => {
    const label = accept.labels[i];
    return label ? staticTextIn(label, language) : choice;
  });
}

function rows<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHOICES_PER_ROW) out.push(items.slice(i, i + CHOICES_PER_ROW));
  return out;
}
