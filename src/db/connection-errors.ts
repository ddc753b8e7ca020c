/**
 * Socket errors of a database server that is down, restarting or unreachable. Only Postgres connections
 * surface these to request handlers: ioredis reports a lost Redis with errors of its own ("Stream isn't
 * writeable…", "Connection is closed."), and the API areas fetch nothing else.
 */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server that cannot serve now but will: admin_shutdown, crash_shutdown and
 * cannot_connect_now (starting up, shutting down, recovering), too_many_connections; class 08 (connection
 * exception) is matched by its prefix.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * pg's own errors for a connection that died or never came up (they carry no code): the server went away
 * under an open connection, the connect timeout passed, or a query was sent on a client that had failed.
 * Knex puts the SQL in front of a failed query's message (`select 1 - Connection terminated unexpectedly`).
 */
const PG_CONNECTION_MESSAGES =
  /(?:^|- )(?:Connection terminated(?: unexpectedly)?|timeout expired|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)$/;

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  /** Objection's DBError wraps the driver's error. */
  nativeError?: unknown;
  /** Node's AggregateError when every address of a host refused (localhost: ::1 and 127.0.0.1). */
  errors?: unknown;
}

function isUnavailable(error: ErrorLike): boolean {
  // Knex gives up waiting for a pool connection: none could be made, or all are stuck.
  if (error.name === 'KnexTimeoutError') return true;
  const code = error.code;
  if (typeof code === 'string') {
    if (UNREACHABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return typeof error.message === 'string' && PG_CONNECTION_MESSAGES.test(error.message);
}

/**
 * Whether an error means "the database cannot be reached right now" rather than "this query is wrong": the
 * one place that tells them apart, so that every caller (the error translator first) answers an outage the
 * same way. Looks through the wrappers knex, objection and Node put around the driver's error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const candidate = current as ErrorLike;
    if (isUnavailable(candidate)) return true;
    pending.push(candidate.cause, candidate.nativeError);
    if (Array.isArray(candidate.errors)) pending.push(...(candidate.errors as unknown[]));
  }
  return false;
}
