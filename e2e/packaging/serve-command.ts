/**
 * The one `latchkey serve` invocation of a packaged server: the container
 * image's `CMD` (Dockerfile) and the packaged-server test
 * (host-app.test.ts, through `npx --no`) run exactly this, and
 * container-recipe.test.ts holds the Dockerfile to it.
 *
 * `--init` stays in production: it only lets the command create the SQLite
 * file when there is none (the guard against starting an empty database from
 * the wrong folder). In the image the data folder is fixed (`/data`, a
 * volume that is empty on the first start) and with `DATABASE_URL` it does
 * nothing, so without it a first start would always refuse.
 */
export const SERVE_COMMAND = ['latchkey', 'serve', '--init'] as const
