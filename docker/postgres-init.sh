#!/usr/bin/env bash
# First start of the PostgreSQL volume (docker-entrypoint-initdb.d): one role and database
# for Airflow's metadata, one role with two databases for MLflow (runs; users and
# permissions of its basic-auth app, which keeps its own migration history).
set -euo pipefail

: "${AIRFLOW_DB_PASSWORD:?}"
: "${MLFLOW_DB_PASSWORD:?}"

# shellcheck source=docker/check-secrets.sh
source "${STUDYBENCH_CHECKS:-/opt/studybench-checks/check-secrets.sh}"
check_secrets POSTGRES_PASSWORD AIRFLOW_DB_PASSWORD MLFLOW_DB_PASSWORD || {
  echo "postgres-init: fix the values above in docker/.env" >&2
  exit 1
}

psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER}" --dbname postgres \
  -v airflow_password="${AIRFLOW_DB_PASSWORD}" -v mlflow_password="${MLFLOW_DB_PASSWORD}" <<'SQL'
CREATE ROLE airflow LOGIN PASSWORD :'airflow_password';
CREATE ROLE mlflow LOGIN PASSWORD :'mlflow_password';
CREATE DATABASE airflow OWNER airflow;
CREATE DATABASE mlflow OWNER mlflow;
CREATE DATABASE mlflow_auth OWNER mlflow;
SQL
