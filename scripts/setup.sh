#!/usr/bin/env bash
# Installs everything MafiaVision needs on a fresh Debian machine: system packages (when root),
# a virtual environment in .venv and the package with its test extras. Idempotent and quick when
# nothing changed (a stamp keyed on pyproject.toml).
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(espeak-ng chromium sox libportaudio2)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "setup: installing Debian packages: ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "setup: please install the Debian packages: ${missing[*]} (sudo apt-get install ...)" >&2
    fi
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
stamp=.venv/.mafiavision-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "setup: installing Python packages into .venv (log: .venv/pip.log)"
    if ! { .venv/bin/python -m pip install --upgrade pip \
           && .venv/bin/python -m pip install -e ".[test]"; } >.venv/pip.log 2>&1; then
        tail -n 30 .venv/pip.log >&2
        echo "setup: pip install failed (full log: .venv/pip.log)" >&2
        exit 1
    fi
    echo "$want" > "$stamp"
fi
