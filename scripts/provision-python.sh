#!/usr/bin/env bash
# Debian's python3-statsmodels, which test/unit/stats/logistic.test.ts fits the same design with
# (the unit level runs this first). Idempotent: nothing is done when Debian's python3 already
# imports statsmodels. Needs root and apt (as CI has); no PyPI.
set -euo pipefail
if /usr/bin/python3 -c 'import statsmodels' 2>/dev/null; then exit 0; fi
if [[ $(id -u) -ne 0 ]]; then
  echo "provision-python: python3-statsmodels is missing; install it as root: apt-get install python3-statsmodels" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends python3-statsmodels >/dev/null
/usr/bin/python3 -c 'import statsmodels'
