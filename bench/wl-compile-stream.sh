#!/bin/bash
# Workload 3, seed 004 (Morton's use-once test): wl-compile.sh with a recursive read (cat, see
# there) of a cold tree larger than RAM beside the build.
COMPILE_STREAM=1 exec bash "$(dirname "$0")/wl-compile.sh"
