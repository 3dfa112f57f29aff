# Two targets from one build context:
# - `app` (the default, last stage): the api, worker and indexer; the command
#   picks one. Production dependencies only (`npm ci --omit=dev`) and product code
#   only (src/, workflows/, activities/, the built dashboard): no anvil, solc,
#   embedded Postgres, dev tooling (tools/), tests or benches.
# - `dashboard`: builds the web dashboard (dashboard/dist) that `app` serves at /dashboard.
# - `devchain`: every dependency, for the local chain of docker-compose.yml
#   (anvil and the one-shot contract deployment). Never runs the apps.
FROM node:20-bookworm-slim AS base
WORKDIR /app
COPY package.json package-lock.json ./
# npm install runs it (postinstall): the Postgres client's reserve fix, docs/decisions.md.
COPY scripts/patch-postgres-client.mjs scripts/

FROM base AS devchain
RUN npm ci --no-audit --no-fund
COPY --chown=node:node . .
# anvil's state (docker-compose mounts a volume here) and the contract build cache.
RUN mkdir -p /home/node/chain build && chown node:node /home/node/chain build
USER node

# The web dashboard, built with its dev-only toolchain (Vite); the app image takes only the output.
FROM base AS dashboard
RUN npm ci --no-audit --no-fund
COPY . .
RUN node --import tsx scripts/build-dashboard.ts --force

FROM base AS app
ENV NODE_ENV=production
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# Product code only: no tools/, test/, bench/, contracts/ or scripts/ beyond the install step's patch.
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY --from=dashboard /app/dashboard/dist ./dashboard/dist
USER node
