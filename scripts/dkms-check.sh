#!/bin/bash
# make deb-check: the libnvdimm-dkms package end to end, without touching
# the host's kernels: `make deb`, its file list, `dpkg -x` into a scratch
# root, DKMS's add/build/install there (--dkmstree, --sourcetree,
# --installtree; --no-depmod) for the kernel the harness fetched, whose
# stock module tree is staged in the scratch root; `depmod -b` resolves
# every module of ours to updates/dkms/ and no stock file went missing;
# no stock module that needs libnvdimm is left unable to load
# (tests/host/stock-consumers.py on what DKMS installed: cxl_pmem too, built
# with the CXL headers of the kernel's own source, so the host's
# linux-source-6.1 must be at the fetched kernel's version); bad input: that
# source missing, at another version, a kernel that is not Debian's, a
# tarball without the headers, a kernel without the CXL core;
# with a second kernel (DKMS_UPGRADE_MK), `dkms autoinstall` for it, as a
# kernel upgrade runs it.  BOOT=1 then boots the modules DKMS built in
# QEMU with the boots of DKMS_BOOTS (default ours-1 ours-2).
# TAP, then "N passed, N failed[, N skipped]".
#
# Environment: KVER KDIR STOCK_MODDIR (default: build/kernel.mk), WORK
# (scratch dir, default build/dkms-check), DKMS_UPGRADE_MK (the make
# fragment of a second kernel, build/kernel-*.mk), BOOT, DKMS_BOOTS.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
mk_get() { sed -n "s/^$2 := //p" "$1"; }
KVER=${KVER:-$(mk_get "$TOP/build/kernel.mk" KVER)}
KDIR=${KDIR:-$(mk_get "$TOP/build/kernel.mk" KDIR)}
STOCK_MODDIR=${STOCK_MODDIR:-$(mk_get "$TOP/build/kernel.mk" STOCK_MODDIR)}
W=${WORK:-$TOP/build/dkms-check}
MODS="libnvdimm nfit nd_pmem nd_blk nd_btt dax_pmem nd_e820 virtio_pmem nd_virtio cxl_pmem"
pass=0 fail=0 skip=0 n=0

t() {	# t RC DESC
	n=$((n + 1))
	if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok $n - dkms: $2"
	else fail=$((fail + 1)); echo "not ok $n - dkms: $2"; fi
	return $(($1 != 0))
}
s() { n=$((n + 1)); skip=$((skip + 1)); echo "ok $n - dkms: $1 # SKIP $2"; }
finish() {
	echo "dkms-check: $pass passed, $fail failed$([ $skip = 0 ] || echo ", $skip skipped")"
	[ $fail = 0 ]; exit
}
diag() { sed 's/^/#   /' | tail -n "${1:-15}"; }

[ -n "$KVER" ] && [ -d "$KDIR" ] && [ -d "$STOCK_MODDIR" ] || {
	echo "dkms-check: no kernel (KVER/KDIR/STOCK_MODDIR): run make kernel"; exit 1; }
if ! command -v dkms >/dev/null; then
	[ "$(id -u)" = 0 ] || { echo "dkms-check: dkms missing: apt-get install dkms"; exit 1; }
	echo "dkms-check: installing the dkms package (the tool only; it builds nothing for the host)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dkms >/dev/null ||
		{ echo "dkms-check: apt-get install dkms failed"; exit 1; }
fi

# What the host has of DKMS and kernel modules: must be the same at the end.
host_state() {
	find /var/lib/dkms /lib/modules /usr/src -maxdepth 3 2>/dev/null | sort
}
host_before=$(host_state)

rm -rf "$W"
mkdir -p "$W"
VERSION=$(cat "$TOP/kernel/VERSION")
echo "dkms-check: libnvdimm-dkms $VERSION, kernel $KVER, scratch $W"

