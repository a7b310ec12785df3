# syntax=docker/dockerfile:1
# The Latchkey server as a container image (docs/container.md).
#
#   build    builds the packages and packs the server's tarballs, as a release does;
#   install  installs @latchkey/server from its tarball in a clean folder, as an
#            app outside this repository does (e2e/packaging/host-app.test.ts);
#   runtime  that folder on a slim Node, as an unprivileged user, nothing else.
#
# container-recipe.test.ts checks this file: stages, user, volume, health
# check and command (the packaged-server test's, e2e/packaging/serve-command.ts).

ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /repo
COPY . .
# No install scripts: the build compiles TypeScript and bundles the enclave,
# it runs no native module (better-sqlite3 is built in the install stage).
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm run build \
 && mkdir /packs \
 && npm pack --pack-destination /packs -w @latchkey/protocol -w @latchkey/server

FROM ${NODE_IMAGE} AS install
# A compiler for better-sqlite3 when no prebuilt binary fits the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /packs /packs
RUN server="$(ls /packs/latchkey-server-*.tgz)" \
 && protocol="$(ls /packs/latchkey-protocol-*.tgz)" \
 && printf '{"name":"latchkey-server-image","private":true,"type":"module","dependencies":{"@latchkey/server":"file:%s"},"overrides":{"@latchkey/protocol":"file:%s"}}\n' "$server" "$protocol" > package.json \
 && npm install --omit=dev --no-audit --no-fund \
 && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    LATCHKEY_DATA_DIR=/data \
    PATH=/app/node_modules/.bin:$PATH
WORKDIR /app
COPY --from=install /app/package.json /app/package.json
COPY --from=install /app/node_modules /app/node_modules
# The data folder (SQLite file; the development master key outside production)
# belongs to the server's user and no one else. A numeric user, so that
# Kubernetes' runAsNonRoot can verify it: uid 1000 is `node` in the Node images.
RUN mkdir -p /data && chown 1000:1000 /data && chmod 700 /data
USER 1000:1000
VOLUME ["/data"]
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `latchkey serve` drains on SIGTERM (docs/operations.md "Shutdown and drain").
STOPSIGNAL SIGTERM
CMD ["latchkey", "serve", "--init"]
