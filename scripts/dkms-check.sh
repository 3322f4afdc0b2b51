#!/bin/bash
# make deb-check: the libnvdimm-dkms package end to end, without touching
# the host's kernels: `make deb`, its file list, `dpkg -x` into a scratch
# root, DKMS's add/build/install there (--dkmstree, --sourcetree,
# --installtree; --no-depmod) for the kernel the harness fetched, whose
# stock module tree is staged in the scratch root; `depmod -b` resolves
# every module of ours to updates/dkms/ and no stock file went missing;
# no stock module that needs libnvdimm is left unable to load
# (tests/host/stock-consumers.py on what DKMS installed);
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
MODS="libnvdimm nfit nd_pmem nd_blk nd_btt dax_pmem nd_e820 virtio_pmem nd_virtio"
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
	/usr/share/doc/libnvdimm-dkms/copyright; do
	case $f in /*) p=$f;; *) p=$S/$f;; esac
	grep -qx "$p" <<< "$list" || miss="$miss $p"
done
[ -z "$miss" ]; t $? "the package holds the sources, Kbuild, dkms.conf${miss:+ (missing:$miss)}"
extra=$(grep -E '/test/|\.(o|ko|cmd)$|Kbuild\.drivers|nfit_test' <<< "$list" | paste -sd' ')
[ -z "$extra" ]; t $? "no test build, no objects in the package${extra:+: $extra}"
ctl=$(dpkg-deb -f "$deb" Package Version Architecture Depends | paste -sd' ')
[ "$ctl" = "Package: libnvdimm-dkms Version: $VERSION-1 Architecture: all Depends: dkms (>= 3.0)" ]
t $? "control: $ctl"

R=$W/root
mkdir -p "$R"
dpkg -x "$deb" "$R"
conf=$R$S/dkms.conf
ok=0
for m in $MODS; do
	i=$(sed -n "s/^BUILT_MODULE_NAME\[\([0-9]*\)\]=\"$m\"$/\1/p" "$conf")
	[ -n "$i" ] && grep -qx "DEST_MODULE_LOCATION\[$i\]=\"/updates/dkms\"" "$conf" || ok=1
done
grep -qx "PACKAGE_VERSION=\"$VERSION\"" "$conf" && grep -qx 'AUTOINSTALL="yes"' "$conf" || ok=1
# and nothing else: a module built but not listed is not installed
[ "$(grep -c '^BUILT_MODULE_NAME\[' "$conf")" = "$(wc -w <<< "$MODS")" ] || ok=1
t $ok "dkms.conf: version $VERSION, AUTOINSTALL, the $(wc -w <<< "$MODS") modules ($MODS) to /updates/dkms"

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
dep=$(grep '^updates/dkms/nd_pmem.ko:' "$R/lib/modules/$KVER/modules.dep")
[[ $dep == *" updates/dkms/libnvdimm.ko"* && $dep != *kernel/drivers/nvdimm/libnvdimm.ko* ]]
t $? "modules.dep: nd_pmem needs updates/dkms/libnvdimm.ko (${dep:-no line})"
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
# loading against what it installed (cxl_pmem excepted, issue 31)
if [ -f "$U/libnvdimm.ko" ]; then
	KDIR=$KDIR STOCK_MODDIR=$STOCK_MODDIR MODULES_DIR=$U CONSUMERS_OUT=$W/stock-consumers.txt \
		python3 "$TOP/tests/host/stock-consumers.py" > "$W/consumers.log" 2>&1
	t $? "no stock consumer of libnvdimm left behind: $(tail -n 1 "$W/consumers.log")" ||
		grep '^not ok\|^stock-consumers: no' "$W/consumers.log" | grep -v '# TODO' | diag
	grep '# TODO' "$W/consumers.log" |
		sed 's/^not ok [0-9]* - consumers: \([a-z_0-9]*\):.*# TODO/# \1: TODO/'
else
	t 1 "no stock consumer of libnvdimm left behind: DKMS installed no libnvdimm.ko"
fi

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
	p=$(modinfo -b "$R" -k "$K2" -n nd_btt 2>/dev/null)
	m=$(modinfo -F vermagic "$p" 2>/dev/null | cut -d' ' -f1)
	[ "$p" = "$R/lib/modules/$K2/updates/dkms/nd_btt.ko" ] && [ "$m" = "$K2" ]
	t $? "$K2: nd_btt resolves to updates/dkms, vermagic ${m:-none}"
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
