# fuzz-qemu: the interface fuzzer (nvt-fuzz) on QEMU's NFIT and _DSM:
# the same operations as fuzz-nt (ioctls, attribute writes, namespace
# configurations undone every 200 operations, unbinds; the state compared
# after every failed operation), on the label areas and namespaces the
# boot's earlier tests left.  Budget: fuzz.inc.
. "$(dirname "$0")/lib.sh"
if [ "$NVT_PLATFORM" != qemu ]; then
	skip "QEMU NFIT fuzzing" "needs QEMU's NVDIMMs"
	exit 0
fi
. "$(dirname "$0")/fuzz.inc"

nd_settle
# whole label areas are read through _DSM AML (~7 s a time under the
# debug kernel): every 200 operations here, not 64
NVT_FUZZ_ARGS="--label-every 200 $NVT_FUZZ_ARGS"
fuzz_run $(fuzz_ops 1000 500) 2
