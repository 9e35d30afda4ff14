// The body of a call that uploads a file: multipart/form-data, as the Bot API takes files. Every parameter is
// a part (objects and arrays as JSON text, as clients send them), every UploadedFile a file part with its name.
import { randomBytes } from 'node:crypto';

/** A file uploaded with a call (a Bot API InputFile): its bytes and the name the service shows. */
export interface UploadedFile {
  readonly upload: Buffer;
  readonly fileName: string;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && Buffer.isBuffer((value as { upload?: unknown }).upload);
}

/** Whether a call's parameters carry a file, so it must go as multipart. */
export function hasUpload(params: object | undefined): boolean {
  if (!params) return false;
  for (const value of Object.values(params)) if (isUploadedFile(value)) return true;
  return false;
}

/** The multipart body of `params` and its content type. */
export function multipartBody(params: object): { body: Buffer; contentType: string } {
  const boundary = `----hearsay${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (isUploadedFile(value)) {
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"; filename="${quoted(value.fileName)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      chunks.push(Buffer.from(head, 'utf8'), value.upload, Buffer.from('\r\n'));
      continue;
    }
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${text}\r\n`, 'utf8'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A name or file name inside a quoted header value: quotes and line breaks escaped as browsers do. */
function quoted(text: string): string {
  return text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
