#!/bin/bash
# Install the Debian 12 packages the build-and-boot loop needs, and only
# those that are missing.  apt-get update runs only if something must be
# installed.  Never installs a kernel image on the host.
set -euo pipefail

PKGS=(
	make gcc gcc-12 libc6-dev linux-libc-dev   # host tools, static guest tools
	kmod                                      # depmod for the guest module sets
	cpio gzip xz-utils busybox-static        # initramfs, vmlinux extraction
	rsync                                     # kernel/Makefile mirrors the sources
	pkg-config libjson-c-dev uuid-dev libkmod-dev  # libndctl + ndctl (userspace/)
	scdoc man-db                              # make man, and the pages' check (man -l)
	qemu-system-x86                           # the VM (TCG)
	ndctl                                     # 76.1: binary + libs copied into the guest
	daxctl e2fsprogs xfsprogs                 # DAX tests: daxctl, mkfs.ext4, mkfs.xfs (guest)
	fio                                       # make bench (guest)
	keyutils                                  # keyctl: security tests (guest)
	acpica-tools                              # iasl: the SSDT of the qemu platform's ACPI notifications (vm/acpi/)
	sparse                                    # make C=1
	python3 jq                                # harness, JSON comparison
	linux-source-6.1                          # checkpatch.pl, reference
	bc flex bison libelf-dev                  # the debug kernel (scripts/debug-kernel.sh)
	clang-14 libclang-rt-14-dev               # libFuzzer (tests/host: fuzz-smoke in host-check)
	coreutils util-linux                      # timeout, etc.
)

# --peer: only for `make check-peer` (docs/harness.md "The peer suite"):
# what ndctl v76.1's meson build with its tests needs, beyond the above
# (libtracefs, systemd, the docs are configured off), and the guest tools
# its scripts call that the base image lacks (bash, dd, jq, ... are there)
PEER_PKGS=(
	meson ninja-build                         # ndctl v76.1's build system
	libudev-dev libkeyutils-dev libiniparser-dev  # its libraries' headers
	parted uuid-runtime xxd                   # guest: rescan-partitions.sh, track-uuid.sh, btt-pad-compat.sh
)
if [ "${1:-}" = --peer ]; then
	PKGS=("${PEER_PKGS[@]}")
fi

missing=()
for p in "${PKGS[@]}"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case $st in *" installed") ;; *) missing+=("$p");; esac
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#PKGS[@]} packages present${1:+ ($1)}"
	exit 0
fi

echo "deps: installing ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
	command -v sudo >/dev/null || { echo "deps: need root to install ${missing[*]}" >&2; exit 1; }
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
