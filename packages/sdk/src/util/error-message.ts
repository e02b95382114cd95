/** Options of {@link errorMessage}. */
export interface ErrorMessageOptions {
  /** Put an `Error`'s name first: `TypeError: x is not a function`. */
  withName?: boolean;
}

/** The text of a thrown value: an `Error`'s message, anything else as `String(value)`. */
export function errorMessage(error: unknown, options: ErrorMessageOptions = {}): string {
  if (!(error instanceof Error)) return String(error);
  return options.withName ? `${error.name}: ${error.message}` : error.message;
}
