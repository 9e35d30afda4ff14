// Splits a reply longer than the service's 4096-character limit into messages: at a line break when
// there is one in the second half of the window, else at a space, else hard — never inside a
// surrogate pair. Lengths are UTF-16 code units, which never undercounts the service's characters.

export const MAX_MESSAGE_LENGTH = 4096;

export function splitMessageText(text: string, limit = MAX_MESSAGE_LENGTH): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const window = rest.slice(0, limit + 1);
    let cut = window.lastIndexOf('\n', limit);
    let skip = 1;
    if (cut < limit / 2) {
      cut = lastWhitespace(window, limit);
      if (cut < limit / 2) {
        cut = limit;
        skip = 0;
        const code = rest.charCodeAt(cut - 1);
        if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
      }
    }
    pushPart(parts, rest.slice(0, cut));
    rest = rest.slice(cut + skip);
  }
  pushPart(parts, rest);
  return parts;
}

function lastWhitespace(window: string, limit: number): number {
  for (let i = Math.min(limit, window.length - 1); i > 0; i--) {
    if (/\s/.test(window[i]!)) return i;
  }
  return -1;
}

/** The service refuses empty or blank messages, so blank pieces are dropped. */
function pushPart(parts: string[], part: string): void {
  if (part.trim() !== '') parts.push(part);
}
