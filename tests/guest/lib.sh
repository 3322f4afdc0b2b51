# Helpers for guest tests (busybox sh).  Sourced by /init and by every test.
#
# A test is tests/guest/<name>.sh, run as `sh /nvt/<name>.sh` with:
#   NVT_TEST      its name            NVT_SET       stock | ours | test
#   NVT_NAME      boot name           NVT_PLATFORM  qemu | nfit_test
#   NVT_OUT       directory shared with the host (build/guest-out/<boot>/)
# It reports with ok / nok / skip (TAP, numbered per boot) and may call
# `check DESC CMD...`.  A test that exits non-zero without reporting
# anything is counted as one failure.

NVT_TAP=/tmp/nvt.tap
# kernel log lines that fail a boot (checked after the last test)
# (for the debug kernel also lockdep's "INFO: trying to register
# non-static key", debugobjects' "ODEBUG:", "DEBUG_LOCKS_WARN_ON", RCU
# stalls "INFO: rcu_sched self-detected stall")
NVT_DMESG_BAD='WARNING:|BUG:|Oops|general protection fault|possible circular locking|lockdep|UBSAN|KASAN|kernel BUG|Call Trace:|INFO: |ODEBUG:|DEBUG_LOCKS_WARN_ON'
# ... except these lines, printed by every boot of the debug kernel
NVT_DMESG_IGNORE='RCU lockdep checking is enabled'

# Shell builtins only: no command substitution, cat or tee, each a fork
# (and an exec) that cost ~130 ms of guest CPU per TAP line on the debug
# kernel (3 ms now), more than many tests' own work.
_tap() {
	local n=0
	[ -r /tmp/nvt.tapn ] && read -r n < /tmp/nvt.tapn
	n=$((n + 1))
	echo $n > /tmp/nvt.tapn
	echo "$1 $n - $2"
	echo "$1 $n - $2" >> $NVT_TAP
}
ok()   { _tap "ok" "${NVT_TEST:-setup}: $*"; }
nok()  { _tap "not ok" "${NVT_TEST:-setup}: $*"; }
# skip DESC REASON
skip() { _tap "ok" "${NVT_TEST:-setup}: $1 # SKIP $2"; }
diag() { echo "# $*"; }

# check DESC CMD... : ok if CMD succeeds, else nok with its output as diag
check() {
	local desc=$1
	shift
	if "$@" > /tmp/check.out 2>&1; then
		ok "$desc"
	else
		nok "$desc (exit $?)"
		sed 's/^/#   /' /tmp/check.out | head -n 30
	fi
}

# expect_eq DESC GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		nok "$1: got '$2', want '$3'"
	fi
}

# jget KEY FILE: the value of the first "KEY":value line of ndctl/daxctl's
# pretty JSON (quotes and trailing comma dropped), empty when absent
jget() {
	sed -n "s/^[ \t]*\"$1\":\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$2" | head -n 1
}

# number of /dev/pmem* block devices
pmem_count() {
	local n=0 d
	for d in /dev/pmem*; do [ -b "$d" ] && n=$((n + 1)); done
	echo $n
}

# wait_pmem N SECONDS: until N /dev/pmem* nodes exist
wait_pmem() {
	local i=0
	while [ $(pmem_count) -lt $1 ]; do
		i=$((i + 1))
		[ $i -gt $(( $2 * 10 )) ] && return 1
		usleep 100000
	done
	return 0
}

# Settle the nd bus: reading wait_probe blocks until probing is done.
# With the shell's read (a cat was a fork and exec per file, ~50 ms of
# guest CPU each on the debug kernel, four per call on nfit_test).
nd_settle() {
	local b v
	for b in /sys/bus/nd/devices/ndbus*/wait_probe /sys/class/nd/ndctl*/device/wait_probe; do
		[ -e "$b" ] && read -r v < "$b" 2>/dev/null
	done
	return 0
}

