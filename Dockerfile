# The `scenaro` command in a container: `serve` by default (a bot server on 0.0.0.0:8765, metrics
# and probes on 9464), or any other command (`eval`, `eval merge`, `replay`, `hash`).
#
#   docker build -t scenaro:0.1.0 .
#   docker run -e SCENARO_TOKEN=... -p 8765:8765 -p 9464:9464 scenaro:0.1.0
#   docker run -v "$PWD/data:/data" -v "$PWD/results:/results" scenaro:0.1.0 \
#     eval --domain tau2_airline --data-root /data --output-dir /results
#
# The build stage installs and builds exactly as CI does (.ci/run: `npm ci`, then `npm run build`);
# the runtime stage has the production dependencies alone (`npm ci --omit=dev`) and the builds.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.base.json ./
COPY packages ./packages
COPY apps ./apps
RUN npm ci --no-audit --no-fund
RUN npm run build

FROM node:20-bookworm-slim AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/sdk/package.json ./packages/sdk/
COPY packages/agent/package.json ./packages/agent/
COPY packages/domains/package.json ./packages/domains/
COPY packages/eval/package.json ./packages/eval/
COPY packages/cli/package.json ./packages/cli/
COPY apps/demo/package.json ./apps/demo/
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
# PocketSphinx and its US English model: the offline speech recognition of `--stt pocketsphinx`
# (text to speech, Flite, and voice activity detection are WebAssembly inside the packages).
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    pocketsphinx pocketsphinx-en-us \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
  EVAL_DATA_ROOT=/data \
  SCENARO_LOG_LEVEL=info
COPY --from=runtime-deps /app ./
COPY --from=build /app/packages/sdk/dist ./packages/sdk/dist
COPY --from=build /app/packages/agent/dist ./packages/agent/dist
COPY --from=build /app/packages/domains/dist ./packages/domains/dist
COPY --from=build /app/packages/domains/data ./packages/domains/data
COPY --from=build /app/packages/eval/dist ./packages/eval/dist
COPY --from=build /app/packages/cli/dist ./packages/cli/dist
COPY --from=build /app/packages/cli/bin ./packages/cli/bin
COPY --from=build /app/apps/demo/dist ./apps/demo/dist
# The image's own unprivileged user (uid 1000), which owns nothing in /app.
USER node
EXPOSE 8765 9464
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9464/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/packages/cli/bin/scenaro.js"]
# A non-loopback host needs a token: set SCENARO_TOKEN (the server refuses to start without it).
# The drain fits `docker stop`'s 10 s; the Kubernetes manifests give it longer (deploy/kubernetes).
CMD ["serve", "--host", "0.0.0.0", "--port", "8765", "--metrics-port", "9464", "--shutdown-grace-ms", "8000"]
