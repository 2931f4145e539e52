#!/bin/sh
# Stands in for a compiler too old for some features: it rejects the flags
# named in $CPUD_REJECT_FLAGS the way GCC rejects an unknown option, and
# passes everything else to $CPUD_REAL_CC.
for arg in "$@"; do
  for bad in $CPUD_REJECT_FLAGS; do
    if [ "$arg" = "$bad" ]; then
      echo "cc1: error: unrecognized command-line option '$arg'" >&2
      exit 1
    fi
  done
done
exec $CPUD_REAL_CC "$@"
