# Two targets from one build context:
# - `app` (the default, last stage): the api, worker and indexer; the command
#   picks one. Production dependencies only (`npm ci --omit=dev`): no anvil,
#   solc, embedded Postgres or test tooling.
# - `devchain`: every dependency, for the local chain of docker-compose.yml
#   (anvil and the one-shot contract deployment). Never runs the apps.
FROM node:20-bookworm-slim AS base
WORKDIR /app
COPY package.json package-lock.json ./

FROM base AS devchain
RUN npm ci --no-audit --no-fund
COPY --chown=node:node . .
# anvil's state (docker-compose mounts a volume here) and the contract build cache.
RUN mkdir -p /home/node/chain build && chown node:node /home/node/chain build
USER node

FROM base AS app
ENV NODE_ENV=production
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
USER node