# --- the package ---------------------------------------------------------
deb=$("$TOP/scripts/make-deb.sh" "$W/deb" | tail -n 1)
[ -f "$deb" ]; t $? "make deb builds $(basename "$deb")"
[ -f "$deb" ] || finish
list=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's#^\./#/#')
S=/usr/src/libnvdimm-$VERSION
miss=
for f in dkms.conf Kbuild Makefile VERSION nvdimm/core.c nvdimm/btt.c \
	nvdimm/pmem.c nvdimm/blk.c nvdimm/e820.c nvdimm/virtio_pmem.c nvdimm/nd_virtio.c \
	acpi/nfit/core.c dax/pmem.c include/libnvdimm.h \
	cxl/Kbuild cxl/pmem.c cxl/nd.c cxl/cxl-nd.h cxl-prepare.sh \
	/usr/share/doc/libnvdimm-dkms/copyright; do
	case $f in /*) p=$f;; *) p=$S/$f;; esac
	grep -qx "$p" <<< "$list" || miss="$miss $p"
done
[ -z "$miss" ]; t $? "the package holds the sources, Kbuilds, dkms.conf, cxl-prepare.sh${miss:+ (missing:$miss)}"
extra=$(grep -E '/test/|\.(o|ko|cmd)$|Kbuild\.drivers|nfit_test' <<< "$list" | paste -sd' ')
[ -z "$extra" ]; t $? "no test build, no objects in the package${extra:+: $extra}"
# the CXL core's headers come from the kernel's source at build time
cxlh=$(grep -E '/(cxl|cxlmem|cxlpci)\.h$' <<< "$list" | paste -sd' ')
perm=$(dpkg-deb -c "$deb" | awk -v p=".$S/cxl-prepare.sh" '$6 == p { print $1 }')
[ -z "$cxlh" ] && [ "$perm" = -rwxr-xr-x ]
t $? "no CXL core header in the package${cxlh:+ ($cxlh)}, cxl-prepare.sh ${perm:-missing}"
ctl=$(dpkg-deb -f "$deb" Package Version Architecture Depends | paste -sd' ')
[ "$ctl" = "Package: libnvdimm-dkms Version: $VERSION-1 Architecture: all Depends: dkms (>= 3.0), linux-source-6.1" ]
t $? "control: $ctl"

R=$W/root
mkdir -p "$R"
dpkg -x "$deb" "$R"
conf=$R$S/dkms.conf
# dkms.conf as DKMS reads it: sourced by bash with the kernel's variables
# (dkms's safe_source); prints its modules "name location dest", one a line
read_conf() {	# read_conf KDIR [VAR=VALUE...]
	local kdir=$1; shift
	env "$@" bash -c 'kernelver=$1 kernel_source_dir=$2; . "$3" > /dev/null
		for i in "${!BUILT_MODULE_NAME[@]}"; do
			echo "${BUILT_MODULE_NAME[$i]} ${BUILT_MODULE_LOCATION[$i]:-.} ${DEST_MODULE_LOCATION[$i]}"
		done
		echo "AUTOINSTALL=$AUTOINSTALL PACKAGE_VERSION=$PACKAGE_VERSION"
		echo "MAKE=${MAKE[0]} PRE_BUILD=$PRE_BUILD"
		echo "BUILD_EXCLUSIVE_KERNEL=${BUILD_EXCLUSIVE_KERNEL-unset}"' \
		- "$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h")" \
		"$kdir" "$conf"
}
want_conf() {	# want_conf KDIR MODULE...: what read_conf prints for a kernel that builds them
	local kdir=$1; shift
	for m in "$@"; do
		if [ "$m" = cxl_pmem ]; then echo "$m cxl/ /updates/dkms"; else echo "$m . /updates/dkms"; fi
	done
	echo "AUTOINSTALL=yes PACKAGE_VERSION=$VERSION"
	echo "MAKE=make KDIR=$kdir PRE_BUILD=cxl-prepare.sh unpack $kdir"
	echo "BUILD_EXCLUSIVE_KERNEL=unset"
}
got=$(read_conf "$KDIR" 2> "$W/conf.err")
# shellcheck disable=SC2086
[ "$got" = "$(want_conf "$KDIR" $MODS)" ] && [ ! -s "$W/conf.err" ]
t $? "dkms.conf for $KVER: version $VERSION, AUTOINSTALL, our Makefile, cxl-prepare.sh, the $(wc -w <<< "$MODS") modules ($MODS) to /updates/dkms" ||
	diff <(want_conf "$KDIR" $MODS) <(echo "$got"; cat "$W/conf.err") | diag

# Kernels that are not the fetched one: its identity files (config,
# release, Debian's package version), for dkms.conf and cxl-prepare.sh
# (DKMS decides from them before it builds anything)
fake_kernel() {	# fake_kernel DIR LINUX_PACKAGE_ID [CONFIG lines to drop]
	rm -rf "$1"
	mkdir -p "$1/include/config" "$1/include/generated"
	grep -v "${3:-^\$}" "$KDIR/.config" > "$1/.config"
	grep -v "${3:-^\$}" "$KDIR/include/config/auto.conf" > "$1/include/config/auto.conf"
	cp "$KDIR/include/config/kernel.release" "$1/include/config/"
	cp "$KDIR/include/generated/utsrelease.h" "$1/include/generated/"
	printf '#define LINUX_PACKAGE_ID "%s"\n' "$2" > "$1/include/generated/package.h"
}
kver_pkg=$(sed -n 's/^#define LINUX_PACKAGE_ID " *Debian \([^ "]*\)"$/\1/p' "$KDIR/include/generated/package.h")
src_pkg=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)
echo "# $KVER is Debian ${kver_pkg:-?}, the host's linux-source-6.1 ${src_pkg:-is not installed}"
[ "$kver_pkg" = "$src_pkg" ] ||
	echo "# they differ: the package builds nothing for $KVER (by design); install linux-source-6.1=$kver_pkg"
# a kernel without the CXL core: no cxl_pmem, and no need of linux-source
fake_kernel "$W/kernel-nocxl" " Debian $kver_pkg" '^CONFIG_CXL'
got=$(read_conf "$W/kernel-nocxl" CXL_SRC_TARBALL="$W/none.tar.xz" 2> "$W/conf-nocxl.err")
# shellcheck disable=SC2086
[ "$got" = "$(want_conf "$W/kernel-nocxl" ${MODS% cxl_pmem})" ] && [ ! -s "$W/conf-nocxl.err" ]
t $? "dkms.conf for a kernel without the CXL core: no cxl_pmem, the other $(($(wc -w <<< "$MODS") - 1)), with no linux-source" ||
	diff <(want_conf "$W/kernel-nocxl" ${MODS% cxl_pmem}) <(echo "$got"; cat "$W/conf-nocxl.err") | diag

# --- a kernel's stock module tree in the scratch root ----------------------
stage_kernel() {	# stage_kernel KVER STOCK_MODDIR
	local d=$R/lib/modules/$1
	mkdir -p "$R/lib/modules"
	# hard links when on the same file system; the index files are
	# copies (depmod replaces them)
	cp -al "$2" "$d" 2>/dev/null || { rm -rf "$d"; cp -a "$2" "$d"; }
	for f in "$d"/modules.*; do cp --remove-destination "$2/${f##*/}" "$f"; done
	( cd "$d" && find . -type f ! -name 'modules.*' -printf '%p %s\n' | sort ) > "$W/stock-$1.list"
}
stage_kernel "$KVER" "$STOCK_MODDIR"
mkdir -p "$W/dkms"
D=(dkms --dkmstree "$W/dkms" --sourcetree "$R/usr/src" --installtree "$R/lib/modules")

