import {
  type Compilable,
  type CompiledQuery,
  type Kysely,
  PostgresAdapter,
  type QueryResult,
  type Transaction,
} from 'kysely'
import { preparePostgresStatement } from './pg-prepared.ts'
import { CONNECTION_BUSY, inGroupCommit, type SqliteHandle, sqliteHandleOf } from './sqlite-sync.ts'
import type { Database } from './types.ts'

type Db = Kysely<Database> | Transaction<Database>

/** Stands for a named parameter while the builder runs; no real value looks like it. */
const placeholder = (name: string) => `\u0000latchkey-param:${name}\u0000`

interface Compiled {
  query: CompiledQuery
  /** Per bind slot: the parameter's name, or the constant the builder put there. */
  slots: Array<{ name: string } | { value: unknown }>
}

/**
 * A query built and compiled once per dialect, then run with new parameter
 * values: what Kysely's builder costs on every call (parsing, freezing and
 * compiling the operation tree, ~15 µs) is paid once. For the hot paths only
 * (a refresh, a login); elsewhere the builder's clarity is worth its cost.
 *
 * `param('name')` marks where a value goes; the compiled SQL has a bind slot
 * there, filled from `execute`'s arguments. Literals the builder is given
 * stay constants of the statement.
 *
 * @example
 * const sessionOwner = precompile<{ id: string }>()((db, param) =>
 *   db.selectFrom('sessions').select('user_id').where('id', '=', param('id')),
 * )
 * const row = await sessionOwner.first(services.db, { id: sessionId })
 */
export function precompile<P extends Record<string, unknown>>() {
  return <R>(
    build: (
      db: Kysely<Database>,
      param: <K extends keyof P & string>(name: K) => P[K],
    ) => Compilable<R>,
  ): PrecompiledQuery<P, R> => new PrecompiledQuery<P, R>(build)
}

export class PrecompiledQuery<P extends Record<string, unknown>, R> {
  // SQL differs by dialect only (SQLite `?`, PostgreSQL `$1`), so one per adapter class.
  readonly #compiled = new Map<unknown, Compiled>()

  constructor(
    private readonly build: (
      db: Kysely<Database>,
      param: <K extends keyof P & string>(name: K) => P[K],
    ) => Compilable<R>,
  ) {}

  #compile(db: Db): Compiled {
    const dialect = db.getExecutor().adapter.constructor
    let compiled = this.#compiled.get(dialect)
    if (!compiled) {
      const names = new Map<unknown, string>()
      const query = this.build(db, (name) => {
        const value = placeholder(name)
        names.set(value, name)
        return value as never
      }).compile()
      const slots = query.parameters.map((value) => {
        const name = names.get(value)
        return name === undefined ? { value } : { name }
      })
      compiled = { query, slots }
      this.#compiled.set(dialect, compiled)
      if (db.getExecutor().adapter instanceof PostgresAdapter) preparePostgresStatement(query.sql)
    }
    return compiled
  }

  #parameters(slots: Compiled['slots'], params: P): unknown[] {
    return slots.map((slot) => ('name' in slot ? params[slot.name] : slot.value))
  }

  /** Runs the statement on `db` (or a transaction) with `params` in its bind slots. */
  execute(db: Db, params: P): Promise<QueryResult<R>> {
    const { query, slots } = this.#compile(db)
    const parameters = this.#parameters(slots, params)
    return db.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>)
  }

  /**
   * Runs the statement synchronously on `db`'s SQLite connection (for
   * db/sqlite-sync.ts `runSqliteTransaction`): its rows, or for a statement
   * that returns none, an empty array.
   */
  rowsSync(db: Kysely<Database>, handle: SqliteHandle, params: P): R[] {
    const statement = this.#statement(db, handle)
    const parameters = this.#parameters(this.#compile(db).slots, params)
    if (!statement.reader) {
      statement.run(parameters)
      return []
    }
    return statement.all(parameters) as R[]
  }

  #statement(db: Kysely<Database>, handle: SqliteHandle) {
    return handle.prepare(this.#compile(db).query.sql)
  }

  /**
   * {@link affected} for a write that stands alone (no transaction of its
   * own): on SQLite it shares the commit of this turn's other writes
   * (db/sqlite-sync.ts inGroupCommit); elsewhere it runs as {@link affected}.
   */
  async affectedInGroupCommit(db: Kysely<Database>, params: P): Promise<number> {
    const handle = sqliteHandleOf(db)
    if (handle) {
      const statement = this.#statement(db, handle)
      const parameters = this.#parameters(this.#compile(db).slots, params)
      const changes = await inGroupCommit(handle, () => statement.run(parameters).changes)
      if (changes !== CONNECTION_BUSY) return changes
    }
    return this.affected(db, params)
  }

  /**
   * {@link first} for a write with RETURNING that stands alone: on SQLite it
   * shares the commit of this turn's other writes, as {@link affectedInGroupCommit}.
   */
  async firstInGroupCommit(db: Kysely<Database>, params: P): Promise<R | undefined> {
    const handle = sqliteHandleOf(db)
    if (handle) {
      const statement = this.#statement(db, handle)
      const parameters = this.#parameters(this.#compile(db).slots, params)
      const row = await inGroupCommit(handle, () => statement.get(parameters) as R | undefined)
      if (row !== CONNECTION_BUSY) return row
    }
    return this.first(db, params)
  }

  firstSync(db: Kysely<Database>, handle: SqliteHandle, params: P): R | undefined {
    return this.rowsSync(db, handle, params)[0]
  }

  async rows(db: Db, params: P): Promise<R[]> {
    return (await this.execute(db, params)).rows
  }

  async first(db: Db, params: P): Promise<R | undefined> {
    return (await this.execute(db, params)).rows[0]
  }

  /** Rows an INSERT, UPDATE or DELETE without RETURNING changed. */
  async affected(db: Db, params: P): Promise<number> {
    return Number((await this.execute(db, params)).numAffectedRows ?? 0)
  }
}
