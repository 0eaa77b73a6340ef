# Stammtisch chat bot. Set TELEGRAM_TOKEN and REDIS_URL (or mount /data for the embedded Redis).
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends gcc make libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY adapters ./adapters
RUN pip install --no-cache-dir .
ENV STAMMTISCH_DATA_DIR=/data
VOLUME /data
CMD ["stammtisch", "run"]
