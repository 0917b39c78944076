"""Create or update the MLflow users of the deployment (the one-shot ``mlflow-init`` service).

The basic-auth app creates only its admin. The platform needs two more: ``pipeline`` (the
Airflow tasks log with it; experiments it creates are its own) and ``viewer`` (people who
look: every experiment is readable through the server's ``default_permission = READ``, none
is writable). Passwords come from the environment; running this again rotates them.

Run with the admin's credentials in MLFLOW_TRACKING_USERNAME / MLFLOW_TRACKING_PASSWORD.
"""

from __future__ import annotations

import os
import sys
import time
import urllib.error
import urllib.request

from mlflow.exceptions import RestException
from mlflow.server.auth.client import AuthServiceClient

USERS = (
    ("MLFLOW_PIPELINE_USERNAME", "MLFLOW_PIPELINE_PASSWORD"),
    ("MLFLOW_VIEWER_USERNAME", "MLFLOW_VIEWER_PASSWORD"),
)


def wait_healthy(uri: str, timeout_s: float = 300.0) -> None:
    """Wait for the server's unauthenticated ``/health`` endpoint."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(f"{uri.rstrip('/')}/health", timeout=5) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            sys.exit(f"mlflow-init: {uri} not healthy after {timeout_s:.0f} s")
        time.sleep(1.0)


def ensure_user(client: AuthServiceClient, username: str, password: str) -> str:
    """Create ``username``, or set its password when it exists. Returns what was done."""
    try:
        client.get_user(username)
    except RestException:
        client.create_user(username, password)
        return "created"
    client.update_user_password(username, password)
    return "updated"


def main() -> None:
    uri = os.environ.get("MLFLOW_TRACKING_URI", "")
    if not uri.startswith(("http://", "https://")):
        sys.exit("mlflow-init: MLFLOW_TRACKING_URI must be the server's http(s) URL")
    for variable in ("MLFLOW_TRACKING_USERNAME", "MLFLOW_TRACKING_PASSWORD"):
        if not os.environ.get(variable):
            sys.exit(f"mlflow-init: {variable} (the admin's credentials) is not set")
    wait_healthy(uri)
    client = AuthServiceClient(uri)
    for user_var, password_var in USERS:
        username, password = os.environ.get(user_var, ""), os.environ.get(password_var, "")
        if not username or not password:
            sys.exit(f"mlflow-init: set {user_var} and {password_var}")
        if password.lower().startswith(("change-me", "changeme", "example")) or len(password) < 12:
            # the same rule as docker/check-secrets.sh (which `secrets-check` runs first)
            sys.exit(f"mlflow-init: {password_var} is an example value or under 12 characters")
        print(f"mlflow-init: user {username} {ensure_user(client, username, password)}")


if __name__ == "__main__":
    main()
