#!/usr/bin/env bash
# Start an Airflow Celery worker on the queues in STUDYBENCH_WORKER_QUEUES (`default`: judge,
# metrics, logging; `gpu`: generation, next to vLLM).
#
# Secrets arrive as files (Compose/Kubernetes secrets), one per environment variable, named
# after it: /run/secrets/STUDYBENCH_JUDGE_API_KEY becomes $STUDYBENCH_JUDGE_API_KEY of this
# worker and of the task processes it starts, which is where studybench reads keys
# (`judge.api_key_env`). So a key is never a DAG parameter, never in Airflow's database and
# never in the environment of the scheduler or the API server.
set -euo pipefail

: "${STUDYBENCH_WORKER_QUEUES:?set STUDYBENCH_WORKER_QUEUES (comma-separated Celery queues)}"
# shellcheck source=docker/check-secrets.sh
source "$(dirname "${BASH_SOURCE[0]}")/check-secrets.sh"
load_secret_files
check_present_secrets "${STUDYBENCH_AIRFLOW_SECRETS[@]}" STUDYBENCH_JUDGE_API_KEY \
  "MLFLOW_TRACKING_PASSWORD:${STUDYBENCH_PASSWORD_MIN}" || {
  echo "worker: refusing to start; fix the values above in docker/.env" >&2
  exit 1
}

# the node name the compose health check pings (celery@$HOSTNAME), whatever the host's FQDN
exec airflow celery worker \
  --celery-hostname "celery@${HOSTNAME:-$(hostname)}" \
  --queues "${STUDYBENCH_WORKER_QUEUES}" \
  --concurrency "${STUDYBENCH_WORKER_CONCURRENCY:-4}" \
  "$@"
