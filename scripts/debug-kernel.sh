#!/bin/bash
# Build the debug kernel of the debug-kernel test tier (docs/debug-tier.md):
# Debian's linux-source-6.1, `make tinyconfig` + vm/debug.config merged with
# the kernel's own scripts/kconfig/merge_config.sh + `make olddefconfig`,
# every option of the fragment verified, bzImage + modules built, modules
# installed into a Debian-style tree.  Nothing is installed on the host
# except the build's Debian packages; the kernel is only booted in QEMU.
#
# Cache (outside git), keyed by the source package version and the hash of
# the fragment (+ this script's recipe number):
#   ${LIBNVDIMM_CACHE:-$HOME/.cache/libnvdimm}/debug-<srcversion>-<hash>/
# (hash: sha256 of RECIPE below + the fragment's option lines, 12 digits)
#       src/                    configured and built kernel tree (KDIR)
#       root/boot/vmlinuz-KVER  bzImage (VMLINUZ)
#       root/lib/modules/KVER/  modules_install tree (STOCK_MODDIR)
#       build.log config.log    logs of the last build
#       .complete               written last; a warm run only checks it
# An interrupted build resumes (make is incremental) on the next run.
#
# Writes build/kernel-debug.mk (KVER KDIR KHDR_COMMON VMLINUZ VMLINUX
# STOCK_MODDIR DEBUG_KERNEL_CACHE) for the top-level Makefile's check-debug
# target: the same variables as build/kernel.mk, so each of them replaces
# the stock kernel's.
#
# --deps: only install the missing build dependencies (Debian packages),
# then exit (.ci/run does this before it starts the build in the background
# next to `make check`: apt-get cannot run twice at once).
#
# Environment:
#   LIBNVDIMM_CACHE  cache root (default $HOME/.cache/libnvdimm)
#   DEBUG_CONFIG     fragment (default vm/debug.config)
#   OUT_MK           make fragment to write (default build/kernel-debug.mk)
#   JOBS             parallel jobs (default: number of CPUs)
set -euo pipefail

# Bump when the steps below change in a way that changes the built kernel.
RECIPE=2

TOP=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${LIBNVDIMM_CACHE:-$HOME/.cache/libnvdimm}
FRAG=${DEBUG_CONFIG:-$TOP/vm/debug.config}
OUT_MK=${OUT_MK:-$TOP/build/kernel-debug.mk}
JOBS=${JOBS:-$(nproc)}
SRCPKG=linux-source-6.1
TARBALL=/usr/src/$SRCPKG.tar.xz

say() { echo "debug-kernel: $*"; }
die() { echo "debug-kernel: error: $*" >&2; exit 1; }
now() { date +%s; }

[ -f "$FRAG" ] || die "no config fragment $FRAG"

# --- build dependencies (Debian packages; installed only when missing) -----
need=(make gcc bc flex bison libelf-dev perl xz-utils kmod "$SRCPKG")
missing=()
for p in "${need[@]}"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case $st in *" installed") ;; *) missing+=("$p");; esac
done
if [ ${#missing[@]} -gt 0 ]; then
	say "installing ${missing[*]} (apt-get; $SRCPKG only drops a tarball in /usr/src)"
	SUDO=
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || die "need root to install ${missing[*]}"
		SUDO=sudo
	fi
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq
	$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ -f "$TARBALL" ] || die "$TARBALL missing after installing $SRCPKG"
[ "${1:-}" = --deps ] && { say "build dependencies present"; exit 0; }

SRCVER=$(dpkg-query -W -f='${Version}' "$SRCPKG")
# the key covers the option lines only: editing comments rebuilds nothing
HASH=$( { echo "recipe $RECIPE"; grep -E '^(CONFIG_|# CONFIG_.* is not set)' "$FRAG"; } |
	sha256sum | cut -c1-12)
DIR=$CACHE/debug-$SRCVER-$HASH
SRC=$DIR/src

# one lock per cache entry: a run that finds its kernel built does not
# wait for the build of another configuration
mkdir -p "$CACHE"
exec 9> "$DIR.lock"
if ! flock -n 9; then
	say "another build holds $DIR.lock, waiting"
	flock 9
fi

# verify_config FRAGMENT CONFIG: every option of the fragment holds
verify_config() {
	local line opt want got bad=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) opt=${line%%=*}; want=$line ;;
		"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}; want= ;;
		*) continue ;;
		esac
		got=$(grep -E "^($opt=|# $opt is not set\$)" "$2" || true)
		if [ -z "$want" ]; then
			case $got in
			"" | "# $opt is not set") ;;
			*) echo "  $opt: wanted off, got '$got'"; bad=1 ;;
			esac
		elif [ "$got" != "$want" ]; then
			echo "  $opt: wanted '$want', got '${got:-absent (dependency missing?)}'"
			bad=1
		fi
	done < "$1"
	return $bad
}

if [ -e "$DIR/.complete" ]; then
	say "cached $DIR"
