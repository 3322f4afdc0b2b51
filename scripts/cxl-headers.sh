#!/bin/bash
# The CXL core's private headers for building kernel/cxl/ (cxl_pmem.ko):
# drivers/cxl/{cxl,cxlmem,cxlpci}.h of
# Debian's linux-source-6.1.  linux-headers does not ship them, and the
# CXL core they describe (cxl_core, cxl_port) is built into Debian's
# kernel: the structures cxl_pmem shares with it (bridge, nvdimm and
# pmem-region devices, the mailbox) must be the kernel's own.  They are
# unpacked into the cache at build time, never committed, never copied
# into the tree.
#
#   scripts/cxl-headers.sh          prints the include directory
#
# Cache: ${LIBNVDIMM_CACHE:-$HOME/.cache/libnvdimm}/cxl-headers-<srcversion>/
# (include/ with the headers, .complete written last).  The tarball comes
# from the package linux-source-6.1 (/usr/src/linux-source-6.1.tar.xz),
# installed with apt-get when missing, as scripts/upstream-mock.sh and
# scripts/debug-kernel.sh do (CXL_SRC_TARBALL overrides the path; a test
# of the failure sets CXL_NO_INSTALL=1).  Exits 1 with the reason on
# stderr when the headers cannot be had.
set -euo pipefail

CACHE=${LIBNVDIMM_CACHE:-$HOME/.cache/libnvdimm}
SRCPKG=linux-source-6.1
TARBALL=${CXL_SRC_TARBALL:-/usr/src/$SRCPKG.tar.xz}
MEMBERS="drivers/cxl/cxl.h drivers/cxl/cxlmem.h drivers/cxl/cxlpci.h"

die() { echo "cxl-headers: error: $*" >&2; exit 1; }

if [ ! -f "$TARBALL" ] && [ -z "${CXL_NO_INSTALL:-}" ]; then
	SUDO=
	[ "$(id -u)" = 0 ] || SUDO=sudo
	echo "cxl-headers: installing $SRCPKG (apt-get; it only drops a tarball in /usr/src)" >&2
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get install -y -qq --no-install-recommends "$SRCPKG" > /dev/null >&2 ||
		die "apt-get install $SRCPKG failed"
fi
[ -f "$TARBALL" ] || die "$TARBALL missing (install $SRCPKG: the CXL core's private headers come from it)"
SRCVER=$(dpkg-query -W -f='${Version}' "$SRCPKG" 2>/dev/null || true)
[ -n "$SRCVER" ] || SRCVER=$(stat -c %Y "$TARBALL")
DIR=$CACHE/cxl-headers-$SRCVER

mkdir -p "$CACHE"
exec 9> "$DIR.lock"
flock 9
if [ ! -e "$DIR/.complete" ]; then
	rm -rf "$DIR"
	mkdir -p "$DIR/include"
	top=$(tar -tJf "$TARBALL" 2>/dev/null | head -n 1 | cut -d/ -f1) || true
	[ -n "$top" ] || die "$TARBALL unreadable"
	# shellcheck disable=SC2046
	tar -xJf "$TARBALL" -C "$DIR/include" --strip-components=3 \
		$(for m in $MEMBERS; do echo "$top/$m"; done) ||
		die "unpacking $MEMBERS from $TARBALL failed"
	for m in $MEMBERS; do
		[ -f "$DIR/include/${m##*/}" ] || die "$m not in $TARBALL"
	done
	echo "$SRCVER" > "$DIR/srcversion"
	touch "$DIR/.complete"
fi
echo "$DIR/include"