"${D[@]}" add -m libnvdimm -v "$VERSION" > "$W/add.log" 2>&1
t $? "dkms add (sources from the unpacked package)" || diag < "$W/add.log"
t0=$(date +%s)
"${D[@]}" build -m libnvdimm -v "$VERSION" -k "$KVER" --kernelsourcedir "$KDIR" \
	> "$W/build.log" 2>&1
rc=$?
t $rc "dkms build for $KVER ($(( $(date +%s) - t0 )) s)"
[ $rc = 0 ] || { diag < "$W/build.log"
	diag < "$W/dkms/libnvdimm/$VERSION/build/make.log" 2>/dev/null; }
# PRE_BUILD's line: the headers of the kernel's own source
grep -q "^cxl-prepare: .* of linux-source-6.1 $kver_pkg /usr/src/linux-source-6.1.tar.xz (the kernel's own)" "$W/build.log"
t $? "PRE_BUILD unpacked cxl_pmem's CXL headers from linux-source-6.1 $kver_pkg, the kernel's" ||
	grep 'cxl-prepare\|libnvdimm-dkms' "$W/build.log" | diag
"${D[@]}" install -m libnvdimm -v "$VERSION" -k "$KVER" --kernelsourcedir "$KDIR" \
	--no-depmod > "$W/install.log" 2>&1
