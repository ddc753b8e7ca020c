/**
 * An error of the HTTP exchange itself (a method a path does not serve, a body too large, a client over its
 * cap), answered with `status` in the error envelope; what goes wrong in the domain is a DomainError.
 * `payload` is the envelope's payload, null but for the few answers where the reference gives one.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly payload: unknown = null,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

// Domain errors: kept under these names for the code that throws them from here.
export { invalid as badRequest, notFound } from '../core/domain-error.js';