# expected number of pmem block devices on this platform
platform_pmem() {
	case $NVT_PLATFORM in
	qemu) echo 2 ;;
	# nfit_test.1's io namespace; nfit_test.0's PMEM regions alias BLK,
	# so they are label-backed and have no namespace until labels exist
	nfit_test) echo 1 ;;
	# the memmap= range (nd_e820) and the virtio-pmem device
	legacy) echo 2 ;;
	# the unaligned range has no region, the odd-sized device no pmem
	legacy-bad) echo 1 ;;
	# no region at boot: 6.1 assembles none (tests/guest/cxl.inc)
	cxl) echo 0 ;;
	*) echo 1 ;;
	esac
}

# modules of the nd stack that may be loaded, in unload order
ND_MODULES="dax_pmem device_dax nd_pmem nd_blk nd_btt nfit_test_powercut nd_e820 virtio_pmem nd_virtio nfit_test nfit_test_iomap nfit libnvdimm"

platform_modules() {
	case $NVT_PLATFORM in
	# upstream's 6.1 mock (set upstream, media-oracle): no BLK in 6.1
	nfit_test) [ "$NVT_SET" = upstream ] && echo "nfit_test nd_pmem" ||
		echo "nfit_test nd_pmem nd_blk" ;;
	legacy|legacy-bad) echo "nd_e820 virtio_pmem nd_pmem" ;;
	# cxl_core and cxl_port are built into Debian's kernel
	cxl) echo "cxl_acpi cxl_pci cxl_mem cxl_pmem nd_pmem" ;;
	*) echo "nfit nd_pmem" ;;
	esac
}

# load the platform's modules; no TAP output
platform_load() {
	local m
	for m in $(platform_modules); do
		modprobe $m || return 1
	done
	nd_settle
	wait_pmem $(platform_pmem) 30
}

# Unbind the bus providers (the ACPI0012 device from nfit): every device
# bound on the nd bus holds a reference on the provider module, so nfit
# cannot be removed while its bus exists.
provider_unbind() {
	local d rc=0
	for d in /sys/bus/acpi/drivers/nfit/ACPI0012:*; do
		[ -e "$d" ] || continue
		echo "${d##*/}" > /sys/bus/acpi/drivers/nfit/unbind || rc=1
	done
	# the providers without an NFIT: the e820_pmem platform device, the
	# virtio-pmem devices
	for d in /sys/bus/platform/drivers/e820_pmem/e820_pmem* \
		/sys/bus/virtio/drivers/virtio_pmem/virtio*; do
		[ -e "$d" ] || continue
		echo "${d##*/}" > ${d%/*}/unbind || rc=1
	done
	return $rc
}

# ND_LOADED: the modules of ND_MODULES loaded now, in unload order.
# Shell builtins only (one grep per module was a fork and exec each,
# ~50 ms apiece on the debug kernel, 52 of them per unload).
nd_loaded() {
	local name rest all=" " m
	while read -r name rest; do all="$all$name "; done < /proc/modules
	ND_LOADED=
	for m in $ND_MODULES; do
		case $all in *" $m "*) ND_LOADED="$ND_LOADED $m" ;; esac
	done
}

# unload every nd module that is loaded (dependants first)
platform_unload() {
	local m pass
	provider_unbind
	for pass in 1 2 3; do
		nd_loaded
		for m in $ND_LOADED; do
			rmmod $m 2>/dev/null
		done
	done
	nd_loaded
	for m in $ND_LOADED; do
		echo "still loaded: $(grep "^$m " /proc/modules)"
		return 1
	done
	return 0
}

nvt_platform_up() {
	local t0 t1 m
	NVT_TEST=setup
	t0=$(cut -d' ' -f1 /proc/uptime)
	for m in $(platform_modules); do
		if ! modprobe $m > /tmp/modprobe.out 2>&1; then
			nok "modprobe $m ($NVT_SET modules)"
			sed 's/^/#   /' /tmp/modprobe.out
			dmesg | tail -n 20 | sed 's/^/#   /'
			return 1
		fi
	done
	nd_settle
	if wait_pmem $(platform_pmem) 30; then
		t1=$(cut -d' ' -f1 /proc/uptime)
		ok "$(platform_modules | tr ' ' '+') loaded ($NVT_SET), $(pmem_count) pmem devices (${t0}s -> ${t1}s)"
	else
		nok "expected $(platform_pmem) /dev/pmem* after loading $(platform_modules), found $(pmem_count)"
		ls /sys/bus/nd/devices 2>&1 | sed 's/^/#   /'
		dmesg | tail -n 20 | sed 's/^/#   /'
	fi
	unset NVT_TEST
}

nvt_run_test() {
	local t=$1 before after rc
	if [ ! -f /nvt/$t.sh ]; then
		NVT_TEST=$t nok "no such test /nvt/$t.sh"
		return
	fi
	before=0
	[ -r /tmp/nvt.tapn ] && read -r before < /tmp/nvt.tapn
	NVT_TEST=$t timeout ${NVT_TEST_TIMEOUT:-300} sh /nvt/$t.sh
	rc=$?
	if [ -e $NVT_OUT_DETACHED ]; then
		NVT_TEST=$t nok "left the /out share detached"
		nvt_out_attach
	fi
	after=0
	[ -r /tmp/nvt.tapn ] && read -r after < /tmp/nvt.tapn
	if [ "$before" = "$after" ]; then
		NVT_TEST=$t nok "exited $rc without reporting"
	elif [ $rc -ne 0 ] && ! grep -q "^not ok .* - $t:" $NVT_TAP; then
		NVT_TEST=$t nok "exited $rc"
	fi
}

# ---- the /out share across a freeze/thaw cycle -----------------------------
# A quiesced firmware activation (docs/firmware.md "Quiesce") runs the
# hibernation freeze/thaw cycle without an image.  virtio-pci's thaw
# callback resets each virtio device, and only a driver with a restore
# callback sets its queues up again: 9pnet_virtio has none, so after the
# thaw the device is live but has no queues, and the next request to
# /out waits in p9_client_rpc for ever (a killed waiter then waits for
# its flush).  A test that quiesces detaches the share first
# (nvt_out_detach: unmounted, its virtio device unbound from
# 9pnet_virtio: one without a driver is only reset) and attaches it
# afterwards (nvt_out_attach: bound, which sets up fresh queues, and
# mounted as vm/init mounts it).  Its files stay in /tmp meanwhile.  Both
# return 0 at once without the share; a test that exits detached is
# failed and the share attached again (nvt_run_test).
NVT_OUT_DETACHED=/tmp/nvt.out-detached
NVT_9P_DRV=/sys/bus/virtio/drivers/9pnet_virtio

nvt_out_detach() {
	local d dev=
	grep -q '^out /out 9p ' /proc/mounts || return 0
	for d in $NVT_9P_DRV/virtio*; do
		[ -e "$d" ] && dev=${d##*/}
	done
	[ -n "$dev" ] || return 1
	sync
	umount /out || return 1
	echo $dev > $NVT_OUT_DETACHED
	echo $dev > $NVT_9P_DRV/unbind
}

