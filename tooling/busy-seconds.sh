# Sourced by .ci/run and scripts/test.sh: busy_seconds prints the machine's busy CPU time so far, in seconds (user,
# nice, system, irq and softirq of /proc/stat's first line). CI is CPU-bound, so that over the cores is the least a run
# can take (docs/development.md, "Development").
busy_seconds() { awk '/^cpu /{print int(($2+$3+$4+$7+$8)/100)}' /proc/stat; }
