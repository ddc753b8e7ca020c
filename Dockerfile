# One image for every part. The entrypoint takes a command: `start` (the default: prepare the database and
# run all three parts), `resolver`, `registry`, `worker` to scale parts apart, `cluster` (2 of each behind
# HAProxy, where it is installed), `satellite` (a resolver without a database, following a registry area), and the one-shot `migrate`, `rollback`, `status`,
# `import <file-or-URL> [--prune] [--synonyms <file>]`, `reference-prefixes --source <name> <file>`,
# `linkcheck [--prefix P] [--wait] [--spread D] [--timeout D]`, `settings`, `openapi --area resolver|registry`,
# and `healthcheck [command]` (the HEALTHCHECK below). `docker run IMAGE --help` lists them.
# Node: the machines that test this project run Node 20 (past end of life); the image follows the LTS line.
ARG NODE_VERSION=26

FROM node:${NODE_VERSION}-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src src
COPY workers workers
COPY migrations migrations
COPY seeds seeds
COPY scripts/prune-dev-optional.mjs scripts/
# npm prune --omit=dev keeps dev dependencies that production packages name as optional peers (TypeScript,
# valibot's); prune-dev-optional.mjs removes them (no compiler in the image). recheck-jar (23 MB) is
# recheck's backend for machines with Java; the image has none and uses recheck's native binary (or its
# pure-JavaScript fallback where there is no binary for the platform).
RUN npx tsc -p tsconfig.json && npm prune --omit=dev --no-audit --no-fund && node scripts/prune-dev-optional.mjs && rm -rf node_modules/recheck-jar

FROM node:${NODE_VERSION}-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/seeds seeds
COPY scripts scripts
COPY public public
# The code stays owned by root and read-only to the service; only the data folder (the dataset files the
# worker writes and the registry area serves, DATASET_DIR=var/dataset) belongs to the unprivileged user.
RUN mkdir -p /app/var/dataset && chown -R node:node /app/var
VOLUME /app/var
USER node
EXPOSE 8080 8081
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["node", "dist/src/cli.js", "healthcheck"]
ENTRYPOINT ["node", "dist/src/cli.js"]
CMD ["start"]
