#!/bin/bash
# make check-debug: our modules on the debug kernel (docs/debug-tier.md).
#
# 1. scripts/debug-kernel.sh builds the debug kernel (or finds it in the
#    cache) and writes build/kernel-debug.mk; its variables (KVER, KDIR,
#    VMLINUZ, STOCK_MODDIR, ...) replace build/kernel.mk's for the rest.
# 2. Both builds of our modules are redone against that tree with
#    GCOV_PROFILE=y, in their own object and output dirs (Debian's kernel
#    has no CONFIG_GCOV_KERNEL, so `make modules` stays unprofiled).
# 3. The boots named in DEBUG_PLAN run with their own logs, guest output,
#    images and backing files (build/*-debug); compares, and boots that
#    continue a stock boot's backing files, use what the last `make check`
#    saved.
# 4. scripts/coverage.py prints the line coverage of kernel/.
# Every step runs; the exit status is non-zero if any failed.  The last
# line is the boots' "N passed, N failed[, N skipped]".
#
# Environment (the Makefile passes its variables of the same names, with
# their defaults; each must be set):
#   DEBUG_PLAN     boot list (tests/guest/plan-debug)
#   DEBUG_APPEND   guest command line: acpi=noirq skips QEMU's _PRT AML loop
#                  (~20 s per boot under the debug kernel); NAME=value words
#                  reach the guest's /init as environment
#   DEBUG_TIMEOUT  per-boot timeout (NVT_TIMEOUT wins when set)
#   DEBUG_JOBS, DEBUG_SMP  boot groups at a time and vCPUs per guest
#                  (NVT_JOBS, NVT_SMP win when set)
#   NVT_APPEND     appended to DEBUG_APPEND
#   MAKE, PYTHON   as the Makefile runs them
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
BUILD=$TOP/build
MAKE=${MAKE:-make}
PYTHON=${PYTHON:-python3}
# the defaults live in the Makefile only (make check-debug passes them all)
for v in DEBUG_PLAN DEBUG_APPEND DEBUG_TIMEOUT DEBUG_JOBS DEBUG_SMP; do
	[ -n "${!v:-}" ] || { echo "check-debug: $v not set: run make check-debug" >&2; exit 2; }
done

MODULES_OUT=$BUILD/debug-modules
TEST_MODULES_OUT=$BUILD/debug-test-modules
OBJ=$BUILD/kbuild/debug
TEST_OBJ=$BUILD/kbuild/debug-test

t0=$(date +%s)
scripts/debug-kernel.sh || exit 1
# the debug kernel's variables, as the Makefile's own (NAME := value)
while read -r name value; do
	case $name in
	KVER) KVER=$value ;;
	KDIR) KDIR=$value ;;
	KHDR_COMMON) KHDR_COMMON=$value ;;
	VMLINUZ) VMLINUZ=$value ;;
	VMLINUX) VMLINUX=$value ;;
	STOCK_MODDIR) STOCK_MODDIR=$value ;;
	esac
done < <(sed -n 's/^\([A-Z_]*\) := \(.*\)$/\1 \2/p' "$BUILD/kernel-debug.mk")
export KVER KDIR KHDR_COMMON VMLINUZ VMLINUX STOCK_MODDIR

mkdir -p "$BUILD"
steps=
t1=$(date +%s)
echo "build: kernel modules against $KVER (gcov) -> build/debug-modules/"
$MAKE -C kernel KDIR="$KDIR" OUT="$MODULES_OUT" OBJ="$OBJ" KVER="$KVER" \
	GCOV_PROFILE=y || steps="$steps modules"
echo "build: test build against $KVER (gcov) -> build/debug-test-modules/"
$MAKE -C kernel test KDIR="$KDIR" TEST_OUT="$TEST_MODULES_OUT" \
	TEST_OBJ="$TEST_OBJ" KVER="$KVER" GCOV_PROFILE=y || steps="$steps modules"
t2=$(date +%s)

rm -rf "$BUILD/guest-out-debug"
NVT_LOGS=$BUILD/logs-debug NVT_GUEST_OUT=$BUILD/guest-out-debug \
NVT_VM=$BUILD/vm-debug MODULES_DIR=$MODULES_OUT \
TEST_MODULES_DIR=$TEST_MODULES_OUT \
NVT_APPEND="$DEBUG_APPEND ${NVT_APPEND:-}" \
NVT_TIMEOUT=${NVT_TIMEOUT:-$DEBUG_TIMEOUT} \
NVT_JOBS=${NVT_JOBS:-$DEBUG_JOBS} NVT_SMP=${NVT_SMP:-$DEBUG_SMP} \
	$PYTHON vm/nvt.py check --boots "$DEBUG_PLAN" --failed-steps "$steps" |
	tee "$BUILD/check-debug.log"
rc=${PIPESTATUS[0]}
t3=$(date +%s)

if ! $PYTHON scripts/coverage.py --obj "$OBJ" --obj "$TEST_OBJ" \
	--runs "$BUILD/guest-out-debug" --out "$BUILD/coverage"; then
	echo "check-debug: FAIL: no coverage report (see above)"
	rc=1
fi
t4=$(date +%s)
echo "check-debug: kernel $((t1 - t0)) s, modules $((t2 - t1)) s," \
	"boots $((t3 - t2)) s, coverage $((t4 - t3)) s, total $((t4 - t0)) s"
tail -n 1 "$BUILD/check-debug.log"
exit "$rc"