nvt_out_attach() {
	local dev
	[ -e $NVT_OUT_DETACHED ] || return 0
	dev=$(cat $NVT_OUT_DETACHED)
	rm -f $NVT_OUT_DETACHED
	[ -e $NVT_9P_DRV/$dev ] || echo $dev > $NVT_9P_DRV/bind || return 1
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /out
}

nvt_dmesg_check() {
	NVT_TEST=dmesg
	if dmesg | grep -E "$NVT_DMESG_BAD" | grep -vE "$NVT_DMESG_IGNORE" > /tmp/dmesg.bad; then
		nok "kernel log has $(wc -l < /tmp/dmesg.bad) warning line(s)"
		head -n 20 /tmp/dmesg.bad | sed 's/^/#   /'
	else
		ok "no WARNING/BUG/Oops/lockdep/UBSAN/KASAN in the kernel log"
	fi
	unset NVT_TEST
}

# ---- debug-kernel tier (make check-debug, docs/debug-tier.md) --------------
# Active only on a kernel with kmemleak or gcov in debugfs, i.e. the debug
# kernel; on Debian's kernel both hooks return at once and print nothing.
NVT_DEBUGFS=/sys/kernel/debug
NVT_KMEMLEAK_AGE=6	# kmemleak ignores objects younger than 5 s

nvt_debugfs() {
	[ -e $NVT_DEBUGFS/kmemleak ] || [ -d $NVT_DEBUGFS/gcov ] ||
		mount -t debugfs debugfs $NVT_DEBUGFS 2>/dev/null
	[ -e $NVT_DEBUGFS/kmemleak ] || [ -d $NVT_DEBUGFS/gcov ]
}

