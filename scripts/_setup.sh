# Sourced by the other scripts: make .venv and install the project into it, once.
# EXTRAS, set before sourcing, names the optional dependencies the caller needs ("dev,cluster"
# for scripts/test); scripts/p2pcards needs none, so a first game installs only what playing
# needs (msgpack, cryptography, typer, rich) and starts in seconds.
# Re-installs only when pyproject.toml changes or an extra is missing, so later runs cost a
# hash and a stat.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
STAMP="$VENV/.p2pcards-installed"  # line 1: pyproject.toml's hash; line 2: the extras installed
EXTRAS="${EXTRAS:-}"
WANT="$(python3 -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$ROOT/pyproject.toml")"
HAVE="$(sed -n 1p "$STAMP" 2>/dev/null || true)"
HAVE_EXTRAS="$(sed -n 2p "$STAMP" 2>/dev/null || true)"
# Extras once installed stay listed: pip removes nothing, and the stamp says what is there.
ALL_EXTRAS="$(printf '%s\n' "${HAVE_EXTRAS//,/$'\n'}" "${EXTRAS//,/$'\n'}" | sed '/^$/d' | sort -u | paste -sd, -)"

_p2pcards_needs_install() {
    [ -x "$VENV/bin/python" ] || return 0
    [ "$HAVE" = "$WANT" ] || return 0
    [ "$ALL_EXTRAS" = "$HAVE_EXTRAS" ] || return 0
    return 1
}

# pip's own lines ("Collecting rich", "Installing collected packages: ...") on one line that
# rewrites itself at a terminal; all of them kept in the log, shown if the install fails.
_p2pcards_progress() {
    local log="$1" line width
    width="$(tput cols 2>/dev/null || echo 80)"
    while IFS= read -r line; do
        printf '%s\n' "$line" >>"$log"
        case "$line" in
            Collecting*|Installing*|Building*|Successfully*)
                [ -t 2 ] && printf '\r\033[Kp2pcards: %s' "${line:0:$((width - 12))}" >&2
                ;;
        esac
    done
    [ -t 2 ] && printf '\r\033[K' >&2
    return 0
}

# A pip of 22.3 or later outside the venv installs into it (--python): the venv then needs no
# pip of its own, whose installation is half of a first run's time.
_p2pcards_outer_pip() {
    python3 -c 'import sys; from pip import __version__ as v
sys.exit(tuple(map(int, v.split(".")[:2])) < (22, 3))' 2>/dev/null
}

_p2pcards_install() {
    if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import pip' 2>/dev/null; then
        "$VENV/bin/python" -m pip "$@"
    elif _p2pcards_outer_pip; then
        [ -x "$VENV/bin/python" ] || python3 -m venv --without-pip "$VENV"
        python3 -m pip --python "$VENV/bin/python" "$@"
    else
        [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
        "$VENV/bin/python" -m pip "$@"
    fi
}

if _p2pcards_needs_install; then
    LOG="$(mktemp)"
    TARGET="$ROOT"
    [ -n "$ALL_EXTRAS" ] && TARGET="$ROOT[$ALL_EXTRAS]"
    # Said before the install, so the first run is not a blank screen.
    echo "p2pcards: setting up .venv: ${ALL_EXTRAS:-what playing needs}..." >&2
    if ! _p2pcards_install install --disable-pip-version-check --progress-bar off -e "$TARGET" \
        2>&1 | _p2pcards_progress "$LOG"; then
        echo "p2pcards: setting up $VENV failed:" >&2
        cat "$LOG" >&2
        exit 1
    fi
    rm -f "$LOG"
    printf '%s\n%s\n' "$WANT" "$ALL_EXTRAS" >"$STAMP"
    echo "p2pcards: ready." >&2
fi
