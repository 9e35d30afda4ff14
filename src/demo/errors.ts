// Why the embedded demo could not start: the assistant refused the bot, a server could not listen, or
// the rule folder named does not exist.
export type DemoFailure = 'bot' | 'listen' | 'rules';

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
