// A PostgreSQL schema of its own for each server under test, so runs never
// share tables with each other or with tests running on the same database.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import pg from 'pg'

export const isPostgresUrl = (url) => !!url && /^postgres(ql)?:\/\//.test(url)

async function admin(url, sql, parameters) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(sql, parameters)).rows
  } finally {
    await client.end()
  }
}

const TICK_US = 10_000 // /proc/<pid>/stat counts CPU time in clock ticks of 1/100 s.

/**
 * CPU time (µs) of the PostgreSQL backends serving one bench server: its
 * connections carry `bench-<schema>` as their application name. PostgreSQL
 * runs on this machine, unpinned, so the database's share of each request's
 * work is counted apart from the server process's. A backend that exits
 * inside a window is missed; the pools keep theirs while under load.
 */
async function backendCpuMicros(url, schema) {
  const rows = await admin(url, 'SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
    `bench-${schema}`,
  ])
  let ticks = 0
  for (const { pid } of rows) {
    try {
      // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // Gone between the query and the read.
    }
  }
  return ticks * TICK_US
}

/** Creates `<prefix>_<random>`; returns its name, `drop()` and `cpuMicros()` of its backends. */
export async function createSchema(url, prefix) {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`
  await admin(url, `CREATE SCHEMA ${schema}`)
  return {
    schema,
    drop: () => admin(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`),
    cpuMicros: () => backendCpuMicros(url, schema),
  }
}

/**
 * The URL with `search_path` set for every connection (node-postgres reads
 * `options` from the URL), and an application name that marks the bench's
 * connections in `pg_stat_activity`.
 */
export function withSchema(url, schema) {
  const withPath = new URL(url)
  withPath.searchParams.set('options', `-c search_path=${schema}`)
  withPath.searchParams.set('application_name', `bench-${schema}`)
  return withPath.toString()
}