t $? "dkms install for $KVER" || diag < "$W/install.log"

U=$R/lib/modules/$KVER/updates/dkms
got=$(cd "$U" 2>/dev/null && ls | sort | paste -sd' ')
want=$(for m in $MODS; do echo $m.ko; done | sort | paste -sd' ')
[ "$got" = "$want" ]; t $? "installed in updates/dkms: ${got:-nothing} (want $want)"
grep -q 'DKMS will not replace\|not newer than' "$W/install.log"
[ $? != 0 ]; t $? "DKMS's version check let every module over the stock one" ||
	grep -B1 'DKMS will not replace\|not newer' "$W/install.log" | diag

# --- depmod: ours win, the stock files stay --------------------------------
depmod -b "$R" "$KVER" 2> "$W/depmod.log"
t $? "depmod -b <scratch> $KVER" || diag < "$W/depmod.log"
bad=
for m in $MODS; do
	p=$(modinfo -b "$R" -k "$KVER" -n "$m" 2>/dev/null)
	v=$(modinfo -b "$R" -k "$KVER" -F version "$m" 2>/dev/null)
	[ "$p" = "$U/$m.ko" ] && [ "$v" = "$VERSION" ] || bad="$bad $m->${p#$R}($v)"
done
[ -z "$bad" ]; t $? "modinfo -b resolves each module to updates/dkms, version $VERSION${bad:+:$bad}"
# the dependency lines: ours need ours (nd_pmem -> libnvdimm of updates/)
for m in nd_pmem cxl_pmem; do
	dep=$(grep "^updates/dkms/$m.ko:" "$R/lib/modules/$KVER/modules.dep")
	[[ $dep == *" updates/dkms/libnvdimm.ko"* && $dep != *kernel/drivers/nvdimm/libnvdimm.ko* ]]
	t $? "modules.dep: $m needs updates/dkms/libnvdimm.ko (${dep:-no line})"
done
after=$(cd "$R/lib/modules/$KVER" && find . -type f ! -name 'modules.*' ! -path './updates/*' \
	-printf '%p %s\n' | sort)
gone=$(comm -23 "$W/stock-$KVER.list" <(echo "$after") | head -n 5)
nstock=$(wc -l < "$W/stock-$KVER.list")
[ -z "$gone" ] && [ "$nstock" -gt 1000 ]
t $? "all $nstock stock files still there, unchanged in size${gone:+ (gone: $gone)}"
p=$(modinfo -b "$R" -k "$KVER" -F filename libnvdimm 2>/dev/null)
sp=$R/lib/modules/$KVER/kernel/drivers/nvdimm/libnvdimm.ko
[ -f "$sp" ] && [ -z "$(modinfo -F version "$sp")" ] && [ "$p" != "$sp" ]
t $? "the stock libnvdimm.ko (no version) is there and shadowed"

# every stock module that needs libnvdimm: installed by the package, or
# loading against what it installed; no exception (cxl_pmem: ours)
if [ -f "$U/libnvdimm.ko" ]; then
	KDIR=$KDIR STOCK_MODDIR=$STOCK_MODDIR MODULES_DIR=$U CONSUMERS_OUT=$W/stock-consumers.txt \
		python3 "$TOP/tests/host/stock-consumers.py" > "$W/consumers.log" 2>&1
	t $? "no stock consumer of libnvdimm left behind: $(tail -n 1 "$W/consumers.log")" ||
		grep '^not ok\|^stock-consumers: no' "$W/consumers.log" | diag
	grep -q '^ok [0-9]* - consumers: cxl_pmem: shipped by us' "$W/consumers.log" &&
		! grep -q '# TODO\|# SKIP' "$W/consumers.log"
	t $? "cxl_pmem is the package's, no consumer excepted or skipped" ||
		grep 'cxl_pmem\|# TODO\|# SKIP' "$W/consumers.log" | diag
else
	t 1 "no stock consumer of libnvdimm left behind: DKMS installed no libnvdimm.ko"
