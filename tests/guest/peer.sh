# peer: ndctl v76.1's own test suite (its tests that use nfit_test), run
# as `meson test` runs them (make check-peer, docs/harness.md "The peer
# suite"): each command of /peer/tests.txt (scripts/peer-suite.sh took
# them from `meson introspect --tests`) in /peer/build (meson's working
# directory) with the environment meson gives (/peer/env: NDCTL, DAXCTL,
# TEST_PATH, DATA_PATH, LD_LIBRARY_PATH, and a MALLOC_PERTURB_ as meson
# picks one) under the test's timeout.  The suite's own verdict: exit 0
# PASS, 77 SKIP, anything else FAIL.
#
# One line per test in $NVT_OUT/peer-results.txt ("NAME RESULT EXIT
# SECONDS"), its output in $NVT_OUT/peer/NAME.log.  The verdict is the
# host's (compare-peer.py: a test that passes on upstream's 6.1 mock must
# pass on ours), so a FAIL here is a TAP TODO, a SKIP the suite's skip.
#
# PEER_ONLY (kernel command line, e.g. NVT_APPEND="PEER_ONLY=btt-check.sh,
# multi-dax.sh"): run only the named tests, for working on one of them;
# compare-peer.py then reports the others as missing.
. "$(dirname "$0")/lib.sh"

P=/peer
if [ ! -f $P/tests.txt ] || [ ! -f $P/env ]; then
	nok "no $P/tests.txt or $P/env: the image lacks peer.cpio (scripts/peer-suite.sh)"
	exit 0
fi
mkdir -p $NVT_OUT/peer
res=$NVT_OUT/peer-results.txt
: > $res
# The suite starts where a user of it starts: nfit_test not loaded (its
# C tests reload it and skip when it cannot be removed).  /init loaded
# it; as the suite's own _cleanup does, the regions are disabled first:
# on upstream's mock each bound region holds a reference on the provider
# module (nfit_test), so rmmod fails with EAGAIN until they are unbound
ndctl wait-scrub > /dev/null 2>&1
ndctl disable-region all > /dev/null 2>&1
i=0
until platform_unload > /tmp/peer-unload.out 2>&1; do
	i=$((i + 1))
	[ $i -ge 20 ] && break
	sleep 1
done
if [ $i -lt 20 ]; then
	ok "platform unloaded ($i retries): the suite loads nfit_test itself"
else
	nok "unloading the platform before the suite: $(cat /tmp/peer-unload.out)"
fi
# The suite expects 6.1's nfit_test topology (its DIMMs, cookies, label
# areas on nfit_test.1): our mock has it as a mode, topology=6.1
# (docs/nfit_test.md), which every modprobe of the suite (the scripts'
# and libkmod's in the C tests) takes from modprobe.d.  Upstream's mock
# has only that topology and no such parameter.
if modinfo -F parm nfit_test 2> /dev/null | grep -q '^topology:'; then
	mkdir -p /etc/modprobe.d
	echo "options nfit_test topology=6.1" > /etc/modprobe.d/nfit_test-peer.conf
	ok "nfit_test loads with topology=6.1 (/etc/modprobe.d/nfit_test-peer.conf)"
fi
tab=$(printf '\t')
n=0
while IFS=$tab read -r name tmo cmd; do
	[ -n "$name" ] || continue
	case ",${PEER_ONLY:-$name}," in
	*",$name,"*) ;;
	*) continue ;;
	esac
	n=$((n + 1))
	# the output on tmpfs while the test runs, then to the share: a test
	# may freeze the system (firmware-update.sh's quiesce) mid-write
	log=/tmp/peer-$name.log
	t0=$(cut -d' ' -f1 /proc/uptime)
	# a test that quiesces the system (firmware-update.sh: ndctl
	# activate-firmware) runs with the /out share detached: the thaw
	# resets the virtio devices and 9pnet_virtio cannot restore its queues
	det=
	case $name in
	firmware-update.sh) nvt_out_detach && det=1 || nok "$name: could not detach /out" ;;
	esac
	# meson: MALLOC_PERTURB_ random in 1..255 unless set
	(cd $P/build && . $P/env && export MALLOC_PERTURB_=$((RANDOM % 255 + 1)) &&
		eval "exec timeout $tmo $cmd") > $log 2>&1 < /dev/null
	rc=$?
	[ -z "$det" ] || nvt_out_attach || nok "$name: could not attach /out again"
	t1=$(cut -d' ' -f1 /proc/uptime)
	cp $log $NVT_OUT/peer/$name.log
	secs=$(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.1f", b - a }')
	case $rc in
	0) r=PASS ;;
	77) r=SKIP ;;
	*) r=FAIL ;;
	esac
	echo "$name $r $rc $secs" >> $res
	last=$(grep -v '^[[:space:]]*$' $log | tail -n 1 | cut -c1-160)
	case $r in
	PASS) ok "$name: PASS (${secs} s)" ;;
	SKIP) skip "$name: SKIP (${secs} s)" "the suite's own skip (exit 77): $last" ;;
	FAIL)
		if awk -v s=$secs -v t=$tmo 'BEGIN { exit !(s + 1 >= t) }'; then
			last="timed out after $tmo s"
		fi
		_tap "not ok" "peer: $name: FAIL (exit $rc, ${secs} s) # TODO the host's compare-peer.py judges it against upstream's 6.1 mock"
		diag "  $last"
		;;
	esac
done < $P/tests.txt
[ $n -gt 0 ] || nok "$P/tests.txt lists no test"
