import type { DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';
import { DomainError } from '../domain/errors.ts';

// The store cannot be used right now: the database is down, restarting, unreachable,
// out of connections, or out of disk. Such driver errors leave the store as the one
// domain error 'unavailable' (503 on HTTP, "temporarily unavailable" in MCP), so no
// edge has to know the codes of pg or SQLite, and none shows a driver message.
// Other errors (a constraint, a bug in a query) pass through unchanged.

const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable, retry shortly';

/** Node socket errors on the way to the database server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** SQLSTATEs of PostgreSQL meaning "not now" rather than "wrong". */
const PG_UNAVAILABLE = (code: string) =>
  code.startsWith('08') || // connection exception
  code.startsWith('53') || // insufficient resources: disk full, out of memory, too many connections
  code === '57P01' || // admin_shutdown (the server is stopping)
  code === '57P02' || // crash_shutdown
  code === '57P03' || // cannot_connect_now (starting up, recovering)
  code === '57014'; // query_canceled (statement timeout)

/**
 * SQLite: the disk is full, the file cannot be written, the write lock stayed taken past
 * the wait (src/store/sqlite-lock-wait.ts), or a transaction's snapshot went stale while it waited.
 */
const SQLITE_UNAVAILABLE = (code: string) => code === 'SQLITE_FULL' || code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_IOERR');

/** pg reports a lost or never-made connection with these messages and no code. */
const PG_CONNECTION_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client was closed and is not queryable|Client has encountered a connection error|Query read timeout)/;

export function isUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if (err instanceof DomainError) return err.code === 'unavailable';
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || PG_UNAVAILABLE(code) || SQLITE_UNAVAILABLE(code))) return true;
  const message = (err as { message?: unknown }).message;
  if (typeof message === 'string' && PG_CONNECTION_MESSAGES.test(message)) return true;
  // A host name with several addresses fails with one error per address.
  const errors = (err as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.length > 0 && errors.every(isUnavailable);
}

/** The error the rest of the service sees: 'unavailable' with the driver's error as cause, or the error itself. */
export function translate(err: unknown): unknown {
  if (err instanceof DomainError || !isUnavailable(err)) return err;
  const e = new DomainError('unavailable', UNAVAILABLE_MESSAGE);
  (e as { cause?: unknown }).cause = err;
  return e;
}

async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw translate(err);
  }
}

class MappedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;

  constructor(inner: DatabaseConnection) {
    this.inner = inner;
  }
  executeQuery<R>(query: Parameters<DatabaseConnection['executeQuery']>[0]): Promise<QueryResult<R>> {
    return mapped(() => this.inner.executeQuery<R>(query));
  }
  async *streamQuery<R>(query: Parameters<DatabaseConnection['executeQuery']>[0], chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (err) {
      throw translate(err);
    }
  }
}

const isNoTransaction = (err: unknown) => /cannot rollback - no transaction is active/.test((err as Error)?.message ?? '');

const innerOf = (c: DatabaseConnection) => (c instanceof MappedConnection ? c.inner : c);

class MappedDriver implements Driver {
  private readonly inner: Driver;

  constructor(inner: Driver) {
    this.inner = inner;
  }
  init() {
    return mapped(() => this.inner.init());
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new MappedConnection(await mapped(() => this.inner.acquireConnection()));
  }
  // Transaction statements go through the wrapped connection, so their errors are mapped too.
  beginTransaction(c: DatabaseConnection, settings: Parameters<Driver['beginTransaction']>[1]) {
    return this.inner.beginTransaction(c, settings);
  }
  commitTransaction(c: DatabaseConnection) {
    return this.inner.commitTransaction(c);
  }
  async rollbackTransaction(c: DatabaseConnection) {
    try {
      // The driver's own connection: when ROLLBACK fails, kysely's PostgreSQL driver marks
      // it to be discarded rather than returned to the pool (a private symbol, as on release).
      await this.inner.rollbackTransaction(innerOf(c));
    } catch (err) {
      // SQLite rolls a transaction back by itself on SQLITE_FULL, SQLITE_IOERR and the
      // like; our ROLLBACK then fails and would replace the error that explains why.
      if (isNoTransaction(err)) return;
      throw translate(err);
    }
  }
  savepoint(c: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]) {
    return this.inner.savepoint!(c, name, compile);
  }
  rollbackToSavepoint(c: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]) {
    return this.inner.rollbackToSavepoint!(c, name, compile);
  }
  releaseSavepoint(c: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]) {
    return this.inner.releaseSavepoint!(c, name, compile);
  }
  // The driver's own connection object goes back to its pool (pg releases through a private symbol).
  releaseConnection(c: DatabaseConnection) {
    return this.inner.releaseConnection(innerOf(c));
  }
  destroy() {
    return this.inner.destroy();
  }
}

/** The same dialect whose driver reports "database unavailable" as the domain error 'unavailable'. */
export function reportingUnavailable(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new MappedDriver(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
