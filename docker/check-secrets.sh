#!/usr/bin/env bash
# Refuse example, weak or missing secrets before anything starts with them.
#
# Sourced by every init and start script (postgres-init.sh, airflow-init.sh, airflow-start.sh,
# worker-entrypoint.sh, mlflow-entrypoint.sh), each checking the secrets its own service
# holds, and run as the one-shot `secrets-check` service that every other service waits for:
#
#   bash docker/check-secrets.sh            # checks every secret of the deployment it is given
#   source docker/check-secrets.sh; check_secrets NAME[:MIN_LENGTH] ...
#
# A secret is refused when it is empty, is an example value (`change-me*` and the other
# placeholders below, or exactly its value in docker/.env.example), is shorter than its
# minimum (16 characters for machine secrets, 12 for human passwords), or has fewer than 6
# distinct characters. With a known JWT secret anyone can mint an Airflow admin token, so
# there is no "development" escape hatch. Values are never printed.

STUDYBENCH_SECRET_MIN=16
STUDYBENCH_PASSWORD_MIN=12
_studybench_examples_file="${STUDYBENCH_ENV_EXAMPLE:-$(dirname "${BASH_SOURCE[0]}")/.env.example}"

# value -> 0 when it is a placeholder anyone could guess
_studybench_is_example() {
  local lower="${1,,}"
  case "${lower}" in
    change-me* | changeme* | change_me* | replace-me* | replaceme* | example* | placeholder* \
      | dummy* | sample* | insecure* | not-a-secret* | your-* | your_* | todo* | xxx* | "<"*)
      return 0 ;;
    secret | password | passw0rd | admin | administrator | airflow | postgres | redis | mlflow \
      | root | test | default | none | null | letmein | qwerty* | 123456* | abc123*)
      return 0 ;;
  esac
  return 1
}

# NAME [MIN] -> 0 when $NAME is acceptable; prints the reason otherwise
check_secret() {
  local name="$1" min="${2:-${STUDYBENCH_SECRET_MIN}}"
  local value="${!name-}"
  if [[ -z "${value}" ]]; then
    echo "refused: ${name} is not set" >&2
    return 1
  fi
  if _studybench_is_example "${value}"; then
    echo "refused: ${name} still has an example value; set a real one in docker/.env" >&2
    return 1
  fi
  if [[ -r "${_studybench_examples_file}" ]] \
    && grep -qxF -- "${name}=${value}" "${_studybench_examples_file}"; then
    echo "refused: ${name} is the value of docker/.env.example" >&2
    return 1
  fi
  if ((${#value} < min)); then
    echo "refused: ${name} is shorter than ${min} characters" >&2
    return 1
  fi
  local distinct
  distinct="$(printf '%s' "${value}" | fold -w1 | sort -u | wc -l)"
  if ((distinct < 6)); then
    echo "refused: ${name} has fewer than 6 distinct characters" >&2
    return 1
  fi
  return 0
}

# NAME[:MIN] ... -> checks each (all of them, reporting every refusal), 1 if any is refused
check_secrets() {
  local spec failed=0
  for spec in "$@"; do
    if [[ "${spec}" == *:* ]]; then
      check_secret "${spec%%:*}" "${spec##*:}" || failed=1
    else
      check_secret "${spec}" || failed=1
    fi
  done
  return "${failed}"
}

# The deployment's secrets and their minimum lengths (what `secrets-check` is given).
STUDYBENCH_SECRETS=(
  POSTGRES_PASSWORD AIRFLOW_DB_PASSWORD MLFLOW_DB_PASSWORD REDIS_PASSWORD
  AIRFLOW_FERNET_KEY:44 AIRFLOW_JWT_SECRET:32 AIRFLOW_API_SECRET_KEY:32
  "AIRFLOW_ADMIN_PASSWORD:${STUDYBENCH_PASSWORD_MIN}" "AIRFLOW_VIEWER_PASSWORD:${STUDYBENCH_PASSWORD_MIN}"
  "MLFLOW_ADMIN_PASSWORD:${STUDYBENCH_PASSWORD_MIN}" "MLFLOW_PIPELINE_PASSWORD:${STUDYBENCH_PASSWORD_MIN}"
  "MLFLOW_VIEWER_PASSWORD:${STUDYBENCH_PASSWORD_MIN}" MLFLOW_FLASK_SECRET_KEY:32
  STUDYBENCH_JUDGE_API_KEY
)

# Secret files (/run/secrets/NAME, as compose mounts them) become $NAME.
load_secret_files() {
  local dir="${STUDYBENCH_SECRETS_DIR:-/run/secrets}" file name
  [[ -d "${dir}" ]] || return 0
  for file in "${dir}"/*; do
    name="$(basename "${file}")"
    if [[ -f "${file}" && "${name}" =~ ^[A-Z][A-Z0-9_]*$ ]]; then
      export "${name}=$(<"${file}")"
    fi
  done
}

# The Airflow settings that carry a secret, with their minimum lengths: a component checks
# those it was given (each gets only the ones it needs).
STUDYBENCH_AIRFLOW_SECRETS=(
  AIRFLOW__CORE__FERNET_KEY:44 AIRFLOW__API_AUTH__JWT_SECRET:32 AIRFLOW__API__SECRET_KEY:32
)

# Check those of NAME[:MIN] ... that are set in the environment.
check_present_secrets() {
  local spec name present=()
  for spec in "$@"; do
    name="${spec%%:*}"
    if [[ -n "${!name-}" ]]; then
      present+=("${spec}")
    fi
  done
  ((${#present[@]} == 0)) || check_secrets "${present[@]}"
}

if [[ "${BASH_SOURCE[0]}" == "${0}" ]]; then
  set -euo pipefail
  load_secret_files
  if check_secrets "${STUDYBENCH_SECRETS[@]}"; then
    echo "secrets-check: ${#STUDYBENCH_SECRETS[@]} secrets accepted"
  else
    echo "secrets-check: fix the values above in docker/.env, then start again" >&2
    exit 1
  fi
fi
