# Sourced by bin/serve and bin/test: make this machine able to run graphmem.
# Installs Java 17+ and Maven from Debian when missing (as root), a venv with the package and
# its dev dependencies, and does nothing that is already done.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# Installs Debian packages (as root) when a check says they are missing; the caller checks.
debian_install() {
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "graphmem: installing $* from Debian" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    echo "graphmem: missing $*; install them (e.g. sudo apt-get install -y $*)" >&2
    exit 1
  fi
}

need_debian_packages=()
if ! java -version 2>&1 | grep -Eq 'version "(1[7-9]|[2-9][0-9])'; then
  need_debian_packages+=(openjdk-17-jre-headless)
fi
command -v mvn >/dev/null 2>&1 || need_debian_packages+=(maven)
command -v npm >/dev/null 2>&1 || need_debian_packages+=(npm)
# What the caller needs only later (bin/test: Chromium) installs beside the Python and npm
# setup below, unless apt runs now anyway; it is waited for at the end.
later_debian_pid=""
if ((${#need_debian_packages[@]})); then
  debian_install "${need_debian_packages[@]}" ${DEBIAN_ALSO:-}
elif [[ -n "${DEBIAN_ALSO:-}" ]]; then
  debian_install $DEBIAN_ALSO & later_debian_pid=$!
fi

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "graphmem: Python 3.11+ is required (set PYTHON=/path/to/python3.11)" >&2
  exit 1
fi
if [[ ! -x .venv/bin/python ]]; then
  "$PYTHON" -m venv .venv
fi
# Reinstall only when a dependency list changed: the service's and its Python client's.
stamp=".venv/.graphmem-deps"
want="$(cat pyproject.toml clients/python/pyproject.toml | sha256sum | cut -d' ' -f1)"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[dev]' -e clients/python
  # ariadne-codegen (the client's generated layer, checked for drift by tests/clients) needs
  # graphql-core 3.2 and strawberry 3.3: it gets a venv of its own.
  [[ -x .venv/codegen/bin/python ]] || "$PYTHON" -m venv .venv/codegen
  .venv/codegen/bin/python -m pip install -q './clients/python[codegen]'
  echo "$want" > "$stamp"
fi
# The browser libraries the console and GraphiQL serve (graphmem/console/assets.py), pinned
# in package-lock.json and served from node_modules/: nothing is fetched at run time. Again
# when the lockfile changed or a served file is missing; one bootstrap at a time (npm ci
# starts by deleting node_modules/, so two at once leave it half-filled).
npm_stamp="node_modules/.graphmem-lock"
npm_want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ ! -f "$npm_stamp" || "$(cat "$npm_stamp")" != "$npm_want" ]] \
    || ! .venv/bin/python -m graphmem.console.assets; then
  (
    flock 9
    if [[ ! -f "$npm_stamp" || "$(cat "$npm_stamp")" != "$npm_want" ]] \
        || ! .venv/bin/python -m graphmem.console.assets; then
      npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
      echo "$npm_want" > "$npm_stamp"
    fi
  ) 9> .venv/.graphmem-npm.lock
fi
# The TypeScript client's toolchain (tsc, GraphQL Code Generator, and the AI SDK its tests
# build tools with), pinned in clients/typescript/package-lock.json; tests/clients/
# test_typescript.py generates, builds, tests and packs the package with it.
ts_stamp="clients/typescript/node_modules/.graphmem-lock"
ts_want="$(sha256sum clients/typescript/package-lock.json | cut -d' ' -f1)"
if [[ ! -f "$ts_stamp" || "$(cat "$ts_stamp")" != "$ts_want" ]]; then
  (
    flock 9
    if [[ ! -f "$ts_stamp" || "$(cat "$ts_stamp")" != "$ts_want" ]]; then
      (cd clients/typescript && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
      echo "$ts_want" > "$ts_stamp"
    fi
  ) 9> .venv/.graphmem-npm-typescript.lock
fi
if [[ -n "$later_debian_pid" ]] && ! wait "$later_debian_pid"; then
  echo "graphmem: could not install $DEBIAN_ALSO" >&2
  exit 1
fi
export PATH="$ROOT/.venv/bin:$PATH"
