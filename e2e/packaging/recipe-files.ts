/**
 * @module
 * Readers for the container recipe (Dockerfile, compose.yaml) that
 * container-recipe.test.ts checks. No YAML library is installed, so
 * `parseYamlSubset` reads the subset compose.yaml is written in and throws
 * on anything else: the recipe cannot drift into a shape the test skips.
 */

/** One instruction of a Dockerfile, continuation lines joined. */
export interface DockerInstruction {
  keyword: string
  args: string
}

/** A build stage: its `FROM` arguments and its instructions. */
export interface DockerStage {
  from: string
  name: string | null
  instructions: DockerInstruction[]
}

/** The stages of a Dockerfile (instructions before the first FROM, e.g. ARG, are dropped). */
export function parseDockerfile(text: string): DockerStage[] {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  const stages: DockerStage[] = []
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? []
    const upper = keyword.toUpperCase()
    if (upper === 'FROM') {
      const [from = '', as, name] = args.split(/\s+/)
      stages.push({
        from,
        name: as?.toUpperCase() === 'AS' ? (name ?? null) : null,
        instructions: [],
      })
    } else stages.at(-1)?.instructions.push({ keyword: upper, args })
  }
  return stages
}

/** The arguments of an exec-form (JSON array) instruction, e.g. CMD ["a", "b"]. */
export function execForm(args: string): string[] {
  const list = JSON.parse(args) as unknown
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string'))
    throw new Error(`not an exec-form array: ${args}`)
  return list
}

/** `ENV A=1 B=2` instructions of a stage, as one record (values without quotes). */
export function stageEnv(stage: DockerStage): Record<string, string> {
  const env: Record<string, string> = {}
  for (const { keyword, args } of stage.instructions) {
    if (keyword !== 'ENV') continue
    for (const [, key = '', value = ''] of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g))
      env[key] = value.replace(/^"|"$/g, '')
  }
  return env
}

export type Yaml = string | Yaml[] | { [key: string]: Yaml }

/**
 * Block mappings, block sequences of scalars, scalars (plain or quoted) and
 * flow sequences written as JSON arrays. Comments are whole lines.
 */
export function parseYamlSubset(text: string): Yaml {
  const lines = text
    .split('\n')
    .map((raw, index) => ({ raw, number: index + 1 }))
    .filter(({ raw }) => raw.trim() !== '' && !/^\s*#/.test(raw))
  let at = 0
  const indentOf = (raw: string) => raw.length - raw.trimStart().length
  const fail = (number: number, why: string): never => {
    throw new Error(`compose.yaml line ${number}: ${why}`)
  }

  function block(indent: number): Yaml {
    const first = lines[at]
    if (!first) return ''
    if (first.raw.trimStart().startsWith('- ')) return sequence(indent)
    return mapping(indent)
  }

  function sequence(indent: number): Yaml[] {
    const items: Yaml[] = []
    for (let line = lines[at]; line && indentOf(line.raw) === indent; line = lines[at]) {
      const text = line.raw.trim()
      if (!text.startsWith('- ')) fail(line.number, 'expected a list item')
      const item = text.slice(2).trim()
      if (/^[\w.-]+:(\s|$)/.test(item)) fail(line.number, 'mappings in lists are not in the subset')
      items.push(scalar(item, line.number))
      at++
    }
    return items
  }

  function mapping(indent: number): { [key: string]: Yaml } {
    const map: { [key: string]: Yaml } = {}
    for (let line = lines[at]; line && indentOf(line.raw) === indent; line = lines[at]) {
      const match = /^([\w.-]+):(?:\s+(.*))?$/.exec(line.raw.trim())
      if (!match) return fail(line.number, `expected "key: value", got ${line.raw.trim()}`)
      const [, key = '', rest] = match
      if (key in map) fail(line.number, `duplicate key ${key}`)
      at++
      if (rest !== undefined && rest !== '') {
        map[key] = scalar(rest, line.number)
        continue
      }
      const next = lines[at]
      const nested = next ? indentOf(next.raw) : 0
      const isList = next?.raw.trimStart().startsWith('- ') && nested >= indent
      map[key] = next && (nested > indent || isList) ? block(nested) : ''
    }
    const stray = lines[at]
    if (stray && indentOf(stray.raw) > indent) fail(stray.number, 'unexpected indentation')
    return map
  }

  function scalar(text: string, number: number): Yaml {
    if (text.startsWith('[')) {
      try {
        return execForm(text)
      } catch {
        return fail(number, `flow sequences must be JSON arrays of strings: ${text}`)
      }
    }
    if (/^".*"$/.test(text)) return JSON.parse(text) as string
    if (/^'.*'$/.test(text)) return text.slice(1, -1).replace(/''/g, "'")
    if (/^[&*!|>{]/.test(text) || /\s#/.test(text))
      fail(
        number,
        `anchors, tags, block scalars, flow maps and trailing comments are not in the subset: ${text}`,
      )
    return text
  }

  const document = block(0)
  const left = lines[at]
  if (left) fail(left.number, 'unexpected indentation')
  return document
}

/**
 * Compose's `${VAR:-default}` / `${VAR:?error}` / `${VAR}` interpolation,
 * with `values` standing in for the shell or .env file.
 */
export function interpolate(text: string, values: Record<string, string>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g,
    (_all, name: string, op: string | undefined, word: string) => {
      const value = values[name]
      if (value !== undefined && value !== '') return value
      if (op?.endsWith('?')) throw new Error(`${name} is required: ${word}`)
      if (op?.endsWith('-')) return word
      return ''
    },
  )
}
