# Sourced by the image scripts: podman as these machines need it (docs/operations.md, "Running it in containers").
# A containers.conf of our own in a temporary file (never /etc's) with what podman here needs (issue 56): no default
# ulimits, and cgroupfs (no systemd); podman itself at nice 19 with runc. A script that
# sources this calls podman_env_cleanup when it ends (it removes that file if this made it).
if [ -z "${CONTAINERS_CONF:-}" ] || [ ! -f "$CONTAINERS_CONF" ]; then
  CONTAINERS_CONF=$(mktemp --suffix=.conf)
  podman_env_conf=$CONTAINERS_CONF
  printf '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n' \
    > "$CONTAINERS_CONF"
  export CONTAINERS_CONF
fi
podman_env_cleanup() {
  [ -n "${podman_env_conf:-}" ] || return 0
  rm -f "$podman_env_conf"
  unset CONTAINERS_CONF podman_env_conf
}
# Without systemd podman logs an error for each container with a HEALTHCHECK (it cannot add the timer that would run
# it); `podman healthcheck run` works all the same, so those lines are left out.
podman() { nice -n 19 podman --runtime runc "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }
