# The MLflow tracking server: PostgreSQL backend, built-in basic-auth app, artefacts proxied
# to a volume or an S3-compatible store (--artifacts-destination).
# Build from the repository root:  docker build -f docker/mlflow.Dockerfile -t studybench-mlflow .
#
# The official MLflow image lacks the PostgreSQL driver and the auth app's Flask-WTF, so this
# installs the server from PyPI (with boto3 for S3-compatible artefact stores), every package
# at its requirements/lock.txt version.
FROM python:3.11.14-slim-bookworm

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MLFLOW_DISABLE_TELEMETRY=true \
    MLFLOW_SERVER_ENABLE_JOB_EXECUTION=false

COPY requirements/lock.txt /tmp/lock.txt
RUN pip install --no-cache-dir -c /tmp/lock.txt \
        mlflow==3.17.2 Flask-WTF==1.3.0 psycopg2-binary==2.9.13 boto3==1.44.8 \
    && rm /tmp/lock.txt \
    && useradd --uid 50000 --gid 0 --create-home --home-dir /home/mlflow mlflow \
    && mkdir -p /mlflow/artifacts \
    && chown -R 50000:0 /mlflow

COPY docker/mlflow-entrypoint.sh docker/check-secrets.sh docker/mlflow_users.py /opt/mlflow/

USER 50000
WORKDIR /home/mlflow
EXPOSE 5000
ENTRYPOINT ["bash", "/opt/mlflow/mlflow-entrypoint.sh"]
