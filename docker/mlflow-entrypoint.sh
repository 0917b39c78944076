#!/usr/bin/env bash
# Start the MLflow tracking server behind its built-in basic-auth app.
#
# The auth app's settings file is written here, at start, from the environment (mode 0600 in
# a private temporary folder), so no password or database URI is ever baked into an image.
# The admin password goes to MLflow through MLFLOW_AUTH_ADMIN_PASSWORD, never into the file.
# The same script runs in the `mlflow` container and, on loopback, in tests/docker.
set -euo pipefail

: "${MLFLOW_BACKEND_STORE_URI:?set MLFLOW_BACKEND_STORE_URI (runs, metrics: a database URI)}"
: "${MLFLOW_AUTH_DATABASE_URI:?set MLFLOW_AUTH_DATABASE_URI (users and permissions)}"
: "${MLFLOW_ARTIFACTS_DESTINATION:?set MLFLOW_ARTIFACTS_DESTINATION (a folder or s3://bucket/path)}"
: "${MLFLOW_AUTH_ADMIN_USERNAME:?set MLFLOW_AUTH_ADMIN_USERNAME}"
: "${MLFLOW_AUTH_ADMIN_PASSWORD:?set MLFLOW_AUTH_ADMIN_PASSWORD}"
: "${MLFLOW_FLASK_SERVER_SECRET_KEY:?set MLFLOW_FLASK_SERVER_SECRET_KEY (signs CSRF tokens)}"

# shellcheck source=docker/check-secrets.sh
source "$(dirname "${BASH_SOURCE[0]}")/check-secrets.sh"
check_secrets "MLFLOW_AUTH_ADMIN_PASSWORD:${STUDYBENCH_PASSWORD_MIN}" \
  MLFLOW_FLASK_SERVER_SECRET_KEY:32 || {
  echo "mlflow: fix the values above in docker/.env" >&2
  exit 1
}

umask 077
config_dir="$(mktemp -d)"
export MLFLOW_AUTH_CONFIG_PATH="${config_dir}/basic_auth.ini"
cat >"${MLFLOW_AUTH_CONFIG_PATH}" <<INI
[mlflow]
# every signed-in user may read every experiment; only owners and the admin may change them
default_permission = READ
database_uri = ${MLFLOW_AUTH_DATABASE_URI}
admin_username = ${MLFLOW_AUTH_ADMIN_USERNAME}
authorization_function = mlflow.server.auth:authenticate_request_basic_auth
INI

exec mlflow server --app-name basic-auth \
  --host "${MLFLOW_HOST:-0.0.0.0}" \
  --port "${MLFLOW_PORT:-5000}" \
  --backend-store-uri "${MLFLOW_BACKEND_STORE_URI}" \
  --artifacts-destination "${MLFLOW_ARTIFACTS_DESTINATION}" \
  --workers "${MLFLOW_WORKERS:-2}"
