# fuzz-nt: the interface fuzzer (nvt-fuzz) on nfit_test: ioctls on
# /dev/ndctlN and /dev/nmemN, writes to every writable attribute of every
# nd device, valid namespace configurations and claims (undone every 200
# operations), unbinds; after every failed operation the state (attributes,
# label areas; `ndctl list -BDRNi` at checkpoints) is as before.  Runs on a
# freshly loaded nfit_test (empty label areas, fault knobs off) so that a
# seed replays the same run.  Checker reports (KASAN, lockdep, ...) are
# caught by the boot's dmesg check.  Budget: fuzz.inc.
. "$(dirname "$0")/lib.sh"
if [ "$NVT_PLATFORM" != nfit_test ]; then
	skip "nfit_test fuzzing" "needs the nfit_test platform"
	exit 0
fi
. "$(dirname "$0")/fuzz.inc"

# a known start: nfit_test reloaded (its label areas and knobs are the
# module's), nothing configured
if ! { platform_unload && platform_load; }; then
	nok "nfit_test reloaded for a known state"
	exit 0
fi
nd_settle
fuzz_run $(fuzz_ops 19000 500) 1
