# Sourced by the other scripts: make .venv and install the project into it, once.
# Re-installs only when pyproject.toml changes, so later runs cost a hash and a stat.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
STAMP="$VENV/.p2pcards-installed"
WANT="$(python3 -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$ROOT/pyproject.toml")"
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$WANT" ]; then
    LOG="$(mktemp)"
    # Said before the quiet install, so the first run is not a blank screen for a minute.
    echo "p2pcards: setting up $VENV (first run, or pyproject.toml changed; about a minute)..." >&2
    if ! {
        { [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"; } &&
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip &&
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT[dev,cluster,openspiel,pettingzoo]"
    } >"$LOG" 2>&1; then
        echo "p2pcards: setting up $VENV failed:" >&2
        cat "$LOG" >&2
        exit 1
    fi
    rm -f "$LOG"
    echo "$WANT" >"$STAMP"
    echo "p2pcards: ready." >&2
fi
