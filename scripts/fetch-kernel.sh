#!/bin/bash
# Fetch one of Debian 12's 6.1 kernels (image + headers + kbuild) with
# `apt-get download` and unpack it with `dpkg -x` into a cache outside git.
# Nothing is installed on the host, nothing goes to /boot or /lib/modules.
# Writes build/kernel.mk (or OUT_MK) for the top-level Makefile.
#
# Environment:
#   LIBNVDIMM_CACHE  cache root (default $HOME/.cache/libnvdimm)
#   KFLAVOUR         amd64 (default), cloud-amd64 or rt-amd64 (PREEMPT_RT):
#                    the current ABI of linux-image-$KFLAVOUR
#   KVER             force a kernel ABI (e.g. 6.1.0-47-amd64, an older one
#                    still in the archive) instead of resolving the meta
#                    package; its suffix gives the flavour
#   OUT_MK           where to write the make fragment (default build/kernel.mk)
set -euo pipefail

CACHE=${LIBNVDIMM_CACHE:-$HOME/.cache/libnvdimm}
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT_MK=${OUT_MK:-$TOP/build/kernel.mk}

say() { echo "fetch: $*"; }
die() { echo "fetch: error: $*" >&2; exit 1; }

if [ -n "${KVER:-}" ]; then
	case $KVER in
	*-rt-amd64) KFLAVOUR=rt-amd64;;
	*-cloud-amd64) KFLAVOUR=cloud-amd64;;
	*-amd64) KFLAVOUR=amd64;;
	esac
fi
KFLAVOUR=${KFLAVOUR:-amd64}
case $KFLAVOUR in
amd64|cloud-amd64|rt-amd64) ;;
*) die "unknown KFLAVOUR '$KFLAVOUR' (amd64, cloud-amd64 or rt-amd64)";;
esac

# --- resolve the ABI of Debian's current kernel of that flavour ---------------
resolve_kver() {
	# "Depends: linux-image-6.1.0-57-amd64" of the candidate meta package
	apt-cache depends "linux-image-$KFLAVOUR" 2>/dev/null |
		sed -n "s/^ *Depends: linux-image-\([0-9][0-9.]*-[0-9]*-$KFLAVOUR\)\$/\1/p" |
		head -n1
}

if [ -z "${KVER:-}" ]; then
	KVER=$(resolve_kver || true)
	if [ -z "$KVER" ] && [ "$(id -u)" = 0 ]; then
		say "apt lists look empty, running apt-get update"
		apt-get update -qq >/dev/null || true
		KVER=$(resolve_kver || true)
	fi
	if [ -z "$KVER" ]; then
		# offline: newest complete cache entry
		KVER=$(ls -1d "$CACHE"/*/.complete 2>/dev/null | sed 's#/.complete$##; s#.*/##' |
			grep -E "^[0-9.]+-[0-9]+-$KFLAVOUR\$" | sort -V | tail -n1 || true)
		[ -n "$KVER" ] || die "cannot resolve linux-image-$KFLAVOUR (apt-cache) and no cached kernel"
		say "apt-cache unavailable, using cached $KVER"
	fi
fi
[[ $KVER =~ ^[0-9]+\.[0-9]+\.[0-9]+-[0-9]+-$KFLAVOUR$ ]] ||
	die "unexpected kernel ABI '$KVER' (flavour $KFLAVOUR)"
ABI=${KVER%-"$KFLAVOUR"}                 # 6.1.0-57
MAJMIN=$(echo "$KVER" | cut -d. -f1,2)   # 6.1
# the headers shared by the flavours: linux-headers-6.1.0-57-common, for
# PREEMPT_RT its own linux-headers-6.1.0-57-common-rt
COMMON=linux-headers-$ABI-common
[ "$KFLAVOUR" = rt-amd64 ] && COMMON=$COMMON-rt

DIR=$CACHE/$KVER
ROOT=$DIR/root
KDIR=$ROOT/usr/src/linux-headers-$KVER
KHDR_COMMON=$ROOT/usr/src/$COMMON
VMLINUZ=$ROOT/boot/vmlinuz-$KVER
STOCK_MODDIR=$ROOT/lib/modules/$KVER

