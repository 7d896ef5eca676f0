# Sourced by ./run and ./test: find Python 3.12+, create .venv and install requirements.txt
# when it is new or changed. Needs nothing but Python on the machine.
find_python() {
  for candidate in "${PYTHON:-}" python3.12 python3.13 python3 python; do
    [ -n "$candidate" ] || continue
    command -v "$candidate" >/dev/null 2>&1 || continue
    if "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  return 1
}

if [ ! -x .venv/bin/python ]; then
  PY=$(find_python) || {
    echo "error: Python 3.12 or newer is required (Django 6 needs it) and none was found." >&2
    echo "Install Python 3.12 (or set PYTHON=/path/to/python3.12) and run this again." >&2
    exit 1
  }
  echo "Creating .venv with $PY ($("$PY" --version))"
  "$PY" -m venv .venv
fi
if [ ! -f .venv/.installed ] || [ requirements.txt -nt .venv/.installed ]; then
  echo "Installing requirements (first run only)..."
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r requirements.txt
  touch .venv/.installed
fi
