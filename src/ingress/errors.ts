// Fatal ingress failures: what went wrong and what the operator should do about it.

export type IngressFailure = 'unauthorized' | 'webhook_active' | 'other_instance' | 'set_webhook_failed' | 'listen_failed';

export class IngressError extends Error {
  override readonly name = 'IngressError';
  constructor(
    readonly failure: IngressFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
