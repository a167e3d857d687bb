# aabify: one image for every role (ROLE=web | worker | all). Multi-stage: build with the dev
# dependencies, then ship the bundles with production dependencies only, as a non-root user.
# Not built on the development machines (no container runtime there): see docs/deploy.md.

# ---- build ------------------------------------------------------------------------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/converter/package.json packages/converter/
COPY packages/server/package.json packages/server/
COPY packages/dashboard/package.json packages/dashboard/
COPY packages/cli/package.json packages/cli/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# ---- run --------------------------------------------------------------------------------------
FROM node:24-bookworm-slim AS run
# glibc's allocator settings of scripts/serverNodeFlags.mjs (why: there; bench/README.md,
# docs/deploy.md).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/aabify \
    DASHBOARD_DIR=/app/packages/dashboard/dist
WORKDIR /app
# Production node_modules (pruned above) and the bundles; the workspace packages are bundled in.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages/server/package.json packages/server/
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/dashboard/dist packages/dashboard/dist
RUN mkdir -p /var/lib/aabify && chown node:node /var/lib/aabify
USER node
EXPOSE 3000
# Liveness of any role (workers serve /api/health, /api/ready and /metrics too).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The heap flags of scripts/serverNodeFlags.mjs (why: there).
CMD ["node", "--max-semi-space-size=2", "--heap-growing-percent=30", "packages/server/dist/main.js"]
