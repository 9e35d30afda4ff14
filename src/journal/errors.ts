// Why the service state in the data directory could not be opened or written, with the file involved.
export class JournalError extends Error {
  override readonly name = 'JournalError';
  constructor(
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