if [ ! -e "$DIR/.complete" ]; then
	command -v apt-get >/dev/null || die "apt-get not found (Debian 12 required)"
	command -v depmod >/dev/null || die "depmod not found (apt-get install kmod)"
	say "downloading linux-image-$KVER + headers into $DIR"
	rm -rf "$DIR.tmp"
	mkdir -p "$DIR.tmp/debs"
	# _apt cannot write into root-owned private dirs; download as-is and
	# silence the harmless "unsandboxed" warning.
	pkgs="linux-image-$KVER linux-headers-$KVER $COMMON linux-kbuild-$MAJMIN"
	( cd "$DIR.tmp/debs" && apt-get download -q $pkgs 2>&1 |
		grep -v -e 'unsandboxed' -e '^Get:' || true )
	for p in $pkgs; do
		ls "$DIR.tmp/debs/${p}_"*.deb >/dev/null 2>&1 || die "apt-get download $p failed"
	done
	say "unpacking (dpkg -x)"
	mkdir -p "$DIR.tmp/root"
	for deb in "$DIR.tmp/debs"/*.deb; do
		dpkg -x "$deb" "$DIR.tmp/root"
	done
	# versions, for the record
	for deb in "$DIR.tmp/debs"/*.deb; do
		dpkg-deb -f "$deb" Package Version | paste -sd' '
	done > "$DIR.tmp/versions"
	# The -amd64 headers Makefile includes the -common tree by absolute path.
	hk=$DIR.tmp/root/usr/src/linux-headers-$KVER
	sed -i "s#^include /usr/src/$COMMON/Makefile#include $KHDR_COMMON/Makefile#" "$hk/Makefile"
	grep -q "^include $KHDR_COMMON/Makefile" "$hk/Makefile" ||
		die "could not rewrite include in $hk/Makefile: $(cat "$hk/Makefile")"
	# The image ships no modules.dep: generate it (used to compute the
	# dependency closure of the modules copied into the guest).
	depmod -b "$DIR.tmp/root" "$KVER"
	rm -rf "$DIR.tmp/debs"          # keep only the unpacked tree
	rm -rf "$DIR"
	mv "$DIR.tmp" "$DIR"
	# the Makefile rewrite named the final path already; check it resolves
	[ -f "$KHDR_COMMON/Makefile" ] || die "missing $KHDR_COMMON/Makefile"
	touch "$DIR/.complete"
	say "kernel $KVER ready in $DIR"
else
	say "kernel $KVER (cached in $DIR)"
fi

[ -f "$VMLINUZ" ] || die "missing $VMLINUZ"

# The uncompressed ELF vmlinux boots through QEMU's PVH entry and saves
# ~3 s per TCG boot (no xz decompression in the emulated guest).
VMLINUX=$DIR/vmlinux
if [ ! -s "$VMLINUX" ]; then
	# (no xz stream: cloud-amd64's image is LZ4; the bzImage boots then)
	off=$(LC_ALL=C grep -aboP '\xfd7zXZ\x00' "$VMLINUZ" | head -n1 | cut -d: -f1 || true)
	# (process substitution: tail gets SIGPIPE when xz stops after the
	# stream, which pipefail would count as a failure)
	if [ -n "$off" ] &&
		xz -dc --single-stream < <(tail -c +$((off + 1)) "$VMLINUZ") > "$VMLINUX.tmp" 2>/dev/null &&
		[ "$(head -c 4 "$VMLINUX.tmp" | od -An -c | tr -d ' ')" = '177ELF' ]; then
		mv "$VMLINUX.tmp" "$VMLINUX"
	else
		rm -f "$VMLINUX.tmp"
		say "could not extract vmlinux from $VMLINUZ, booting the bzImage"
		VMLINUX=
	fi
fi
[ -f "$KHDR_COMMON/include/acpi/actbl1.h" ] || die "missing actbl1.h in $KHDR_COMMON"
[ -f "$STOCK_MODDIR/modules.dep" ] || die "missing $STOCK_MODDIR/modules.dep"

mkdir -p "$(dirname "$OUT_MK")"
tmp=$OUT_MK.tmp
cat > "$tmp" <<EOF
# generated by scripts/fetch-kernel.sh -- do not edit
KVER := $KVER
KFLAVOUR := $KFLAVOUR
KDIR := $KDIR
KHDR_COMMON := $KHDR_COMMON
VMLINUZ := $VMLINUZ
VMLINUX := $VMLINUX
STOCK_MODDIR := $STOCK_MODDIR
KERNEL_CACHE := $DIR
EOF
if cmp -s "$tmp" "$OUT_MK"; then rm -f "$tmp"; else mv "$tmp" "$OUT_MK"; fi