fi

# --- bad input: cxl_pmem without the kernel's own source -----------------------
# In a tree of its own: DKMS must build nothing for the kernel (exit 77,
# "skipped" for DKMS's common.postinst) and say which linux-source-6.1 to
# install, or (a tarball without the headers) fail the build saying so.
B=(dkms --dkmstree "$W/dkms-bad" --sourcetree "$R/usr/src" --installtree "$R/lib/modules")
mkdir -p "$W/dkms-bad"
"${B[@]}" add -m libnvdimm -v "$VERSION" > "$W/bad-add.log" 2>&1 ||
	{ t 1 "dkms add (bad-input tree)"; diag < "$W/bad-add.log"; }
bad_build() {	# bad_build NAME KDIR [VAR=VALUE...]: dkms build's status; stderr in bad-NAME.err
	local name=$1 kd=$2; shift 2
	env "$@" "${B[@]}" build -m libnvdimm -v "$VERSION" -k "$KVER" --kernelsourcedir "$kd" \
		> "$W/bad-$name.out" 2> "$W/bad-$name.err"
}
built_none() { [ ! -e "$W/dkms-bad/libnvdimm/$VERSION/$KVER" ]; }
says() {	# says NAME PATTERN...: each (grep) in bad-NAME.err
	local f=$W/bad-$1.err; shift
	for p in "$@"; do grep -q -- "$p" "$f" || return 1; done
}
stock_stay="nothing of libnvdimm is built for"

bad_build nosrc "$KDIR" CXL_SRC_TARBALL="$W/none/linux-source-6.1.tar.xz"; rc=$?
[ $rc = 77 ] && built_none &&
	says nosrc "linux-source-6.1 is not installed" "apt-get install linux-source-6.1=$kver_pkg" "$stock_stay" \
		"its stock modules stay in use" "dkms install libnvdimm/$VERSION -k $KVER"
t $? "linux-source-6.1 missing: nothing built for $KVER (exit $rc, skipped), names linux-source-6.1=$kver_pkg" ||
	cat "$W/bad-nosrc.err" "$W/bad-nosrc.out" | diag

fake_kernel "$W/kernel-other" " Debian 6.1.190-1"
bad_build other "$W/kernel-other"; rc=$?
[ $rc = 77 ] && built_none &&
	says other "linux-source-6.1 is $src_pkg, but the kernel is Debian 6.1.190-1" \
		"apt-get install linux-source-6.1=6.1.190-1" "$stock_stay"
t $? "a kernel of Debian 6.1.190-1, linux-source-6.1 $src_pkg: nothing built (exit $rc), names linux-source-6.1=6.1.190-1" ||
	cat "$W/bad-other.err" "$W/bad-other.out" | diag

# the same kernel installed later (the kernel's postinst.d/dkms hook):
# DKMS 3.0.10's autoinstall counts the skipped module as failed (11)
"${B[@]}" autoinstall -k "$KVER" --kernelsourcedir "$W/kernel-other" --no-depmod \
	> "$W/bad-auto.out" 2> "$W/bad-auto.err"; rc=$?
[ $rc != 0 ] && built_none &&
	says auto "apt-get install linux-source-6.1=6.1.190-1" "$stock_stay"
t $? "autoinstall for that kernel (a kernel upgrade): nothing built, the same message (exit $rc)" ||
	cat "$W/bad-auto.err" "$W/bad-auto.out" | diag

# dkms.conf is read again for a kernel DKMS built before (dkms remove,
# install, status): no message about a build that is not to happen
got=$(read_conf "$W/kernel-other" dkms_tree="$W/dkms" arch="$(uname -m)" 2> "$W/conf-built.err")
[ -d "$W/dkms/libnvdimm/$VERSION/$KVER/$(uname -m)" ] && [ ! -s "$W/conf-built.err" ] &&
	grep -qx 'BUILD_EXCLUSIVE_KERNEL=^\$' <<< "$got"
t $? "dkms.conf for that kernel once built (dkms remove, status): excluded, nothing on stderr" ||
	cat "$W/conf-built.err" | diag

fake_kernel "$W/kernel-custom" ""
bad_build custom "$W/kernel-custom"; rc=$?
[ $rc = 77 ] && built_none &&
	says custom "cannot tell which Debian source the kernel was built from" "$stock_stay"