# Before the platform comes up: stop kmemleak's automatic scan thread (a
# scan costs 5-10 s of a TCG guest; nvt_debug_checks scans once, at the end).
nvt_debug_setup() {
	nvt_debugfs || return 0
	if [ -e $NVT_DEBUGFS/kmemleak ]; then
		echo scan=off > $NVT_DEBUGFS/kmemleak 2>/dev/null
		echo "# nvt: debug kernel: kmemleak (auto scan off, one scan pair after the tests)$([ -d $NVT_DEBUGFS/gcov ] && echo ', gcov')"
	fi
	return 0
}

# What names code of the nd modules once they are gone, saved while they
# are loaded: /tmp/nd.syms "ADDR SYMBOL [MODULE]" (/proc/kallsyms, sorted)
# and /tmp/nd.ranges "START END MODULE KIND" (KIND core: the module's
# memory as /proc/modules gives it; init: its .init.text, freed after the
# module's init, whose symbols kallsyms no longer has; 64 KiB assumed).
# Addresses are 16 lowercase hex digits, so string order is numeric order.
nd_syms_save() {
	local m re='' name size refs deps state addr rest it
	for m in $ND_MODULES; do re="$re|$m"; done
	grep -E "\[(${re#|})\]\$" /proc/kallsyms | awk '{ print $1, $3, $4 }' |
		sort > /tmp/nd.syms
	: > /tmp/nd.ranges
	while read name size refs deps state addr rest; do
		case " $ND_MODULES " in *" $name "*) ;; *) continue ;; esac
		printf '%016x %016x %s core\n' $((addr)) $((addr + size)) $name >> /tmp/nd.ranges
		it=$(cat /sys/module/$name/sections/.init.text 2>/dev/null)
		[ -n "$it" ] && [ $((it)) != 0 ] &&
			printf '%016x %016x %s init\n' $((it)) $((it + 65536)) $name >> /tmp/nd.ranges
	done < /proc/modules
}

# nd_symbolize < kmemleak report: backtrace entries of unloaded modules
# ("[<ADDR>] 0xADDR", which the kernel can no longer name) get the name
# they had: "SYMBOL+0xOFF [MODULE] (unloaded)", or "[MODULE] .init.text+0xOFF
# (unloaded)" in init code (init code of a module whose memory another
# module reused later: both, "A or B").  Offsets are computed on the low 8 hex digits
# (busybox awk has doubles, not 64-bit integers).
nd_symbolize() {
	awk -v syms=/tmp/nd.syms -v ranges=/tmp/nd.ranges '
	function low(h,   i, v) {
		v = 0
		for (i = length(h) - 7; i <= length(h); i++)
			v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return v
	}
	function off(x, base,   d) {
		d = low(x) - low(base)
		return d < 0 ? d + 4294967296 : d
	}
	BEGIN {
		while ((getline l < syms) > 0) { n++; split(l, f, " "); a[n] = f[1]; s[n] = f[2]; m[n] = f[3] }
		while ((getline l < ranges) > 0) { r++; split(l, f, " "); rs[r] = f[1]; re[r] = f[2]; rm[r] = f[3]; rk[r] = f[4] }
	}
	{
		if (!match($0, /\] 0x[0-9a-f]+$/)) { print; next }
		x = substr($0, RSTART + 4)
		while (length(x) < 16) x = "0" x
		head = substr($0, 1, RSTART + 1)
		# init code of one module may have been reused for another
		# module since: name every candidate, init code first
		ini = ""; core = ""
		for (i = 1; i <= r; i++) {
			if (rs[i] > x || x >= re[i]) continue
			if (rk[i] == "init") {
				ini = ini (ini == "" ? "" : " or ") sprintf("[%s] .init.text+0x%x", rm[i], off(x, rs[i]))
				continue
			}
			lo = 1; hi = n; k = 0
			while (lo <= hi) {
				mid = int((lo + hi) / 2)
				if (a[mid] <= x) { k = mid; lo = mid + 1 } else hi = mid - 1
			}
			if (k > 0 && a[k] >= rs[i] && m[k] == "[" rm[i] "]")
				c = sprintf("%s+0x%x %s", s[k], off(x, a[k]), m[k])
			else
				c = sprintf("[%s]+0x%x", rm[i], off(x, rs[i]))
			core = core (core == "" ? "" : " or ") c
		}
		name = ini (ini != "" && core != "" ? " or " : "") core
		print (name == "" ? $0 : head name " (unloaded)")
	}'
}

