/**
 * @module
 * The host app of the packaging test: the files `npm create vite -- --template
 * react-ts` writes (Vite, React 19, strict TypeScript with the template's
 * `tsconfig.app.json` / `tsconfig.node.json`), written here rather than
 * fetched, with the README's embed snippet as its `src/App.tsx`.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** The compiler options both of the template's tsconfig files share. */
const TEMPLATE_COMPILER_OPTIONS = {
  skipLibCheck: true,
  moduleResolution: 'bundler',
  allowImportingTsExtensions: true,
  verbatimModuleSyntax: true,
  moduleDetection: 'force',
  noEmit: true,
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  erasableSyntaxOnly: true,
  noFallthroughCasesInSwitch: true,
  noUncheckedSideEffectImports: true,
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

/**
 * The code block of `language` that follows `heading` in a Markdown file,
 * exactly as written there.
 */
export function codeBlockAfter(markdown: string, heading: string, language: string): string {
  const start = markdown.indexOf(`\n${heading}\n`)
  if (start === -1) throw new Error(`no "${heading}" heading`)
  const block = new RegExp(`\\n\`\`\`${language}\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(
    markdown.slice(start),
  )
  if (!block?.[1]) throw new Error(`no \`\`\`${language} block after "${heading}"`)
  return `${block[1]}\n`
}

export interface HostAppOptions {
  /** The app's `package.json` dependencies and devDependencies. */
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
  /** Where npm takes packages that are not on the registry (the packed tarballs). */
  overrides: Record<string, string>
  /** `src/App.tsx`, exporting `App`. */
  app: string
  /** More files under src/ (type-checked with the app, bundled only if App imports them). */
  extraSources?: Record<string, string>
}

/** Writes the host app into `dir`. */
export async function writeHostApp(dir: string, options: HostAppOptions): Promise<void> {
  const files: Record<string, string> = {
    'package.json': json({
      name: 'host-app',
      private: true,
      version: '0.0.0',
      type: 'module',
      scripts: { dev: 'vite', build: 'tsc -b && vite build', preview: 'vite preview' },
      dependencies: options.dependencies,
      devDependencies: options.devDependencies,
      overrides: options.overrides,
    }),
    'tsconfig.json': json({
      files: [],
      references: [{ path: './tsconfig.app.json' }, { path: './tsconfig.node.json' }],
    }),
    'tsconfig.app.json': json({
      compilerOptions: {
        tsBuildInfoFile: './node_modules/.tmp/tsconfig.app.tsbuildinfo',
        target: 'ES2022',
        useDefineForClassFields: true,
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        module: 'ESNext',
        types: ['vite/client'],
        jsx: 'react-jsx',
        ...TEMPLATE_COMPILER_OPTIONS,
      },
      include: ['src'],
    }),
    'tsconfig.node.json': json({
      compilerOptions: {
        tsBuildInfoFile: './node_modules/.tmp/tsconfig.node.tsbuildinfo',
        target: 'ES2023',
        lib: ['ES2023'],
        module: 'ESNext',
        types: ['node'],
        ...TEMPLATE_COMPILER_OPTIONS,
      },
      include: ['vite.config.ts'],
    }),
    'vite.config.ts': [
      "import { defineConfig } from 'vite'",
      "import react from '@vitejs/plugin-react'",
      '',
      'export default defineConfig({',
      '  plugins: [react()],',
      '})',
      '',
    ].join('\n'),
    'index.html': [
      '<!doctype html>',
      '<html lang="en">',
      '  <head>',
      '    <meta charset="UTF-8" />',
      '    <meta name="viewport" content="width=device-width, initial-scale=1.0" />',
      '    <title>host-app</title>',
      '  </head>',
      '  <body>',
      '    <div id="root"></div>',
      '    <script type="module" src="/src/main.tsx"></script>',
      '  </body>',
      '</html>',
      '',
    ].join('\n'),
    'src/main.tsx': [
      "import { StrictMode } from 'react'",
      "import { createRoot } from 'react-dom/client'",
      "import { App } from './App.tsx'",
      '',
      "createRoot(document.getElementById('root')!).render(",
      '  <StrictMode>',
      '    <App />',
      '  </StrictMode>,',
      ')',
      '',
    ].join('\n'),
    'src/App.tsx': options.app,
    ...Object.fromEntries(
      Object.entries(options.extraSources ?? {}).map(([name, text]) => [`src/${name}`, text]),
    ),
  }
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), text)
  }
}
