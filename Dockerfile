# One image for every part: `node dist/src/main.js` runs all three; override the command with
# dist/src/resolver/main.js, dist/src/registry/main.js or dist/workers/main.js to scale parts apart.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src src
COPY workers workers
COPY migrations migrations
COPY seeds seeds
COPY bench bench
RUN npx tsc -p tsconfig.json && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/seeds seeds
USER node
EXPOSE 8080 8081
CMD ["node", "dist/src/main.js"]