# kmemleak_check WHEN FILE T_END: let the objects of the tests (which ended
# at uptime T_END) grow old enough, scan twice (an object is reported by
# the second scan that finds it unreferenced and unchanged), save the
# report to $NVT_OUT/FILE with the nd modules' backtrace entries named.
kmemleak_check() {
	local f=$NVT_OUT/$2 n t0 wait
	[ -e $NVT_DEBUGFS/kmemleak ] || return 0
	t0=$(cut -d' ' -f1 /proc/uptime)
	wait=$(awk -v a=$NVT_KMEMLEAK_AGE -v e=$3 -v t=$t0 'BEGIN { w = e + a - t; print (w > 0 ? w : 0) }')
	[ "$wait" = 0 ] || sleep $wait
	# kmemleak switches itself off on internal trouble (e.g. its object
	# pool runs out): then every write fails and the report stays empty
	if ! { echo scan > $NVT_DEBUGFS/kmemleak && echo scan > $NVT_DEBUGFS/kmemleak; } 2>/dev/null; then
		nok "kmemleak: scan refused, kmemleak is disabled: $(dmesg | grep -i kmemleak | tail -n 1)"
		return
	fi
	nd_symbolize < $NVT_DEBUGFS/kmemleak > $f
	n=$(grep -c '^unreferenced object' $f)
	if [ "$n" = 0 ]; then
		ok "kmemleak: no leak $1 (${t0}s -> $(cut -d' ' -f1 /proc/uptime)s)"
	else
		nok "kmemleak: $n unreferenced object(s) $1 (out/$2)"
		head -n 80 $f | sed 's/^/#   /'
	fi
}

# gcov_save: the .gcda files of our modules (the only profiled code; the
# data of unloaded modules stays) to $NVT_OUT/gcov.tar, paths
# ./<absolute object path>/....gcda; scripts/coverage.py unpacks it into
# BOOT/gcov/.  Staged in /tmp and sent as one file: a `mkdir -p` of the
# deep object path per file on the 9p share cost ~0.25 s of guest CPU
# each on the debug kernel.  (debugfs gives the files' size as 0: they
# are read with cat, not archived in place.)
gcov_save() {
	local f d n=0 dirs=" " g=$NVT_DEBUGFS/gcov s=/tmp/gcov
	[ -d $g ] || return 0
	rm -rf $s
	for f in $(cd $g && find . -name '*.gcda'); do
		f=${f#./}
		d=${f%/*}
		case $dirs in
		*" $d "*) ;;
		*) mkdir -p $s/$d; dirs="$dirs$d " ;;
		esac
		cat $g/$f > $s/$f && n=$((n + 1))
	done
	if [ $n = 0 ]; then
		skip "gcov: no .gcda file in $g" "modules built without GCOV_PROFILE=y"
	elif tar -cf $NVT_OUT/gcov.tar -C $s .; then
		ok "gcov: $n .gcda files -> out/gcov.tar"
	else
		nok "gcov: writing out/gcov.tar failed"
	fi
	rm -rf $s
}

# After the tests: unload the nd modules (unbinding ACPI0012 first), then
# one kmemleak scan pair, which sees what the tests leaked and what the
# unload left behind (the modules' symbols are saved before they go, so
# the report still names them), then the coverage data.  The dmesg check
# that follows sees the unload too.
nvt_debug_checks() {
	local t_end
	nvt_debugfs || return 0
	NVT_TEST=debug
	t_end=$(cut -d' ' -f1 /proc/uptime)
	nd_syms_save
	if platform_unload > /tmp/unload.out 2>&1; then
		ok "unloaded the nd modules"
	else
		nok "unload of the nd modules failed"
		sed 's/^/#   /' /tmp/unload.out
	fi
	kmemleak_check "after the tests and the unload" kmemleak.txt $t_end
	gcov_save
	unset NVT_TEST
}
