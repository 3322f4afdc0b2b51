#!/bin/bash
# `make install` of the userspace, its manuals and its bash completion,
# checked in a temporary DESTDIR (TAP, final "N passed, N failed, N skipped").
#
#   install-check.sh [BUILD]
#
# BUILD is the userspace build root (default ../../build): `make -C
# userspace install` links the install variant there (build/stage/) and
# builds the manuals (build/man/).  Nothing is installed outside the
# temporary directory.  Expected values are literals of this file, the
# version script userspace/lib/libndctl.sym, fakesys.py's trees (as
# documented there) and tests/userspace/expected/ (ndctl 76.1's JSON).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
BUILD=${1:-$TOP/build}
PY=${PYTHON:-python3}
export NDCTL_NO_MODPROBE=1 LC_ALL=C.UTF-8
unset NDCTL_LOG NDCTL_SYSFS_ROOT NDCTL_DEV_ROOT

T=$(mktemp -d /tmp/ndctl-install-check.XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0; pass=0; failed=0; skipped=0
ok()   { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $*"; }
nok()  { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
diag() { sed 's/^/#   /' | head -n "${1:-20}"; }
# check DESC CMD...: ok when CMD succeeds
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }

echo "TAP version 13"

# The commands and the pages of this release: a new command must be
# added here, with its page (the checks below also find the ones missing).
COMMANDS="list create-namespace destroy-namespace enable-namespace
disable-namespace enable-region disable-region enable-dimm disable-dimm
read-labels write-labels zero-labels init-labels check-labels check-namespace
clear-errors inject-error inject-smart monitor start-scrub wait-scrub
setup-passphrase update-passphrase remove-passphrase freeze-security
sanitize-dimm wait-overwrite load-keys update-firmware activate-firmware"

# --------------------------------------------------------------- install
D=$T/root
P=usr/local
if make --no-print-directory -s -C "$TOP/userspace" BUILD="$BUILD" install \
		DESTDIR="$D" > "$T/install.log" 2>&1; then
	ok "make install DESTDIR=... (PREFIX default $P)"
else
	nok "make install failed"; diag 30 < "$T/install.log"
fi

# installed_list ROOT: "path" for files, "path -> target" for symlinks
installed_list() {
	(cd "$1" && find . ! -type d | sed 's#^\./##' | sort | while read -r f; do
		if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"; else echo "$f"; fi
	done)
}
expected_list() {	# PREFIX BINDIR LIBDIR (relative to DESTDIR)
	local p=$1 bin=$2 lib=$3 c
	{
		echo "$bin/nvt-ndctl"
		echo "$lib/libndctl-nvt.so -> libndctl-nvt.so.1"
		echo "$lib/libndctl-nvt.so.1 -> libndctl-nvt.so.1.0.0"
		echo "$lib/libndctl-nvt.so.1.0.0"
		echo "$lib/pkgconfig/libndctl-nvt.pc"
		echo "$p/include/ndctl-nvt/ndctl/libndctl.h"
		echo "$p/share/bash-completion/completions/nvt-ndctl"
		echo "$p/share/man/man1/nvt-ndctl.1"
		for c in $COMMANDS; do echo "$p/share/man/man1/nvt-ndctl-$c.1"; done
	} | sort
}
installed_list "$D" > "$T/got"
expected_list $P $P/bin $P/lib > "$T/want"
if diff -u "$T/want" "$T/got" > "$T/diff"; then
	ok "installed file list: $(wc -l < "$T/got") files and links, as expected"
else
	nok "installed file list differs"; diag 40 < "$T/diff"
fi
bad=$(cd "$D" && find . -type f \( -path "*/bin/*" -o -name "*.so.*" \) ! -perm 0755; \
	find . -type f ! -path "*/bin/*" ! -name "*.so.*" ! -perm 0644)
[ -z "$bad" ] && ok "modes: 0755 program and library, 0644 the rest" || nok "modes: $bad"

LIB=$D/$P/lib/libndctl-nvt.so.1.0.0
BIN=$D/$P/bin/nvt-ndctl
readelf -dW "$LIB" > "$T/lib.dyn" 2>&1
grep -q "(SONAME).*\[libndctl-nvt.so.1\]" "$T/lib.dyn" \
	&& ok "library soname libndctl-nvt.so.1" || nok "library soname: $(grep SONAME "$T/lib.dyn")"
readelf -dW "$BIN" > "$T/bin.dyn" 2>&1
if grep -q "(NEEDED).*\[libndctl-nvt.so.1\]" "$T/bin.dyn" \
		&& ! grep -q "(NEEDED).*\[libndctl.so" "$T/bin.dyn" \
		&& grep -q '(RUNPATH).*\[\$ORIGIN/../lib\]' "$T/bin.dyn"; then
	ok "nvt-ndctl needs libndctl-nvt.so.1 (not libndctl.so.N), RUNPATH \$ORIGIN/../lib"
else
	nok "nvt-ndctl's dynamic section"; grep -E "NEEDED|RUNPATH" "$T/bin.dyn" | diag
fi

# every name of the version script exported under its version node, and
# nothing else: LIBNDCTL_1 { global: a; b; local: *; }; LIBNDCTL_2 { ... }
awk '/\{/ { node = $1; g = 0; next } /\}/ { g = 0; next }
	/global:/ { g = 1; next } /local:/ { g = 0; next }
	g { gsub(/[ \t;]/, ""); if ($0 != "") print $0 "@@" node }' \
	"$TOP/userspace/lib/libndctl.sym" | sort > "$T/sym.want"
# defined global symbols; the version definitions (ABS LIBNDCTL_N) aside
readelf --dyn-syms -W "$LIB" | awk '$5 == "GLOBAL" && $7 != "UND" &&
	!($7 == "ABS" && $8 ~ /^LIBNDCTL_[0-9]+$/) { print $8 }' | sort > "$T/sym.got"
if [ "$(wc -l < "$T/sym.want")" -gt 200 ] && diff -u "$T/sym.want" "$T/sym.got" > "$T/diff"; then
	ok "symbol versions: the $(wc -l < "$T/sym.want") names of libndctl.sym, each under its node (LIBNDCTL_1..3)"
else
	nok "exported symbols differ from libndctl.sym ($(wc -l < "$T/sym.want") expected)"
	diag < "$T/diff"
fi

# ----------------------------------------------------- a program against it
cat > "$T/prog.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <ndctl/libndctl.h>

int main(void)
{
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	struct ndctl_dimm *dimm;
	struct ndctl_region *region;
	struct ndctl_namespace *ndns;
	int nb = 0, nd = 0, nr = 0, nn = 0;
	Dl_info info;

	if (ndctl_new(&ctx))
		return 1;
	ndctl_bus_foreach(ctx, bus) {
		nb++;
		ndctl_dimm_foreach(bus, dimm)
			nd++;
		ndctl_region_foreach(bus, region) {
			nr++;
			ndctl_namespace_foreach(region, ndns)
				nn++;
		}
	}
	if (!dladdr((void *)ndctl_new, &info) || !info.dli_fname)
		return 2;
	printf("libndctl-nvt %s from %s\n", LIBNDCTL_NVT_VERSION, info.dli_fname);
	printf("buses %d dimms %d regions %d namespaces %d\n", nb, nd, nr, nn);
	ndctl_unref(ctx);
	return 0;
}
EOF
export PKG_CONFIG_PATH=$D/$P/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D
flags=$(pkg-config --cflags --libs libndctl-nvt 2> "$T/pc.err")
pcver=$(pkg-config --modversion libndctl-nvt 2>> "$T/pc.err")
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
if [ "$pcver" = 1.0.0 ] && [[ " $flags " == *" -I$D/$P/include/ndctl-nvt "* ]] \
		&& [[ " $flags " == *" -L$D/$P/lib "* && " $flags " == *" -lndctl-nvt "* ]]; then
	ok "pkg-config libndctl-nvt 1.0.0: $flags"
else
	nok "pkg-config libndctl-nvt: version '$pcver', flags '$flags'"; diag < "$T/pc.err"
fi
# shellcheck disable=SC2086
if gcc -Wall -Werror -DLIBNDCTL_NVT_VERSION="\"$pcver\"" -o "$T/prog" "$T/prog.c" \
		$flags -ldl > "$T/cc.log" 2>&1; then
	ok "a program builds with \$(pkg-config --cflags --libs libndctl-nvt)"
else
	nok "building against the installed library failed"; diag < "$T/cc.log"
fi
readelf -dW --dyn-syms "$T/prog" > "$T/prog.dyn" 2>&1
grep -q "(NEEDED).*\[libndctl-nvt.so.1\]" "$T/prog.dyn" \
	&& grep -q "ndctl_new@LIBNDCTL_1" "$T/prog.dyn" \
	&& ok "it needs libndctl-nvt.so.1 and binds ndctl_new@LIBNDCTL_1" \
	|| nok "the program's dynamic section: $(grep -E 'NEEDED|ndctl_new' "$T/prog.dyn" | tr '\n' ' ')"
$PY "$HERE/fakesys.py" "$T/nt" nfit_test-blk || nok "fakesys nfit_test-blk"
NDCTL_SYSFS_ROOT=$T/nt/sys LD_LIBRARY_PATH=$D/$P/lib "$T/prog" > "$T/prog.out" 2>&1
rc=$?
# nfit_test-blk: nfit_test.0 (nmem0-3, region0-5, 9 namespace devices)
# and nfit_test.1 (region6, namespace6.0)
if [ $rc = 0 ] && grep -qx "libndctl-nvt 1.0.0 from $D/$P/lib/libndctl-nvt.so.1" "$T/prog.out" \
		&& grep -qx "buses 2 dimms 4 regions 7 namespaces 10" "$T/prog.out"; then
	ok "it runs (LD_LIBRARY_PATH into DESTDIR): $(tr '\n' ';' < "$T/prog.out")"
else
	nok "the program: exit $rc"; diag < "$T/prog.out"
fi

# ------------------------------------------------------ the installed ndctl
run() {	# run ROOT ARGS...: the installed nvt-ndctl, no LD_LIBRARY_PATH
	local root=$1; shift
	NDCTL_SYSFS_ROOT=$root/sys NDCTL_DEV_ROOT=$root/dev "$BIN" "$@" > "$T/out" 2> "$T/err"
	rc=$?
}
run "$T/nt" --version
[ $rc = 0 ] && [ "$(cat "$T/out")" = 1.0 ] && ok "nvt-ndctl --version: 1.0 (RUNPATH finds its library)" \
	|| nok "nvt-ndctl --version: exit $rc, '$(cat "$T/out" "$T/err")'"
$PY "$HERE/fakesys.py" "$T/nt0" nfit_test || nok "fakesys nfit_test"
run "$T/nt0" list -R
if [ $rc = 0 ] && $PY "$HERE/jsoncmp.py" "$HERE/expected/nfit_test@-R.json" "$T/out" > "$T/diff"; then
	ok "nvt-ndctl list -R on nfit_test matches ndctl 76.1's JSON"
else
	nok "nvt-ndctl list -R: exit $rc"; diag < "$T/diff"
fi

# help: the synopsis, under the name it was invoked as
for c in $COMMANDS; do
	run "$T/nt" help "$c"; cp "$T/out" "$T/help1"; rc1=$rc
	run "$T/nt" "$c" --help
	if [ $rc1 = 0 ] && [ $rc = 0 ] && cmp -s "$T/help1" "$T/out" \
			&& grep -q "^ usage: nvt-ndctl $c" "$T/out"; then
		ok "nvt-ndctl help $c = $c --help: $(grep usage: "$T/out" | sed 's/^ *//')"
	else
		nok "nvt-ndctl help $c (exit $rc1) and $c --help (exit $rc) differ or lack 'usage: nvt-ndctl $c'"
	fi
done
run "$T/nt" help
[ $rc = 0 ] && grep -q "usage: nvt-ndctl \[--version\] \[--help\] COMMAND" "$T/out" \
	&& ok "nvt-ndctl help: the command list" || nok "nvt-ndctl help: exit $rc"

# ---------------------------------------------------------------- manuals
MAN=$D/$P/share/man/man1
# accepted_options CMD: every option the parser of CMD accepts, probed:
# each long option any command declares and each letter, given an argument
# (run in a subshell of its own: it changes directory)
accepted_options() {
	local o l err=$T/probe/$1.err
	cd "$T/probe" || return
	for o in $(grep -ho '{ "[a-z0-9-]*", *[a-z_]*_argument' "$TOP"/userspace/ndctl/*.c |
			sed 's/{ "\([a-z0-9-]*\)".*/\1/' | sort -u); do
		NDCTL_SYSFS_ROOT=$T/empty "$BIN" "$1" "--$o" xx > /dev/null 2> "$err"
		grep -q "invalid option or missing argument" "$err" || printf '%s\n' "--$o"
	done
	for l in {a..z} {A..Z} {0..9}; do
		NDCTL_SYSFS_ROOT=$T/empty "$BIN" "$1" "-$l" xx > /dev/null 2> "$err"
		grep -q "invalid option or missing argument" "$err" || printf '%s\n' "-$l"
	done
}
mkdir -p "$T/probe" "$T/empty"
for c in $COMMANDS; do (accepted_options "$c" > "$T/acc.$c") & done
wait
# section NAME SECTION: one section of the page NAME as man -l rendered it
section() {
	awk -v s="$2" '/^[A-Z]/ { on = ($0 == s); next } on' "$T/txt/$1"
}
"$BIN" --help > "$T/cmds" 2>&1
listed=$(sed -n '/Commands:/,/^$/p' "$T/cmds" | awk 'NR > 1 && NF { print $1 }' | tr '\n' ' ')
[ "$(echo $listed)" = "$(echo $COMMANDS)" ] && ok "nvt-ndctl --help lists the $(echo $COMMANDS | wc -w) commands" \
	|| nok "nvt-ndctl --help lists '$listed'"
mkdir -p "$T/txt"
for page in "$MAN"/*.1; do
	name=${page##*/}; name=${name%.1}
	MANWIDTH=80 man --warnings -l "$page" > "$T/txt/$name" 2> "$T/man.err"
	rc=$?
	groff -man -Tutf8 -ww -z "$page" 2>> "$T/man.err"
	missing=
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS EXAMPLES "EXIT STATUS"; do
		grep -qx "$s" "$T/txt/$name" || missing="$missing $s"
	done
	if [ $rc = 0 ] && [ ! -s "$T/man.err" ] && [ -z "$missing" ] \
			&& grep -q "^       $name - " "$T/txt/$name"; then
		ok "man -l $name.1 renders without warnings, all sections"
	else
		nok "man -l $name.1: exit $rc, missing:${missing:-none}"; diag < "$T/man.err"
	fi
done
check "man finds the pages through MANPATH" \
	test "$(MANPATH=$D/$P/share/man man -w nvt-ndctl-create-namespace 2> /dev/null)" \
	= "$MAN/nvt-ndctl-create-namespace.1"
for c in $COMMANDS; do
	page=$MAN/nvt-ndctl-$c.1
	if [ ! -f "$page" ]; then nok "no page for $c"; continue; fi
	cp "$T/acc.$c" "$T/acc"
	section "nvt-ndctl-$c" OPTIONS > "$T/opts.txt"
	"$BIN" "$c" --help > "$T/help.txt" 2>&1
	miss=; nohelp=
	while read -r o; do
		grep -qE -- "(^|[^[:alnum:]-])$o([^[:alnum:]-]|$)" "$T/opts.txt" || miss="$miss $o"
		grep -qE -- "(^|[^[:alnum:]-])$o([^[:alnum:]-]|$)" "$T/help.txt" || nohelp="$nohelp $o"
	done < "$T/acc"
	# every option the page documents is accepted, too
	extra=$(grep -oE -- "(^|[ ,])--?[[:alnum:]][[:alnum:]-]*" "$T/opts.txt" | sed 's/^[ ,]*//' |
		sort -u | grep -vxF -f "$T/acc")
	usage=$(grep "usage:" "$T/help.txt" | sed 's/^ *usage: *//')
	syn=$(section "nvt-ndctl-$c" SYNOPSIS | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
	if [ "$(wc -l < "$T/acc")" -ge 4 ] && [ -z "$miss$nohelp" ] && [ -z "$extra" ] \
			&& [[ " $syn " == *" $usage "* ]]; then
		ok "$c: the $(wc -l < "$T/acc") options its parser accepts are in its page and --help; synopsis '$usage'"
	else
		nok "$c: not in the page:${miss:- none}; not in --help:${nohelp:- none}; in the page only: $(printf '%s ' $extra); synopsis '$syn' vs usage '$usage'"
	fi
done
section nvt-ndctl COMMANDS > "$T/cmds.txt"
miss=
for c in $COMMANDS; do grep -qw -- "$c" "$T/cmds.txt" || miss="$miss $c"; done
[ -z "$miss" ] && grep -q -- "--version" "$MAN/nvt-ndctl.1" \
	&& ok "nvt-ndctl.1 names every command, --help and --version" || nok "nvt-ndctl.1 lacks:$miss"

# ------------------------------------------------------- bash completion
COMP=$D/$P/share/bash-completion/completions/nvt-ndctl
cat > "$T/comp.sh" <<EOF
PATH=$D/$P/bin:\$PATH
NDCTL_SYSFS_ROOT=$T/nt/sys
source "$COMP" || exit 1
complete -p nvt-ndctl | grep -q -- "-F _nvt_ndctl" || echo "not registered"
# c WORD...: complete the last word of "WORD..."
c() {
	COMP_WORDS=("\$@"); COMP_CWORD=\$((\${#COMP_WORDS[@]} - 1))
	COMPREPLY=(); _nvt_ndctl
	printf '%s\n' "\${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ \$//'; echo
}
EOF
# comp WANT WORD...: the completions of the last word, sorted, must be WANT
comp() {
	local want=$1 got; shift
	got=$(bash -c "source '$T/comp.sh' && c $(printf '%q ' "$@")" 2>&1)
	if [ "$got" = "$want" ]; then ok "complete '$*' -> $want"
	else nok "complete '$*': got '$got', want '$want'"; fi
}
sorted() { tr ' ' '\n' | grep . | sort | tr '\n' ' ' | sed 's/ $//'; }
comp "$(echo $COMMANDS help version | sorted)" nvt-ndctl ""
comp "disable-dimm disable-namespace disable-region" nvt-ndctl dis
comp "--help --version" nvt-ndctl --
comp "create-namespace" nvt-ndctl help cr
comp "$(sorted < "$T/acc.list")" nvt-ndctl list -
comp "$(grep -- -- "$T/acc.create-namespace" | sorted)" nvt-ndctl create-namespace --
comp "--bus --help --offset --size --verbose" nvt-ndctl zero-labels --
comp "--bus --help --verbose" nvt-ndctl check-labels --
comp "all ndbus0 ndbus1 nfit_test.0 nfit_test.1" nvt-ndctl list -b ""
comp "nfit_test.0 nfit_test.1" nvt-ndctl list --bus = nfit
comp "all region0 region1 region2 region3 region4 region5 region6" nvt-ndctl list --region ""
comp "all nmem0 nmem1 nmem2 nmem3" nvt-ndctl read-labels ""
comp "nmem0 nmem1 nmem2 nmem3" nvt-ndctl zero-labels -b 0 nmem
comp "all namespace2.0 namespace3.0 namespace4.0 namespace6.0" nvt-ndctl destroy-namespace -f ""
comp "namespace2.0 namespace3.0 namespace4.0 namespace6.0" nvt-ndctl create-namespace -e ""
comp "all region0 region1 region2 region3 region4 region5 region6" nvt-ndctl enable-region ""
comp "devdax fsdax raw sector" nvt-ndctl create-namespace -m ""
comp "dev mem" nvt-ndctl create-namespace --map ""
comp "1.1 1.2" nvt-ndctl init-labels -V ""
comp "blk pmem" nvt-ndctl disable-region -t ""
comp "" nvt-ndctl list ""

# -------------------------------------------- other directories, uninstall
D2=$T/root2
if make --no-print-directory -s -C "$TOP/userspace" BUILD="$BUILD" install DESTDIR="$D2" \
		PREFIX=/usr LIBDIR=/usr/lib/x86_64-linux-gnu BINDIR=/usr/sbin \
		MANDIR=/usr/share/man > "$T/install2.log" 2>&1; then
	installed_list "$D2" > "$T/got"
	expected_list usr usr/sbin usr/lib/x86_64-linux-gnu > "$T/want"
	if diff -u "$T/want" "$T/got" > "$T/diff" \
			&& grep -qx "libdir=/usr/lib/x86_64-linux-gnu" "$D2/usr/lib/x86_64-linux-gnu/pkgconfig/libndctl-nvt.pc" \
			&& readelf -dW "$D2/usr/sbin/nvt-ndctl" | grep -q '(RUNPATH).*\[\$ORIGIN/../lib/x86_64-linux-gnu\]' \
			&& [ "$("$D2/usr/sbin/nvt-ndctl" --version 2>&1)" = 1.0 ]; then
		ok "PREFIX=/usr LIBDIR=.../x86_64-linux-gnu BINDIR=/usr/sbin: files, pkg-config libdir, RUNPATH"
	else
		nok "install with other directories"; diag 40 < "$T/diff"
	fi
	make --no-print-directory -s -C "$TOP/userspace" BUILD="$BUILD" uninstall DESTDIR="$D2" \
		PREFIX=/usr LIBDIR=/usr/lib/x86_64-linux-gnu BINDIR=/usr/sbin \
		MANDIR=/usr/share/man > "$T/uninstall2.log" 2>&1
	[ -z "$(installed_list "$D2")" ] && ok "make uninstall with the same directories removes it all" \
		|| nok "left after uninstall: $(installed_list "$D2" | tr '\n' ' ')"
else
	nok "make install with other directories failed"; diag 30 < "$T/install2.log"
fi
touch "$D/$P/bin/someone-elses"
if make --no-print-directory -s -C "$TOP/userspace" BUILD="$BUILD" uninstall \
		DESTDIR="$D" > "$T/uninstall.log" 2>&1 \
		&& [ "$(installed_list "$D")" = "$P/bin/someone-elses" ] \
		&& [ ! -e "$D/$P/include/ndctl-nvt" ]; then
	ok "make uninstall removes every installed file and include/ndctl-nvt, nothing else"
else
	nok "make uninstall: left $(installed_list "$D" | tr '\n' ' ')"; diag < "$T/uninstall.log"
fi

echo "1..$n"
echo "$pass passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
