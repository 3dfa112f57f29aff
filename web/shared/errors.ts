// The errors a hosted page tells apart when it reports a failure: the API's
// error envelope, a sentence meant for the payer as written, and the wallet's
// "user rejected" (EIP-1193 code 4001).

/** The API's error envelope (`{ error: { code, message, param, details } }`), as the page reads it. */
export type ApiErrorBody = {
  code: string;
  message?: string;
  param?: string;
  details?: { refusalCode?: unknown };
};

export class ApiError extends Error {
  constructor(
    message: string,
    readonly api: ApiErrorBody,
    readonly status: number,
  ) {
    super(message);
  }
}

/** A response body that is not a 2xx: the envelope's message, else the status. */
export function apiError(body: unknown, status: number): ApiError {
  const envelope = (body as { error?: ApiErrorBody } | null)?.error;
  return new ApiError(envelope?.message || `Request failed (${status})`, envelope ?? { code: 'api_error' }, status);
}

/** The refusal's message when the API refused the field `param` (shown next to that field); else undefined. */
export function fieldRefusal(error: unknown, param: string): string | undefined {
  if (!(error instanceof ApiError) || error.api.param !== param) return undefined;
  return error.api.message || error.message;
}

/** A sentence for the payer, shown as it is. */
export class UserMessageError extends Error {}

/** EIP-1193: the user rejected the request (or connected no account). */
export function isUserRejection(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 4001;
}