t $? "a kernel with the CXL core but no Debian version: nothing built (exit $rc)" ||
	cat "$W/bad-custom.err" "$W/bad-custom.out" | diag

# the right package, but its tarball lacks the headers: PRE_BUILD says so
# (DKMS goes on), the Makefile fails the build with the same words
mkdir -p "$W/bogus/linux-source-6.1"
echo "not a kernel" > "$W/bogus/linux-source-6.1/README"
tar -cJf "$W/bogus.tar.xz" -C "$W/bogus" linux-source-6.1
bad_build bogus "$KDIR" CXL_SRC_TARBALL="$W/bogus.tar.xz"; rc=$?
mlog=$W/dkms-bad/libnvdimm/$VERSION/build/make.log
[ $rc != 0 ] && [ $rc != 77 ] && built_none &&
	says bogus "drivers/cxl/cxl.h is not in $W/bogus.tar.xz" "apt-get install --reinstall linux-source-6.1" &&
	grep -q "drivers/cxl/cxl.h is not in $W/bogus.tar.xz" "$mlog"
t $? "a linux-source-6.1 tarball without the CXL headers: the build fails (exit $rc), PRE_BUILD and make.log say why" ||
	cat "$W/bad-bogus.err" "$mlog" | diag

# --- a kernel upgrade: autoinstall for a second kernel --------------------
if [ -n "${DKMS_UPGRADE_MK:-}" ] && [ -f "$DKMS_UPGRADE_MK" ]; then
	K2=$(mk_get "$DKMS_UPGRADE_MK" KVER)
	stage_kernel "$K2" "$(mk_get "$DKMS_UPGRADE_MK" STOCK_MODDIR)"
	t0=$(date +%s)
	"${D[@]}" autoinstall -k "$K2" --kernelsourcedir "$(mk_get "$DKMS_UPGRADE_MK" KDIR)" \
		--no-depmod > "$W/autoinstall.log" 2>&1
	t $? "dkms autoinstall for a new kernel $K2 ($(( $(date +%s) - t0 )) s)" ||
		diag < "$W/autoinstall.log"
	depmod -b "$R" "$K2"
	for mod in nd_btt cxl_pmem; do
		p=$(modinfo -b "$R" -k "$K2" -n $mod 2>/dev/null)
		m=$(modinfo -F vermagic "$p" 2>/dev/null | cut -d' ' -f1)
		[ "$p" = "$R/lib/modules/$K2/updates/dkms/$mod.ko" ] && [ "$m" = "$K2" ]
		t $? "$K2: $mod resolves to updates/dkms, vermagic ${m:-none}"
	done
	st=$("${D[@]}" status -m libnvdimm 2>/dev/null | paste -sd';')
	[[ $st == *"$KVER"*installed* && $st == *"$K2"*installed* ]]
	t $? "dkms status: installed for both kernels ($st)"
else
	s "dkms autoinstall for a second kernel" "no second kernel (make kernel KFLAVOUR=rt-amd64 then DKMS_UPGRADE_MK=build/kernel-rt-amd64.mk)"
fi

host_after=$(host_state)
[ "$host_before" = "$host_after" ]
t $? "the host's /var/lib/dkms, /lib/modules, /usr/src are unchanged" ||
	diff <(echo "$host_before") <(echo "$host_after") | diag

# --- boot the modules DKMS built ---------------------------------------------
if [ "${BOOT:-0}" = 1 ]; then
	printf '%s\n' ${DKMS_BOOTS:-ours-1 ours-2} > "$W/boots"
	echo "dkms-check: booting $(paste -sd' ' "$W/boots") with MODULES_DIR=${U#$TOP/}"
	MODULES_DIR=$U NVT_VM=$W/vm NVT_LOGS=$W/logs NVT_GUEST_OUT=$W/guest-out \
		python3 "$TOP/vm/nvt.py" check --boots "$W/boots" | tee "$W/boot.log"
	t "${PIPESTATUS[0]}" "the DKMS-built modules pass $(paste -sd' ' "$W/boots") in QEMU ($(tail -n 1 "$W/boot.log"))"
fi
finish
