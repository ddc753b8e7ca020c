/** The URL as it may be printed: no password, neither in the user part nor as a query parameter. */
export function printableUrl(url: string): string {
  const parsed = new URL(url);
  parsed.password = parsed.password ? '***' : '';
  for (const key of [...parsed.searchParams.keys()]) {
    if (/password/i.test(key)) parsed.searchParams.set(key, '***');
  }
  return parsed.toString();
}

/** An error's message for a start-up message, or the thrown value as text. */
export function reasonOf(cause: unknown): string {
  return (cause as Error).message || String(cause);
}
