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
NVT_DMESG_BAD='WARNING:|BUG:|Oops|general protection fault|possible circular locking|lockdep|UBSAN|KASAN|kernel BUG|Call Trace:'

_tap() {
	local n
	n=$(( $(cat /tmp/nvt.tapn 2>/dev/null || echo 0) + 1 ))
	echo $n > /tmp/nvt.tapn
	echo "$1 $n - $2" | tee -a $NVT_TAP
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
nd_settle() {
	local b
	for b in /sys/bus/nd/devices/ndbus*/wait_probe /sys/class/nd/ndctl*/device/wait_probe; do
		[ -e "$b" ] && cat "$b" > /dev/null 2>&1
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
	*) echo 1 ;;
	esac
}

# modules of the nd stack that may be loaded, in unload order
ND_MODULES="dax_pmem device_dax nd_pmem nd_btt nd_e820 nfit_test nfit_test_iomap nfit libnvdimm"

platform_modules() {
	case $NVT_PLATFORM in
	nfit_test) echo "nfit_test nd_pmem" ;;
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
	return $rc
}

# unload every nd module that is loaded (dependants first)
platform_unload() {
	local m pass
	provider_unbind
	for pass in 1 2 3; do
		for m in $ND_MODULES; do
			grep -q "^$m " /proc/modules && rmmod $m 2>/dev/null
		done
	done
	for m in $ND_MODULES; do
		if grep -q "^$m " /proc/modules; then
			echo "still loaded: $(grep "^$m " /proc/modules)"
			return 1
		fi
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
	before=$(cat /tmp/nvt.tapn 2>/dev/null || echo 0)
	NVT_TEST=$t timeout ${NVT_TEST_TIMEOUT:-300} sh /nvt/$t.sh
	rc=$?
	after=$(cat /tmp/nvt.tapn 2>/dev/null || echo 0)
	if [ "$before" = "$after" ]; then
		NVT_TEST=$t nok "exited $rc without reporting"
	elif [ $rc -ne 0 ] && ! grep -q "^not ok .* - $t:" $NVT_TAP; then
		NVT_TEST=$t nok "exited $rc"
	fi
}

nvt_dmesg_check() {
	NVT_TEST=dmesg
	if dmesg | grep -E "$NVT_DMESG_BAD" > /tmp/dmesg.bad; then
		nok "kernel log has $(wc -l < /tmp/dmesg.bad) warning line(s)"
		head -n 20 /tmp/dmesg.bad | sed 's/^/#   /'
	else
		ok "no WARNING/BUG/Oops/lockdep/UBSAN/KASAN in the kernel log"
	fi
	unset NVT_TEST
}
