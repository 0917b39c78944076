"""studybench: continuous benchmarking of self-evolving language models.

Importing the package is cheap and GPU-free: heavy libraries (torch, transformers, mlflow,
airflow) are imported lazily by the few modules that need them.
"""

from __future__ import annotations

import os

__version__ = "0.1.0"

# Third-party tools the platform drives must not phone home or reach a model hub: runs are
# offline and reproducible by default. An explicit value in the environment still wins.
_QUIET_TOOL_DEFAULTS = {
    "MLFLOW_DISABLE_TELEMETRY": "true",
    "DVC_NO_ANALYTICS": "1",
    "HF_HUB_OFFLINE": "1",
    "HF_HUB_DISABLE_UPDATE_CHECK": "1",
}
for _name, _value in _QUIET_TOOL_DEFAULTS.items():
    os.environ.setdefault(_name, _value)

# Every log line of a process that uses studybench is scrubbed of API keys (the secrets module
# imports nothing heavy).
from studybench.secrets import install_log_scrubbing  # noqa: E402

install_log_scrubbing()
