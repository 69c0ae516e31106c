# A thin mirror of `make install` + `make run`, with Postgres from docker-compose.yml.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    VEDETTE_SCENARIOS_DIR=/app/scenarios VEDETTE_WEB_DIR=/app/web VEDETTE_MIGRATIONS_DIR=/app/migrations
WORKDIR /app
COPY . .
RUN pip install --no-cache-dir .
EXPOSE 8000
CMD ["sh", "-c", "vedette migrate && vedette serve --host 0.0.0.0"]
