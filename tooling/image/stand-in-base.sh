#!/usr/bin/env bash
# Builds a stand-in for `debian:trixie-slim` where no registry can be pulled from (these machines, an air-gapped
# mirror): `debootstrap --variant=minbase trixie` from the machine's own Debian mirror, plus the machine's extra CA
# certificates (as a company's base image carries its own CA; without them npm in the build fails with
# SELF_SIGNED_CERT_IN_CHAIN), imported under that tag. Does nothing when the tag exists.
#   bash tooling/image/stand-in-base.sh [TAG]
set -euo pipefail
cd "$(dirname "$0")"
source ./podman-env.sh
tag=${1:-docker.io/library/debian:trixie-slim}
trap podman_env_cleanup EXIT
if podman image exists "$tag"; then
  echo "stand-in base: $tag exists"
  exit 0
fi
# The first deb.debian.org-style URI of the machine's apt sources (deb822 or one-line), else Debian's own.
mirror=$(grep -hoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' \
  /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | head -n 1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
root=$(mktemp -d)
trap 'rm -rf "$root" "$root.log"; podman_env_cleanup' EXIT
started=$(date +%s)
echo "stand-in base: debootstrap trixie from $mirror"
nice -n 19 debootstrap --variant=minbase trixie "$root" "$mirror" > "$root.log" 2>&1 || {
  tail -n 20 "$root.log"
  exit 1
}
# As Debian's own slim images: no documentation, manual pages or translations from later installs.
cat > "$root/etc/dpkg/dpkg.cfg.d/docker-slim" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
CFG
# ca-certificates itself, then the machine's extra certificates into the bundle.
# Downloads as root: in the chroot apt's _apt user cannot write its cache (apt would warn, then do so anyway).
chroot "$root" apt-get install -y -qq -o APT::Sandbox::User=root --no-install-recommends ca-certificates \
  > "$root.log" 2>&1 || {
  tail -n 20 "$root.log"
  exit 1
}
if compgen -G "/usr/local/share/ca-certificates/*.crt" > /dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi
chroot "$root" update-ca-certificates > /dev/null 2>&1
chroot "$root" apt-get clean
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/usr/share/doc/* "$root"/usr/share/man/* \
  "$root"/usr/share/locale/*
tar -C "$root" -c . | podman import --quiet --change 'CMD ["bash"]' - "$tag" > /dev/null
echo "stand-in base: $tag imported in $(( $(date +%s) - started )) s"
