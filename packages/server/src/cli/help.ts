import {
  COMMANDS,
  COMMON_FLAGS,
  DATA_NOTE,
  DATABASE_ENV,
  type FlagSpec,
  samePath,
} from './commands.ts'

// The CLI's help text, made from the command list (commands.ts).

const WIDTH = 100
const LEFT = 32

/** Breaks `text` into lines of at most `width` characters, at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  return [...lines, line]
}

/** A note: wrapped, unless it is laid out already (has line breaks). */
const paragraph = (note: string) => (note.includes('\n') ? [note] : wrap(note, WIDTH))

/** `  left          right`, the right side wrapped in its column. */
function column(left: string, right: string): string {
  const [first = '', ...more] = wrap(right, WIDTH - LEFT)
  const indent = ''.padEnd(LEFT)
  const head =
    left.length < LEFT - 3 ? [`  ${left.padEnd(LEFT - 2)}${first}`] : [`  ${left}`, indent + first]
  return [...head, ...more.map((line) => indent + line)].join('\n')
}

const flagLines = (flags: Record<string, FlagSpec>) =>
  Object.entries(flags).map(([flag, spec]) =>
    column(
      `${spec.short ? `-${spec.short}, ` : ''}--${flag}${spec.value ? ` ${spec.value}` : ''}`,
      spec.help,
    ),
  )

const envLines = (env: Record<string, string>) =>
  Object.entries(env).map(([variable, help]) => column(variable, help))

/**
 * The help of a command or group (`[]`: the whole CLI).
 *
 * @example
 * helpText(['apps', 'create']) // 'Usage: latchkey apps create --name N …'
 */
export function helpText(path: readonly string[]): string {
  const command = COMMANDS.find((c) => samePath(c.path, path))
  if (command)
    return [
      `Usage: latchkey ${[...command.path, command.synopsis].filter(Boolean).join(' ')} [--data DIR] [--init]`,
      '',
      `${command.summary[0]?.toUpperCase()}${command.summary.slice(1)}.`,
      '',
      'Options:',
      ...flagLines({ ...command.flags, ...COMMON_FLAGS }),
      '',
      'Environment:',
      ...envLines({ ...DATABASE_ENV, ...command.env }),
      ...(command.notes ?? []).flatMap((note) => ['', ...paragraph(note)]),
      '',
      ...wrap(DATA_NOTE, WIDTH),
    ].join('\n')
  const listed = COMMANDS.filter((c) => samePath(c.path.slice(0, path.length), path))
  const prefix = path.length ? `${path.join(' ')} ` : ''
  return [
    `Usage: latchkey ${prefix}<command> [options]`,
    '',
    'Commands:',
    ...listed.map((c) =>
      column(c.path.join(' ') + (c.args ? ` ${c.args.join(' ')}` : ''), c.summary),
    ),
    '',
    'Options of every command:',
    ...flagLines(COMMON_FLAGS),
    '',
    'Environment:',
    ...envLines(DATABASE_ENV),
    '',
    ...wrap(DATA_NOTE, WIDTH),
    '',
    `Run "latchkey ${prefix}<command> --help" for the options of a command.`,
  ].join('\n')
}
