import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

// Plumbing shared by the fake providers: node:http on 127.0.0.1, body
// reading, JSON/HTML answers, CORS. No framework, so each fake reads as the
// provider's documentation does: method, path, query, body.

/** Who may call a fake's API from a browser: exact origins, or any ('*'). */
export type CorsOrigins = string[] | '*'

/** One parsed request, as the route handlers see it. */
export interface FakeRequest {
  method: string
  url: URL
  headers: IncomingMessage['headers']
  body: Buffer
}

/** A handler answers by writing `res`; it may be async. */
export type FakeHandler = (req: FakeRequest, res: ServerResponse) => void | Promise<void>

/** Largest body a fake accepts (the payloads here are a few hundred bytes). */
const MAX_BODY_BYTES = 1024 * 1024

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        reject(new Error('Body too large'))
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** A listening fake: its base URL and how to stop it. */
export interface Listening {
  url: string
  close(): Promise<void>
}

/**
 * Serves `handler` on 127.0.0.1 (`port` 0: a free port). Errors thrown by the
 * handler become a 500 JSON answer, so a bug in a fake fails the test loudly
 * instead of hanging it.
 */
export async function listen(handler: FakeHandler, port = 0): Promise<Listening> {
  const server: Server = createServer(async (req, res) => {
    try {
      const body = await readBody(req)
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      await handler({ method: req.method ?? 'GET', url, headers: req.headers, body }, res)
    } catch (error) {
      if (!res.headersSent) sendJson(res, 500, { error: String(error) })
      else res.end()
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const { port: actual } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        // Browsers keep connections alive; do not wait for them to idle out.
        server.closeAllConnections()
      }),
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'cache-control': 'no-store',
    ...headers,
  })
  res.end(JSON.stringify(body))
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
  res.end(html)
}

/** 302 to `location` (the consent pages' way back to the caller). */
export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'cache-control': 'no-store' })
  res.end()
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

/** A minimal HTML page (consent, sign-in, error). */
export function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`
}

/**
 * Writes the CORS headers for `origin` when the policy allows it and answers
 * preflights. Returns true when the request was a preflight (already answered).
 */
export function handleCors(
  req: FakeRequest,
  res: ServerResponse,
  policy: CorsOrigins,
  allowHeaders: string,
): boolean {
  const origin = req.headers.origin
  const allowed = origin !== undefined && (policy === '*' || policy.includes(origin))
  if (allowed) {
    res.setHeader('access-control-allow-origin', policy === '*' ? '*' : origin)
    res.setHeader('vary', 'Origin')
  }
  if (req.method !== 'OPTIONS') return false
  if (allowed) {
    res.setHeader('access-control-allow-methods', 'GET, POST, PATCH, DELETE, OPTIONS')
    res.setHeader('access-control-allow-headers', allowHeaders)
    res.setHeader('access-control-max-age', '600')
  }
  res.writeHead(allowed ? 204 : 403)
  res.end()
  return true
}

/** An opaque random token (base64url) with a readable prefix. */
export function randomToken(prefix: string, bytes = 24): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`
}

/** Form fields of an application/x-www-form-urlencoded body. */
export function parseForm(body: Buffer): URLSearchParams {
  return new URLSearchParams(body.toString('utf8'))
}
