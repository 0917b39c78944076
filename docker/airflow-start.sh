#!/usr/bin/env bash
# Start one Airflow component (api-server, scheduler, dag-processor, triggerer) after
# refusing any example or weak secret it was given (docker/check-secrets.sh).
set -euo pipefail

# shellcheck source=docker/check-secrets.sh
source "$(dirname "${BASH_SOURCE[0]}")/check-secrets.sh"
check_present_secrets "${STUDYBENCH_AIRFLOW_SECRETS[@]}" || {
  echo "airflow $1: refusing to start; fix the values above in docker/.env" >&2
  exit 1
}
exec airflow "$@"
