# One image for the API, the bot workers and the CLI.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY core ./core
COPY api ./api
COPY ai_worker ./ai_worker
COPY clients ./clients
RUN pip install . \
    && useradd --create-home --uid 10001 bgb
USER bgb

EXPOSE 8000
# The API; compose runs the workers from the same image with `bgb worker`.
CMD ["gunicorn", "--config", "python:api.gunicorn_conf", "--bind", "0.0.0.0:8000", "--workers", "4", "--worker-class", "api.gunicorn_worker.ProblemThreadWorker", \
     "--threads", "16", "--timeout", "60", "api:create_app()"]
