# Skyport: one image for both roles.
#   docker run IMAGE                  -> skyport serve --host 0.0.0.0 --port 8000 (the API)
#   docker run IMAGE worker           -> skyport worker (the Celery worker)
#
# Pin the base image by digest in CI (`--build-arg PYTHON_IMAGE=python:3.11-slim@sha256:...`);
# builder and runtime must use the same one, since the virtualenv links to its interpreter.
ARG PYTHON_IMAGE=python:3.11-slim

# --------------------------------------------------------------------------- builder
FROM ${PYTHON_IMAGE} AS builder

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    PYTHONDONTWRITEBYTECODE=1

RUN python -m venv /opt/venv
ENV PATH="/opt/venv/bin:${PATH}" \
    VIRTUAL_ENV=/opt/venv

WORKDIR /src

# Dependencies first, in their own layer: a code change does not reinstall them.
# pyproject.toml pins every direct dependency to an exact version; a constraints.txt
# (`pip freeze` of a clean install), when the repository has one, pins the transitive ones too.
COPY pyproject.toml constraints.txt* ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
    && if [ -f constraints.txt ]; then pip install -r requirements.txt -c constraints.txt; \
       else pip install -r requirements.txt; fi

# Then the project itself, as a wheel (the package data - game components, the SDL - included).
COPY README.md ./
COPY services ./services
COPY schema ./schema
COPY workers ./workers
RUN pip install --no-deps . \
    && pip check \
    && python -m compileall -q /opt/venv

# --------------------------------------------------------------------------- runtime
FROM ${PYTHON_IMAGE} AS runtime

LABEL org.opencontainers.image.title="skyport" \
      org.opencontainers.image.description="Skyport game-state service: REST + GraphQL API and Celery worker" \
      org.opencontainers.image.licenses="Proprietary"

RUN groupadd --system --gid 10001 skyport \
    && useradd --system --uid 10001 --gid skyport --home-dir /home/skyport --create-home \
       --shell /usr/sbin/nologin skyport

COPY --from=builder /opt/venv /opt/venv

# The root filesystem may be read-only (Kubernetes sets it so): no byte-code writes, logs
# to stdout, scratch space under /tmp (an emptyDir / tmpfs).
ENV PATH="/opt/venv/bin:${PATH}" \
    VIRTUAL_ENV=/opt/venv \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONFAULTHANDLER=1 \
    SKYPORT_LOG_JSON=true \
    HEALTHCHECK_URL=http://127.0.0.1:8000/healthz

WORKDIR /home/skyport
USER 10001:10001
EXPOSE 8000

# Docker's own health check, for `docker run` and Compose (Kubernetes ignores it and uses the
# probes in k8s/). The slim image has no curl: the standard library does the request, and
# urlopen raises - a non-zero exit - on anything but a 2xx answer or on no answer.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(os.environ['HEALTHCHECK_URL'], timeout=3)"]

# skyport runs as PID 1 in exec form, so SIGTERM reaches it directly: uvicorn stops accepting,
# lets in-flight requests finish and tells SSE/WebSocket clients to reconnect; the Celery
# worker does a warm shutdown (running tasks finish, unacknowledged ones are redelivered).
# Give it time: `docker stop -t 30`, Compose `stop_grace_period`, k8s terminationGracePeriodSeconds.
STOPSIGNAL SIGTERM
ENTRYPOINT ["skyport"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
