// A test step's `send`: the photo, document, location … a user sends, as the Message fields the service would
// deliver (a file stands for itself by its name: a file_id made from it, a photo 800×600, a document with that
// file name), with its caption.
import type { StepAction } from './model.js';

const FILE_KINDS = ['photo', 'document', 'video', 'voice', 'audio', 'sticker', 'animation'] as const;

type Raw = Readonly<Record<string, unknown>>;

/** The step's message fields and its label (`send: photo door.jpg`). */
export function sendAction(send: Raw): Omit<Extract<StepAction, { kind: 'send' }>, 'times'> {
  const caption = typeof send.caption === 'string' ? { caption: send.caption } : {};
  const file = FILE_KINDS.find((kind) => typeof send[kind] === 'string');
  if (file) {
    const name = send[file] as string;
    return { kind: 'send', fields: { [file]: fileFields(file, name), ...caption }, label: `send: ${file} ${name}` };
  }
  if (send.location !== undefined) {
    const { latitude, longitude } = send.location as { latitude: number; longitude: number };
    return { kind: 'send', fields: { location: { latitude, longitude }, ...caption }, label: `send: location ${latitude}, ${longitude}` };
  }
  const contact = send.contact as { phone_number: string; first_name: string };
  return { kind: 'send', fields: { contact, ...caption }, label: `send: contact ${contact.first_name}` };
}

function fileFields(kind: (typeof FILE_KINDS)[number], name: string): unknown {
  const id = `test-${kind}-${Buffer.from(name).toString('base64url')}`;
  const file = { file_id: id, file_unique_id: id.slice(-16), file_size: 1024 };
  if (kind === 'photo') return [{ ...file, width: 800, height: 600 }];
  if (kind === 'sticker') return { ...file, width: 512, height: 512, type: 'regular', is_animated: false, is_video: false };
  if (kind === 'document' || kind === 'audio' || kind === 'animation' || kind === 'video') return { ...file, file_name: name };
  return { ...file, duration: 3 };
}
