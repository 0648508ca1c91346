#!/usr/bin/env bash
# Build the peer solvers once into the git-ignored .peers/ at the repo root, for benchmarks and cross-checks.
#   black-hole-solver -> .peers/bhs/black-hole-solve      (needs libxxhash-dev; installed with apt-get)
#   Solvitaire        -> .peers/solvitaire/bin/solvitaire (its build.sh installs g++/cmake/Boost when missing)
#   Freecell Solver   -> fc-solve, make-microsoft-freecell-board from Debian's freecell-solver-bin
# Idempotent: what is already built or installed is skipped. Peer sources stay in ../shared/peers beside the
# repo (never copied into it). Usage: benchmarks/peers.sh [bhs|solvitaire|fcs ...]  (default: all three)
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
peers="$root/../shared/peers"
out="$root/.peers"
mkdir -p "$out"
want=("$@")
[ ${#want[@]} -eq 0 ] && want=(bhs solvitaire fcs)

apt_install() {
  # Install Debian packages when we may (root or passwordless sudo); otherwise say what is missing.
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if sudo -n true 2>/dev/null; then sudo="sudo -n"; else
      echo "peers: please install: apt-get install -y $*" >&2; return 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

status=0
for peer in "${want[@]}"; do
  case "$peer" in
    bhs)
      if [ -x "$out/bhs/black-hole-solve" ]; then
        echo "black-hole-solver: already built"
      else
        [ -e /usr/include/xxhash.h ] || apt_install libxxhash-dev || { status=1; continue; }
        "$peers/black-hole-solver/build.sh" "$out/bhs" || status=1
      fi
      echo "  $out/bhs/black-hole-solve  (Python bindings: LD_LIBRARY_PATH=$out/bhs)"
      ;;
    solvitaire)
      if [ -x "$out/solvitaire/bin/solvitaire" ]; then
        echo "solvitaire: already built"
      else
        "$peers/solvitaire/build.sh" "$out/solvitaire" || status=1
      fi
      echo "  $out/solvitaire/bin/solvitaire"
      ;;
    fcs)
      if command -v fc-solve >/dev/null && command -v make-microsoft-freecell-board >/dev/null; then
        echo "freecell-solver: already installed"
      else
        apt_install freecell-solver-bin || status=1
      fi
      echo "  $(command -v fc-solve || echo 'fc-solve: missing')"
      echo "  $(command -v make-microsoft-freecell-board || echo 'make-microsoft-freecell-board: missing')"
      ;;
    *) echo "peers: unknown peer '$peer' (bhs, solvitaire, fcs)" >&2; status=2 ;;
  esac
done
exit $status