else
	t0=$(now)
	say "cold build into $DIR"
	if [ ! -e "$SRC/.unpacked" ]; then
		say "unpacking $TARBALL ($SRCPKG $SRCVER)"
		rm -rf "$DIR"
		mkdir -p "$SRC"
		tar -xJf "$TARBALL" -C "$SRC" --strip-components=1
		touch "$SRC/.unpacked"
	fi
	# kmemleak must not scan the KASAN shadow: x86's kasan_init takes it
	# from memblock with kmemleak tracking (MEMBLOCK_ALLOC_ACCESSIBLE), and
	# memblock blocks are gray objects, so every scan read the shadow of
	# the guest's RAM (128 MiB for 1 GiB) word by word, bytes that never
	# hold a pointer (at best false references hiding a leak): ~3.6 s of
	# QEMU CPU per boot's scan pair.  MEMBLOCK_ALLOC_NOLEAKTRACE is the
	# memblock limit that skips kmemleak (mm/memblock.c names kasan_init
	# as its use); the allocation is otherwise the same.
	kasan_c=$SRC/arch/x86/mm/kasan_init_64.c
	sed -i 's/__pa(MAX_DMA_ADDRESS), MEMBLOCK_ALLOC_ACCESSIBLE, nid);/__pa(MAX_DMA_ADDRESS), MEMBLOCK_ALLOC_NOLEAKTRACE, nid);/' "$kasan_c"
	grep -q 'MEMBLOCK_ALLOC_NOLEAKTRACE, nid);' "$kasan_c" ||
		die "$kasan_c: early_alloc() not as expected, cannot exempt the KASAN shadow from kmemleak"
	if [ ! -e "$SRC/.configured" ]; then
		say "configuring: tinyconfig + $(basename "$FRAG") (merge_config.sh) + olddefconfig"
		cp "$FRAG" "$DIR/debug.config"
		{
			make -C "$SRC" tinyconfig
			( cd "$SRC" && scripts/kconfig/merge_config.sh -m .config "$DIR/debug.config" )
			make -C "$SRC" olddefconfig
		} > "$DIR/config.log" 2>&1 || { tail -n 30 "$DIR/config.log"; die "configuration failed (log $DIR/config.log)"; }
		if ! verify_config "$FRAG" "$SRC/.config" > "$DIR/verify.log"; then
			cat "$DIR/verify.log" >&2
			die "options of $(basename "$FRAG") not in the final .config (see above; merge_config warnings in $DIR/config.log)"
		fi
		say "all $(grep -cE '^(CONFIG_|# CONFIG_.* is not set)' "$FRAG") options of $(basename "$FRAG") verified in .config"
		touch "$SRC/.configured"
	fi
	say "building bzImage + modules (-j$JOBS; about 6-8 min cold on 2 cores), log $DIR/build.log"
	if ! make -C "$SRC" -j"$JOBS" bzImage modules > "$DIR/build.log" 2>&1; then
		grep -E 'error|Error' "$DIR/build.log" | head -n 20 >&2 || true
		tail -n 20 "$DIR/build.log" >&2
		die "kernel build failed (log $DIR/build.log)"
	fi
	KVER=$(make -s -C "$SRC" kernelrelease)
	say "installing modules of $KVER into $DIR/root"
	rm -rf "$DIR/root"
	make -C "$SRC" modules_install INSTALL_MOD_PATH="$DIR/root" >> "$DIR/build.log" 2>&1 ||
		die "modules_install failed (log $DIR/build.log)"
	mkdir -p "$DIR/root/boot"
	cp "$SRC/arch/x86/boot/bzImage" "$DIR/root/boot/vmlinuz-$KVER"
	cp "$SRC/.config" "$DIR/root/boot/config-$KVER"
	# the modules_install tree points back at the build tree
	rm -f "$DIR/root/lib/modules/$KVER/build" "$DIR/root/lib/modules/$KVER/source"
	echo "$KVER" > "$DIR/kver"
	touch "$DIR/.complete"
	say "built $KVER in $(( $(now) - t0 )) s"
fi

KVER=$(cat "$DIR/kver")
VMLINUZ=$DIR/root/boot/vmlinuz-$KVER
STOCK_MODDIR=$DIR/root/lib/modules/$KVER
# The harness boots VMLINUX when kernel.mk has one (the stock vmlinux, via
# QEMU's PVH entry); a KASAN kernel triple-faults on the PVH entry path
# (seen with this config: QEMU exits at once, no output), so the debug
# kernel's VMLINUX is its bzImage: it must be set, or the Makefile's
# exported stock VMLINUX would be booted with our debug-built modules.
VMLINUX=$VMLINUZ
[ -f "$VMLINUZ" ] || die "missing $VMLINUZ (rm -rf $DIR and retry)"
[ -f "$STOCK_MODDIR/modules.dep" ] || die "missing $STOCK_MODDIR/modules.dep"
[ -f "$SRC/Module.symvers" ] || die "missing $SRC/Module.symvers (external modules cannot build)"
# the guest's /out share must be built in (nvt.py copies no module for it)
for m in virtio_pci 9pnet_virtio 9p; do
	grep -q "/$m.ko\$" "$STOCK_MODDIR/modules.builtin" ||
		die "$m is not built in ($STOCK_MODDIR/modules.builtin): fix $FRAG"
done

others=$(ls -1d "$CACHE"/debug-* 2>/dev/null | grep -vxF "$DIR" || true)
if [ -n "$others" ]; then
	say "older debug builds in the cache (rm -rf them to reclaim space):"
	for o in $others; do say "  $o ($(du -sh "$o" 2>/dev/null | cut -f1))"; done
fi

mkdir -p "$(dirname "$OUT_MK")"
tmp=$OUT_MK.tmp
cat > "$tmp" <<EOF
# generated by scripts/debug-kernel.sh -- do not edit
KVER := $KVER
KDIR := $SRC
KHDR_COMMON := $SRC
VMLINUZ := $VMLINUZ
VMLINUX := $VMLINUX
STOCK_MODDIR := $STOCK_MODDIR
DEBUG_KERNEL_CACHE := $DIR
EOF
if cmp -s "$tmp" "$OUT_MK"; then rm -f "$tmp"; else mv "$tmp" "$OUT_MK"; fi
say "kernel $KVER ready: $(realpath --relative-to="$TOP" "$OUT_MK" 2>/dev/null || echo "$OUT_MK")"
