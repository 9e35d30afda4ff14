// Why the embedded demo could not start: the assistant refused the bot, or a server could not listen.
export type DemoFailure = 'bot' | 'listen';

export class DemoError extends Error {
  override readonly name = 'DemoError';
  constructor(
    readonly failure: DemoFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
