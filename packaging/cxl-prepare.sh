#!/bin/bash
# The CXL core's private headers for cxl_pmem in the DKMS package
# libnvdimm-dkms (installed as /usr/src/libnvdimm-VERSION/cxl-prepare.sh,
# beside dkms.conf, which runs it).  cxl_pmem shares structures (the
# bridge, nvdimm and pmem-region devices, the mailbox) with the CXL core
# built into the kernel; their layout is in drivers/cxl/{cxl,cxlmem,cxlpci}.h,
# which linux-headers does not ship.  They come from the kernel's own
# source, Debian's linux-source-X.Y (/usr/src/linux-source-X.Y.tar.xz),
# and only when that package's version is the kernel's: headers of another
# version could describe other structures than the running CXL core's.
#
#   cxl-prepare.sh check KDIR    prints "yes" (the kernel has the CXL core
#                                built in and its own source is installed:
#                                build cxl_pmem) or "no" (no CXL core: no
#                                cxl_pmem, nothing needed); exits 1 with the
#                                reason on stderr when the kernel has the
#                                CXL core but not its source
#   cxl-prepare.sh unpack KDIR   check, then the three headers into
#                                cxl/include/ beside this script (kept when
#                                already there from the same source); "no":
#                                removes cxl/include/
#
# KDIR is the kernel's build tree (DKMS's kernel_source_dir,
# /lib/modules/<kver>/build).  The kernel's version is Debian's package
# version in KDIR/include/generated/package.h (LINUX_PACKAGE_ID, e.g.
# " Debian 6.1.192-3"), the source's is dpkg's for linux-source-X.Y.
# CXL_SRC_TARBALL overrides the tarball's path (the package's tests).
set -u

here=$(cd "$(dirname "$0")" && pwd)
kdir=${2:-}
MEMBERS="drivers/cxl/cxl.h drivers/cxl/cxlmem.h drivers/cxl/cxlpci.h"

# the kernel's release (uname -r), for the messages
krel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h" 2>/dev/null)
krel=${krel:-$kdir}
version=$(cat "$here/VERSION" 2>/dev/null)

fail() {
	{
		echo "libnvdimm-dkms: $krel: $*."
		echo "libnvdimm-dkms: cxl_pmem must be built with the CXL headers of the kernel's own"
		echo "libnvdimm-dkms: source (it shares structures with the CXL core built into the"
		echo "libnvdimm-dkms: kernel), and without it the kernel's cxl_pmem could not load"
		echo "libnvdimm-dkms: against this libnvdimm: nothing of libnvdimm is built for"
		echo "libnvdimm-dkms: $krel; its stock modules stay in use."
		echo "libnvdimm-dkms: once that is fixed: dkms install libnvdimm/$version -k $krel"
	} >&2
	exit 1
}

# sets cxl (yes or no), and for yes pkg, tarball and source; fails
verdict() {
	cxl=no
	grep -qs '^CONFIG_CXL_BUS=y$' "$kdir/include/config/auto.conf" || return 0
	local majmin kver srcver
	majmin=$(sed -n 's/^\([0-9][0-9]*\.[0-9][0-9]*\)\..*/\1/p' <<< "$krel")
	pkg=linux-source-${majmin:-X.Y}
	tarball=${CXL_SRC_TARBALL:-/usr/src/$pkg.tar.xz}
	kver=$(sed -n 's/^#define LINUX_PACKAGE_ID " *Debian \([^ "]*\)"$/\1/p' \
		"$kdir/include/generated/package.h" 2>/dev/null)
	if [ -z "$kver" ] || [ -z "$majmin" ]; then
		fail "cannot tell which Debian source the kernel was built from (no Debian version in $kdir/include/generated/package.h); cxl_pmem is built only for Debian's kernels"
	fi
	srcver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null)
	if [ ! -f "$tarball" ] || [ -z "$srcver" ]; then
		fail "$pkg is not installed ($tarball missing): install it at the kernel's version, Debian $kver (apt-get install $pkg=$kver)"
	fi
	[ "$srcver" = "$kver" ] ||
		fail "$pkg is $srcver, but the kernel is Debian $kver: install $pkg at the kernel's version (apt-get install $pkg=$kver), or upgrade the kernel and $pkg together"
	source="$pkg $srcver $tarball"
	cxl=yes
}

case ${1:-} in
check)
	verdict
	echo $cxl
	;;
unpack)
	verdict
	inc=$here/cxl/include
	if [ $cxl != yes ]; then
		rm -rf "$inc"
		echo "cxl-prepare: $krel has no CXL core (CONFIG_CXL_BUS): no cxl_pmem"
		exit 0
	fi
	if [ "$(cat "$inc/.source" 2>/dev/null)" = "$source" ]; then
		echo "cxl-prepare: $MEMBERS of $source already in $inc"
		exit 0
	fi
	rm -rf "$inc"
	mkdir -p "$inc" || exit 1
	# Debian's tarball holds one directory, the package's name; tar
	# stops reading once it has the three (they are a third of the way in)
	# shellcheck disable=SC2046
	tar -xJf "$tarball" -C "$inc" --strip-components=3 --occurrence=1 \
		$(for m in $MEMBERS; do echo "$pkg/$m"; done) 2> "$inc/.tar.err"
	for m in $MEMBERS; do
		[ -s "$inc/${m##*/}" ] ||
			fail "$m is not in $tarball ($(head -n 1 "$inc/.tar.err")): reinstall $pkg (apt-get install --reinstall $pkg)"
	done
	rm -f "$inc/.tar.err"
	echo "$source" > "$inc/.source"
	echo "cxl-prepare: $MEMBERS of $source (the kernel's own) into $inc"
	;;
*)
	echo "usage: cxl-prepare.sh check|unpack KDIR" >&2
	exit 2
	;;
esac
