# Sourced by .ci/run and scripts/test.sh. CI is CPU-bound, so a phase's busy CPU time says where the run goes, and the
# whole run's over the cores is the least it can take (docs/development.md, "Development").
# busy_seconds: the machine's busy CPU time so far, in seconds (user, nice, system, irq and softirq of /proc/stat).
busy_seconds() { awk '/^cpu /{print int(($2+$3+$4+$7+$8)/100)}' /proc/stat; }
phase_started=$(date +%s)
phase_busy=$(busy_seconds)
# phase_done NAME: "== NAME took N s, M CPU-seconds", counted from the last phase_done (or from sourcing this file).
phase_done() {
  local now busy
  now=$(date +%s)
  busy=$(busy_seconds)
  echo "== $1 took $(( now - phase_started )) s, $(( busy - phase_busy )) CPU-seconds"
  phase_started=$now
  phase_busy=$busy
}
