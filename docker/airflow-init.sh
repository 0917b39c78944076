#!/usr/bin/env bash
# One-shot setup before any Airflow component starts (the `airflow-init` service): migrate
# the metadata database, write the auth manager's users and passwords from the environment,
# and size the `gpu` pool (slots = GPUs = engines running at once).
#
# Idempotent: run it again after changing a password or the GPU count.
set -euo pipefail

: "${AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE:?set the passwords file path}"
: "${AIRFLOW_ADMIN_USERNAME:?set AIRFLOW_ADMIN_USERNAME}"
: "${AIRFLOW_ADMIN_PASSWORD:?set AIRFLOW_ADMIN_PASSWORD}"
: "${AIRFLOW_VIEWER_USERNAME:?set AIRFLOW_VIEWER_USERNAME}"
: "${AIRFLOW_VIEWER_PASSWORD:?set AIRFLOW_VIEWER_PASSWORD}"

# shellcheck source=docker/check-secrets.sh
source "$(dirname "${BASH_SOURCE[0]}")/check-secrets.sh"
if ! check_secrets "AIRFLOW_ADMIN_PASSWORD:${STUDYBENCH_PASSWORD_MIN}" \
  "AIRFLOW_VIEWER_PASSWORD:${STUDYBENCH_PASSWORD_MIN}" \
  || ! check_present_secrets "${STUDYBENCH_AIRFLOW_SECRETS[@]}"; then
  echo "airflow-init: fix the values above in docker/.env" >&2
  exit 1
fi

airflow db migrate

# The simple auth manager keeps passwords in a JSON file; a user listed in
# AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS whose password is in the file keeps it.
python - <<'PY'
import json
import os
from pathlib import Path

path = Path(os.environ["AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE"])
path.parent.mkdir(parents=True, exist_ok=True)
passwords = {
    os.environ["AIRFLOW_ADMIN_USERNAME"]: os.environ["AIRFLOW_ADMIN_PASSWORD"],
    os.environ["AIRFLOW_VIEWER_USERNAME"]: os.environ["AIRFLOW_VIEWER_PASSWORD"],
}
temporary = path.with_suffix(".tmp")
temporary.write_text(json.dumps(passwords))
temporary.chmod(0o600)
temporary.replace(path)
print(f"airflow-init: wrote {len(passwords)} users to {path}")
PY

slots="$(python -c 'from studybench.config import load_settings; print(load_settings(require_file=True).airflow.gpu_slots)')"
airflow pools set gpu "${slots}" "concurrent vLLM engines (one per GPU or GPU group)"
echo "airflow-init: pool gpu has ${slots} slot(s)"
