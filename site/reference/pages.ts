/**
 * The generated reference pages, as the docs site's dynamic route
 * `docs/reference/[page].md` receives them. Run from the repository root with
 * the workspace sources; prints `[{ params: { page }, content }]` as JSON:
 *
 * @example
 * node --conditions=latchkey-source --import tsx site/reference/pages.ts
 */
import { configurationPage } from './configuration-page.ts'
import { httpApiPage, type OpenApiDocument } from './http-api-page.ts'
import { fetchOpenApiDocument } from './openapi-document.ts'

export interface ReferencePage {
  params: { page: string }
  content: string
}

export async function referencePages(): Promise<ReferencePage[]> {
  const openapi = (await fetchOpenApiDocument()) as unknown as OpenApiDocument
  return [
    { params: { page: 'configuration' }, content: configurationPage() },
    { params: { page: 'http-api' }, content: httpApiPage(openapi) },
  ]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(JSON.stringify(await referencePages()))
}
