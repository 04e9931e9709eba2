#!/usr/bin/env bash
# Runs a Python test with an interpreter that has Debian's python3-distributed
# (python3 first, then /usr/bin/python3); exit 77 (skipped) with the reason
# when none has it. Usage: with_dask.sh SCRIPT ARGS...
for py in python3 /usr/bin/python3; do
  if "$py" -c "import distributed" 2>/dev/null; then
    exec "$py" "$@"
  fi
done
echo "SKIP: python3-distributed is not installed (scripts/setup installs it)"
exit 77
