"""One line describing the machine a benchmark or evaluation ran on (printed with its figures)."""

from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def describe_machine() -> str:
    """CPU model and count, Python, mediapipe and the load average now (other jobs skew timings)."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{_cpu_model()}, {os.cpu_count()} vCPU, {platform.system()} {platform.machine()}, "
            f"Python {platform.python_version()}, mediapipe {_version('mediapipe')}, "
            f"load average {load:.2f}")
