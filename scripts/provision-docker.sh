#!/usr/bin/env bash
# Make a Docker engine reachable and the local base image present. Idempotent:
# on a laptop with Docker running and the image built, it changes nothing.
# Why a local base image: CI machines reach no registry, so the image the demo
# chain runs in is built from Debian packages (debootstrap + docker import).
set -euo pipefail

BASE_IMAGE="${CHAINLENS_BASE_IMAGE:-chainlens/base:bookworm}"
log() { echo "[provision-docker] $*" >&2; }

engine_up() { docker info >/dev/null 2>&1; }

apt_install() {
  # Only install what is missing; apt-get update once per call.
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

if ! engine_up; then
  if [[ -n "${DOCKER_HOST:-}" ]]; then
    log "DOCKER_HOST=$DOCKER_HOST is set but the engine does not answer; not starting a local one"
    exit 1
  fi
  if [[ $(id -u) -ne 0 ]]; then
    log "no Docker engine reachable and not root: start Docker yourself (or set DOCKER_HOST)"
    exit 1
  fi
  apt_install docker.io
  log "starting dockerd"
  nohup dockerd >/var/log/dockerd.log 2>&1 &
  for _ in $(seq 1 60); do engine_up && break; sleep 1; done
  engine_up || { log "dockerd did not come up; see /var/log/dockerd.log"; tail -20 /var/log/dockerd.log >&2; exit 1; }
fi
log "engine: $(docker info --format '{{.ServerVersion}}')"

if docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  log "base image $BASE_IMAGE present"
  exit 0
fi
[[ $(id -u) -eq 0 ]] || { log "base image $BASE_IMAGE missing and building it needs root (debootstrap)"; exit 1; }
apt_install debootstrap
rootfs=$(mktemp -d /tmp/chainlens-rootfs.XXXXXX)
trap 'rm -rf "$rootfs"' EXIT
log "building $BASE_IMAGE from Debian packages (about 90 s)"
debootstrap --variant=minbase --include=python3,python3-pytest,git,patch,ca-certificates \
  bookworm "$rootfs" http://deb.debian.org/debian >/tmp/chainlens-debootstrap.log 2>&1 \
  || { tail -20 /tmp/chainlens-debootstrap.log >&2; exit 1; }
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
tar -C "$rootfs" -c . | docker import -c 'CMD ["/bin/bash"]' -c 'ENV LANG=C.UTF-8' - "$BASE_IMAGE" >/dev/null
log "built $BASE_IMAGE"
