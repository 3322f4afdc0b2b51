#!/bin/bash
# Host tests of libndctl and ndctl against fake sysfs trees (TAP).
#
#   run.sh TESTBUILD
#
# RUN_ONLY=FILE.inc runs only that part (tests/userspace/*.inc): the
# scenarios of one concern while it is being worked on.
#
# TESTBUILD holds the sanitizer build: bin/ndctl, bin/ndctl-fakeio (ndctl
# with fake_ioctl.c linked in), bin/api-test (fake_ioctl.c linked in too).  Trees come from fakesys.py
# in a temporary directory.  Ends with "N passed, N failed[, N skipped]";
# exit status 1 if anything failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TB=${1:?usage: run.sh TESTBUILD}
NDCTL=$TB/bin/ndctl
FAKEIO=$TB/bin/ndctl-fakeio
API=$TB/bin/api-test
PY=${PYTHON:-python3}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=86}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=87}
export NDCTL_NO_MODPROBE=1
unset NDCTL_LOG

T=$(mktemp -d /tmp/ndctl-host-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0; pass=0; failed=0; skipped=0
LIVE76=

ok()   { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $*"; }
nok()  { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); skipped=$((skipped + 1)); echo "ok $n - $1 # SKIP $2"; }
diag() { sed 's/^/#   /' | head -n ${1:-20}; }

# sanitizer reports end in exit codes 86/87 and "ERROR: AddressSanitizer"
sanitizer_clean() {
	! grep -qE "AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer" "$1"
}

tree() {	# tree NAME PLATFORM [--dev]
	rm -rf "$T/$1"
	$PY "$HERE/fakesys.py" "$T/$1" "$2" "${@:3}" || { nok "fakesys $2"; return 1; }
}

# run ROOT -- ndctl args: output in $T/out, $T/err, status in $rc
run() {
	local root=$1 bin=$NDCTL
	shift
	if [ "$1" = "--fakeio" ]; then bin=$FAKEIO; shift; fi
	NDCTL_SYSFS_ROOT=$root/sys NDCTL_DEV_ROOT=$root/dev "$bin" "$@" > "$T/out" 2> "$T/err"
	rc=$?
}

# expect_fail DESC ROOT ARGS...: non-zero exit (not a sanitizer code), one error line
expect_fail() {
	local desc=$1 root=$2
	shift 2
	run "$root" "$@"
	local nerr
	nerr=$(grep -c "error:" "$T/err")
	if [ $rc -ne 0 ] && [ $rc -ne 86 ] && [ $rc -ne 87 ] && [ "$nerr" = 1 ] \
			&& sanitizer_clean "$T/err"; then
		ok "$desc: exit $rc, '$(grep error: "$T/err" | head -c 100)'"
	else
		nok "$desc: exit $rc, $nerr error line(s)"
		diag < "$T/err"
	fi
}

expect_ok() {
	local desc=$1 root=$2
	shift 2
	run "$root" "$@"
	if [ $rc -eq 0 ] && sanitizer_clean "$T/err"; then
		ok "$desc"
	else
		nok "$desc: exit $rc"
		diag < "$T/err"
	fi
}

# Debian's ndctl 76.1 can be run on a fake tree here (bind mounts over
# /sys and /dev in a private mount namespace)
live76_possible() {
	command -v ndctl > /dev/null && [ "$(id -u)" = 0 ] && unshare -m true 2> /dev/null \
		&& [ "$(ndctl --version 2> /dev/null)" = 76.1 ]
}
# the scenarios kept in their own files, one concern each
INCS="check-repair.inc altname.inc cli76.inc media.inc firmware.inc loadkeys.inc"

echo "TAP version 13"
if [ -n "${RUN_ONLY:-}" ]; then
	live76_possible && LIVE76=1
	# shellcheck disable=SC1090
	. "$HERE/$RUN_ONLY"
	echo "1..$n"
	echo "$pass passed, $failed failed, $skipped skipped"
	[ $failed = 0 ]
	exit
fi

# ---------------------------------------------------------------- JSON
for plat in qemu qemu-labelled nfit_test nfit_test-blk; do
	tree "$plat" "$plat" || continue
	for f in "$HERE"/expected/"$plat"@*.json; do
		opt=${f##*/$plat@}; opt=${opt%.json}
		run "$T/$plat" list $opt
		if [ $rc -ne 0 ] || ! sanitizer_clean "$T/err"; then
			nok "list $opt on $plat: exit $rc"; diag < "$T/err"; continue
		fi
		if $PY "$HERE/jsoncmp.py" "$f" "$T/out" > "$T/diff"; then
			# the top level (array or object) must agree as well
			if [ "$(head -c1 "$f")" = "$(head -c1 "$T/out")" ]; then
				ok "list ${opt:-(default)} on $plat matches ndctl 76.1's JSON"
			else
				nok "list ${opt:-(default)} on $plat: top-level shape differs"
			fi
		else
			nok "list ${opt:-(default)} on $plat differs"; diag < "$T/diff"
		fi
	done
done

# filters
tree q qemu
run "$T/q" list -r region1 -N
grep -q namespace1.0 "$T/out" && ! grep -q namespace0.0 "$T/out" && ok "list -r region1 -N filters" || nok "list -r region1 filter"
run "$T/q" list -b ACPI.NFIT -d nmem0 -D
[ "$(grep -c '"dev":"nmem' "$T/out")" = 1 ] && ok "list -b ACPI.NFIT -d nmem0 -D" || nok "list -d filter"
run "$T/q" list -n namespace0.0
grep -q '"dev":"namespace0.0"' "$T/out" && ! grep -q namespace1.0 "$T/out" && ok "list -n namespace0.0" || nok "list -n filter"
run "$T/q" list -b 7
[ $rc = 0 ] && [ ! -s "$T/out" ] && ok "list -b 7 (no match): empty output, exit 0" || nok "list -b 7: exit $rc"
run "$T/q" list -t blk -R
[ $rc = 0 ] && [ ! -s "$T/out" ] && ok "list -t blk on pmem-only tree: empty" || nok "list -t blk"

# oracle: Debian's ndctl on the same fake tree, when it can be run here
if live76_possible; then
	LIVE76=1
	tree m many128
	for opt in -BDRN -BDRNi -N; do
		unshare -m sh -c "mount --bind '$T/m/sys' /sys && ndctl list $opt" > "$T/theirs" 2>/dev/null
		run "$T/m" list $opt
		if $PY "$HERE/jsoncmp.py" "$T/theirs" "$T/out" > "$T/diff"; then
			ok "list $opt with 128 namespaces equals Debian ndctl 76.1 (live)"
		else
			nok "list $opt with 128 namespaces differs from Debian ndctl"; diag < "$T/diff"
		fi
	done
	# nfit_test: BLK regions; the -RN top level depends on the last region
	# ndctl 76 walks (its order is the reverse of readdir's)
	tree ntl nfit_test
	for opt in "-RN" "-RN -t blk" "-RNi -t blk" "-RNi" "-Ni -t blk" "-RN -t pmem"; do
		unshare -m sh -c "mount --bind '$T/ntl/sys' /sys && ndctl list $opt" > "$T/theirs" 2>/dev/null
		run "$T/ntl" list $opt
		if $PY "$HERE/jsoncmp.py" "$T/theirs" "$T/out" > "$T/diff" \
				&& [ "$(head -c1 "$T/theirs")" = "$(head -c1 "$T/out")" ]; then
			ok "list $opt on nfit_test equals Debian ndctl 76.1 (live, top level too)"
		else
			nok "list $opt on nfit_test differs from Debian ndctl"; diag < "$T/diff"
		fi
	done
	# BLK namespaces enabled raw (nd_blk), in sector mode (btt) and
	# configured but disabled: every field both print
	tree ntbl nfit_test-blk
	for opt in "-N" "-Niv" "-RNu -t blk" "-Nu -r region3" "-N -n namespace2.0"; do
		unshare -m sh -c "mount --bind '$T/ntbl/sys' /sys && ndctl list $opt" > "$T/theirs" 2>/dev/null
		run "$T/ntbl" list $opt
		if [ -s "$T/theirs" ] && $PY "$HERE/jsoncmp.py" "$T/theirs" "$T/out" > "$T/diff" \
				&& [ "$(head -c1 "$T/theirs")" = "$(head -c1 "$T/out")" ]; then
			ok "list $opt with BLK namespaces (raw, sector, disabled) equals Debian ndctl 76.1 (live)"
		else
			nok "list $opt with BLK namespaces differs from Debian ndctl"; diag < "$T/diff"
		fi
	done
	t0=$(date +%s%N)
	for i in 1 2 3 4 5 6 7 8 9 10; do run "$T/m" list -N; done
	t1=$(date +%s%N)
	unshare -m sh -c "mount --bind '$T/m/sys' /sys && t0=\$(date +%s%N) && for i in 1 2 3 4 5 6 7 8 9 10; do ndctl list -N > /dev/null; done && t1=\$(date +%s%N) && echo \$((t1 - t0))" > "$T/theirs.t"
	echo "# list -N x10 on 128 namespaces (fake tree, ASan build): ours $(( (t1 - t0) / 1000000 )) ms, Debian $(( $(cat "$T/theirs.t") / 1000000 )) ms"
else
	skip "live comparison with Debian's ndctl 76.1" "needs root, unshare and ndctl 76.1"
fi

# ---------------------------------------------------------------- API
if [ -x "$API" ]; then
	for mode in doc42:nfit_test robust:qemu-labelled lsa:qemu; do
		if [ "${mode%%:*}" = lsa ]; then
			# /dev/nmemN nodes need mknod; label ioctls from fake_ioctl.c
			if [ "$(id -u)" != 0 ]; then
				skip "api lsa: label area bounds, cfg_write contract" "needs root (mknod)"
				continue
			fi
			tree api qemu --dev || continue
		else
			tree api "${mode#*:}"
		fi
		"$API" "${mode%%:*}" "$T/api" > "$T/api.out" 2> "$T/api.err"
		arc=$?
		while read -r verdict desc; do
			case $verdict in
			PASS) ok "api ${mode%%:*}: $desc" ;;
			FAIL) nok "api ${mode%%:*}: $desc" ;;
			\#*) echo "$verdict $desc" ;;
			esac
		done < "$T/api.out"
		if [ $arc -ge 86 ] || ! sanitizer_clean "$T/api.err"; then
			nok "api ${mode%%:*}: sanitizer report or crash (exit $arc)"; diag 40 < "$T/api.err"
		fi
	done
else
	nok "api-test binary missing"
fi
# the test-root variables must not steer a set-user-ID program (issue 16 #8)
if [ "$(id -u)" = 0 ] && [ -x "$TB/bin/secure-env" ] && id nobody > /dev/null 2>&1; then
	cp "$TB/bin/secure-env" "$T/secure-env" && chown nobody "$T/secure-env" && chmod 4755 "$T/secure-env"
	plain=$(NDCTL_SYSFS_ROOT=/nonexistent/s NDCTL_DEV_ROOT=/nonexistent/d "$TB/bin/secure-env" 2>&1)
	suid=$(NDCTL_SYSFS_ROOT=/nonexistent/s NDCTL_DEV_ROOT=/nonexistent/d "$T/secure-env" 2>&1)
	if [ "$plain" = "secure 0 sysfs /nonexistent/s dev /nonexistent/d" ] \
			&& [ "$suid" = "secure 1 sysfs /sys dev /dev" ]; then
		ok "NDCTL_SYSFS_ROOT/NDCTL_DEV_ROOT honoured, but ignored when set-user-ID"
	else
		nok "root overrides: plain '$plain', set-user-ID '$suid'"
	fi
else
	skip "root overrides ignored when set-user-ID" "needs root, user nobody and secure-env"
fi

# ---------------------------------------------------------------- CLI
for c in list create-namespace destroy-namespace enable-namespace disable-namespace \
		enable-region disable-region enable-dimm disable-dimm read-labels \
		zero-labels init-labels check-namespace; do
	run "$T/q" $c --help
	if [ $rc = 0 ] && grep -q "usage: ndctl $c" "$T/out"; then ok "$c --help"; else nok "$c --help: exit $rc"; fi
done
expect_ok "ndctl --help" "$T/q" --help
expect_fail "unknown command" "$T/q" frobnicate
expect_fail "help of an unknown command" "$T/q" help frobnicate
run "$T/q" help create-namespace
cp "$T/out" "$T/help1"
run "$T/q" create-namespace --help
[ -s "$T/out" ] && cmp -s "$T/help1" "$T/out" && ok "help create-namespace = create-namespace --help" \
	|| nok "help create-namespace differs from create-namespace --help"
# commands that share an option table take only their own options, as 76.1
for a in "zero-labels --json nmem0" "zero-labels --input x nmem0" \
		"check-labels --size 4096 nmem0" "write-labels --json nmem0" \
		"init-labels --output x nmem0" "read-labels --force nmem0" \
		"enable-dimm --region 0 nmem0" "enable-dimm -t pmem nmem0" \
		"enable-region -r 0 region0" "disable-namespace --type pmem all"; do
	# shellcheck disable=SC2086
	run "$T/q" $a
	[ $rc = 129 ] && grep -q "invalid option" "$T/err" && ok "refused: $a" \
		|| nok "accepted: $a (exit $rc)"
done
expect_fail "list with an unknown option" "$T/q" list --frob
expect_fail "list -t bogus" "$T/q" list -t bogus
expect_fail "create-namespace on label-less regions (no capacity)" "$T/q" create-namespace -m raw
expect_fail "create-namespace -m fsdax (unsupported mode)" "$T/q" create-namespace -m fsdax
expect_fail "create-namespace -s garbage" "$T/q" create-namespace -s 12Q
expect_fail "create-namespace -n with 64 bytes" "$T/q" create-namespace -n "$(printf 'x%.0s' $(seq 64))"
expect_fail "create-namespace -e on a missing namespace" "$T/q" create-namespace -e namespace9.9
expect_fail "destroy-namespace of a missing namespace" "$T/q" destroy-namespace namespace9.9
expect_fail "destroy-namespace of an active namespace without -f" "$T/q" destroy-namespace namespace0.0
expect_fail "disable-dimm of an active DIMM" "$T/q" disable-dimm nmem0
rm -f "$(echo "$T"/q/sys/devices/*/*/*/ndbus0)/region0/driver"
expect_fail "enable-region when no driver binds (fake tree)" "$T/q" enable-region region0
tree ql qemu-labelled
R1=$(echo "$T"/ql/sys/devices/*/*/*/ndbus0/region1)
expect_fail "create-namespace -m raw: configure then bind fails (fake tree)" "$T/ql" create-namespace -m raw -s 64M -n test
if [ "$(tr -d '\0\n' < "$R1/namespace1.1/size")" = "0x0" ]; then
	ok "failed create-namespace rolled back (size 0x0)"
else
	nok "failed create-namespace left size '$(tr -d '\0' < "$R1/namespace1.1/size")'"
fi
expect_fail "create-namespace -s not a multiple of align" "$T/ql" create-namespace -s 1000000
expect_fail "create-namespace -m sector: btt bind fails (fake tree)" "$T/ql" create-namespace -m sector -s 64M
rm -f "$R1/btt_seed"
expect_fail "create-namespace -m sector without a btt seed (no BTT support)" "$T/ql" create-namespace -m sector -s 64M
grep -q "no btt seed" "$T/err" && ok "sector mode refusal names the missing btt seed" || nok "sector refusal message"

# BLK regions (nstype 6).  Without FAKE_BIND nothing binds on a fake tree
# (as on a kernel without nd_blk): the namespace is rolled back and the
# error says why
tree nt nfit_test
R4=$T/nt/sys/devices/platform/nfit_test.0/ndbus0/region4
expect_fail "create-namespace -t blk -m raw: configured, no driver binds it" "$T/nt" \
	create-namespace -b nfit_test.0 -r region4 -t blk -m raw -s 4M -l 4096 -n b4
grep -q "BLK namespaces need the nd_blk driver" "$T/err" && ok "BLK enable failure names nd_blk" \
	|| nok "BLK enable failure message: $(cat "$T/err")"
[ "$(tr -d '\0\n' < "$R4/namespace4.0/size")" = 0x0 ] && \
	[ "$(tr -d '\0\n' < "$R4/namespace4.0/sector_size")" = 4096 ] \
	&& ok "BLK create wrote sector_size 4096, then rolled the size back to 0" \
	|| nok "BLK create left size '$(tr -d '\0' < "$R4/namespace4.0/size")', sector_size '$(tr -d '\0' < "$R4/namespace4.0/sector_size")'"
expect_fail "create-namespace -t blk -m raw -s 6K (not a multiple of 4 KiB)" "$T/nt" \
	create-namespace -b nfit_test.0 -r region4 -t blk -m raw -s 6K
run "$T/nt" list -b nfit_test.0 -R -t blk
[ "$(grep -c '"type":"blk"' "$T/out")" = 4 ] && ok "list -R -t blk: region2..5" || nok "list -R -t blk"

# create-namespace on a BLK region, bound by fake_bind.c: the attributes
# it writes (first line of each file; uuids as set/unset), its exit status
# and, for the refusals, its one error line and nothing written.  The
# table is what Debian's ndctl 76.1 writes on the same tree (measured with
# fake_bind.so, and compared live below when 76.1 can run here): -t blk
# without -m is a sector (BTT) namespace, 4096-byte sectors unless -l.
blk_attrs() {	# blk_attrs TREE: region4's namespace4.0 and btt4.0 as written
	local r=$1/sys/devices/platform/nfit_test.0/ndbus0/region4 f v out=
	for f in namespace4.0/size namespace4.0/sector_size namespace4.0/holder_class \
			namespace4.0/uuid btt4.0/sector_size btt4.0/namespace btt4.0/uuid; do
		v=$(head -n 1 "$r/$f" | tr -d '\0')
		case $f in */uuid) [ -n "$v" ] && v=set || v=unset ;; esac
		case $v in "512 520 528 4096 4104 4160 4224 ") v=list ;; esac
		out="$out ${f#*/}=$v"
	done
	echo "${out# }"
}
# create_compare TREE PLATFORM ATTRS LIVE SCOPE WANT_RC WANT ARGS: our
# create-namespace SCOPE ARGS on a fresh TREE of PLATFORM must exit WANT_RC
# with the attribute writes WANT (as ATTRS TREE prints them) and one error
# line on failure; with LIVE76, Debian's ndctl the same (LIVE: the words
# naming the command in its result)
create_compare() {
	local t=$1 plat=$2 attrs=$3 live=$4 scope=$5 want_rc=$6 want=$7 args=$8
	local got nerr msg trc theirs
	tree $t $plat || return 0
	FAKE_BIND=1 run "$T/$t" --fakeio create-namespace $scope $args
	got=$($attrs "$T/$t")
	nerr=$(grep -c "error:" "$T/err")
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ] && sanitizer_clean "$T/err" \
			&& { [ "$rc" = 0 ] || [ "$nerr" = 1 ]; }; then
		msg=$(grep "error:" "$T/err" | sed 's/.*error: //' | head -c 120)
		ok "create-namespace $args: exit $rc, writes as 76.1${msg:+; '$msg'}"
	else
		nok "create-namespace $args: exit $rc (76.1: $want_rc), $nerr error line(s)"
		echo "ours: $got" | diag; echo "76.1: $want" | diag; diag < "$T/err"
	fi
	[ -n "$LIVE76" ] || return 0
	tree $t $plat || return 0
	unshare -m sh -c "mount --bind '$T/$t/sys' /sys && mount --bind '$T/$t/dev' /dev && FAKE_BIND=1 NDCTL_SYSFS_ROOT=/sys LD_PRELOAD='$TB/lib/fake_bind.so' ndctl create-namespace $scope $args" > /dev/null 2>&1
	trc=$?
	theirs=$($attrs "$T/$t")
	if [ "$trc" = "$want_rc" ] && [ "$theirs" = "$want" ]; then
		ok "Debian's ndctl 76.1 $live $args: exit $trc, the same writes (live)"
	else
		nok "Debian's ndctl 76.1 $live $args now exits $trc"
		echo "$theirs" | diag
	fi
}
while IFS='|' read -r want_rc want args; do
	create_compare ntb nfit_test blk_attrs "create-namespace" \
		"-b nfit_test.0 -r region4" "$want_rc" "$want" "$args"
done <<-EOF
	0|size=0x1000000 sector_size=4096 holder_class=btt uuid=set sector_size=4096 namespace=namespace4.0 uuid=set|-t blk -s 16M
	0|size=0x1000000 sector_size=520 holder_class=btt uuid=set sector_size=520 namespace=namespace4.0 uuid=set|-t blk -s 16M -l 520
	0|size=0x1000000 sector_size=4104 holder_class=btt uuid=set sector_size=4104 namespace=namespace4.0 uuid=set|-t blk -m sector -s 16M -l 4104
	0|size=0x100000 sector_size=4096 holder_class= uuid=set sector_size=list namespace= uuid=unset|-t blk -m raw -s 1M
	0|size=0x100000 sector_size=512 holder_class= uuid=set sector_size=list namespace= uuid=unset|-t blk -m raw -s 1M -l 512
	0|size=0x100000 sector_size=520 holder_class= uuid=set sector_size=list namespace= uuid=unset|-t blk -m raw -s 1M -l 520
	0|size=0x100000 sector_size=528 holder_class= uuid=set sector_size=list namespace= uuid=unset|-t blk -m raw -s 1M -l 528
	0|size=0x100000 sector_size=4096 holder_class= uuid=set sector_size=list namespace= uuid=unset|-t blk -m raw -s 1M -l 4096
	0|size=0x100000 sector_size=4104 holder_class= uuid=set sector_size=list namespace= uuid=unset|-t blk -m raw -s 1M -l 4104
	0|size=0x100000 sector_size=4160 holder_class= uuid=set sector_size=list namespace= uuid=unset|-t blk -m raw -s 1M -l 4160
	0|size=0x100000 sector_size=4224 holder_class= uuid=set sector_size=list namespace= uuid=unset|-t blk -m raw -s 1M -l 4224
	234|size=0 sector_size=list holder_class= uuid=unset sector_size=list namespace= uuid=unset|-t blk -m raw -s 1M -l 1000
	234|size=0 sector_size=list holder_class= uuid=unset sector_size=list namespace= uuid=unset|-t blk -m raw -s 1M -l 4097
	234|size=0 sector_size=list holder_class= uuid=unset sector_size=list namespace= uuid=unset|-t blk -m sector -s 16M -l 1000
	237|size=0 sector_size=list holder_class= uuid=unset sector_size=list namespace= uuid=unset|-t blk -s 4M
	237|size=0 sector_size=list holder_class= uuid=unset sector_size=list namespace= uuid=unset|-t blk -m sector -s 8M -l 520
EOF

# disable-namespace of a sector-mode namespace, as 76.1: the btt is unbound
# and its configuration dropped (namespace ""), the BTT stays on the media
# for autodetect at the next enable, so either ndctl can enable it again
btt_state() {	# btt_state TREE: btt1.0's namespace, uuid (set/unset), driver
	local b=$1/sys/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0012:00/ndbus0/region1/btt1.0 u
	u=$(head -n 1 "$b/uuid" | tr -d '\0')
	echo "namespace='$(head -n 1 "$b/namespace" | tr -d '\0')' uuid=${u:+set} driver=$([ -L "$b/driver" ] && echo bound || echo -)"
}
for who in ours theirs; do
	[ $who = theirs ] && [ -z "$LIVE76" ] && continue
	tree qb qemu-btt || continue
	: > "$T/qb/dev/pmem1s"	# the btt disk the in-use check opens
	if [ $who = ours ]; then
		FAKE_BIND=1 run "$T/qb" --fakeio disable-namespace namespace1.0
	else
		unshare -m sh -c "mount --bind '$T/qb/sys' /sys && mount --bind '$T/qb/dev' /dev && FAKE_BIND=1 NDCTL_SYSFS_ROOT=/sys LD_PRELOAD='$TB/lib/fake_bind.so' ndctl disable-namespace namespace1.0" > "$T/out" 2> "$T/err"
		rc=$?
	fi
	got=$(btt_state "$T/qb")
	if [ $rc = 0 ] && [ "$got" = "namespace='' uuid=set driver=-" ] && grep -q "disabled 1 namespace" "$T/err"; then
		ok "$who: disable-namespace of a sector namespace unbinds its btt and drops the claim ($got)"
	else
		nok "$who: disable-namespace namespace1.0 (sector): exit $rc, $got"; diag < "$T/err"
	fi
done

# exit statuses (issue 16 #7): what Debian's ndctl 76.1 returns on the same
# tree (measured), and compared live when 76.1 can run here
tree xs qemu
while read -r want args; do
	run "$T/xs" $args
	if [ "$rc" = "$want" ] && sanitizer_clean "$T/err"; then
		ok "exit $want as 76.1: ndctl $args"
	else
		nok "ndctl $args: exit $rc, 76.1 exits $want"; diag < "$T/err"
	fi
	if [ -n "$LIVE76" ]; then
		unshare -m sh -c "mount --bind '$T/xs/sys' /sys && ndctl $args" > /dev/null 2>&1
		trc=$?
		[ "$trc" = "$want" ] || nok "Debian's ndctl $args now exits $trc, the table says $want"
	fi
done <<-EOF
	250 create-namespace -e namespace9.9
	250 destroy-namespace namespace9.9
	250 disable-namespace namespace9.9
	250 enable-namespace namespace9.9
	240 destroy-namespace all
	237 create-namespace -m raw
	0 enable-region region9
	0 disable-region region9
	0 enable-dimm nmem9
	0 disable-dimm nmem9
	0 read-labels nmem9
	0 zero-labels nmem9
	0 init-labels nmem9
	0 list -r region9
	0 create-namespace --help
	0 read-labels --help
	0 --help
	129 create-namespace --frob
	129 create-namespace -s 12Q
	129 create-namespace -m bogus
	129 create-namespace -u notauuid
	129 create-namespace extra
	129 destroy-namespace
	129 disable-namespace
	129 enable-region
	129 read-labels
	129 list extra
	234 list -t bogus
EOF
# human sizes round decimal halves up as 76.1 (issue 16 #7); the strings are
# 76.1's for these region sizes
RX=$(echo "$T"/xs/sys/devices/*/*/*/ndbus0/region0)
while read -r bytes want; do
	echo "$bytes" > "$RX/size"
	run "$T/xs" list -R -u -r region0
	got=$(sed -n 's/.*"size":"\(.*\)",*$/\1/p' "$T/out" | head -n 1)
	[ "$got" = "$want" ] && ok "list -u: $bytes bytes is '$want'" || nok "list -u: $bytes bytes is '$got', 76.1 prints '$want'"
done <<-'EOF'
	2281701376 2.13 GiB (2.28 GB)
	2818572288 2.63 GiB (2.82 GB)
	3005000000 2.80 GiB (3.01 GB)
	2147483647 2048.00 MiB (2147.48 MB)
	2199023255551 2048.00 GiB (2199.02 GB)
	537395200 512.50 MiB (537.40 MB)
	5120000 4.88 MiB (5.12 MB)
EOF
echo 5119999 > "$RX/size"
run "$T/xs" list -R -u -r region0
grep -q '"size":5119999' "$T/out" && ok "list -u: below 5120000 bytes stays a number" || nok "list -u: 5119999 printed as $(grep size "$T/out")"

# ---------------------------------------------------------------- fsdax / devdax
# qemu-dax: fsdax (memmap on the device and in RAM) and devdax namespaces
# as the stock 6.1 modules leave them; the same tree through Debian's
# ndctl 76.1 (its libdaxctl wants /dev/daxX.Y: the tree's dev is bound too)
if tree qd qemu-dax; then
	if [ -n "$LIVE76" ]; then
		for opt in "-N" "-Ni" "-Nv" "-Nv -u" "-RN" "-BDRNi" "-N -m devdax" "-N -m fsdax -u"; do
			unshare -m sh -c "mount --bind '$T/qd/sys' /sys && mount --bind '$T/qd/dev' /dev && ndctl list $opt" > "$T/theirs" 2>/dev/null
			run "$T/qd" list $opt
			if [ $rc = 0 ] && sanitizer_clean "$T/err" && [ -s "$T/theirs" ] \
					&& $PY "$HERE/jsoncmp.py" "$T/theirs" "$T/out" > "$T/diff" \
					&& [ "$(head -c1 "$T/theirs")" = "$(head -c1 "$T/out")" ]; then
				ok "list $opt with fsdax/devdax namespaces equals Debian ndctl 76.1 (live)"
			else
				nok "list $opt with fsdax/devdax namespaces differs from Debian ndctl"; diag < "$T/diff"; diag < "$T/err"
			fi
		done
	else
		skip "fsdax/devdax listing against Debian's ndctl 76.1" "needs root, unshare, ndctl 76.1"
	fi
	run "$T/qd" list -N -n namespace1.1
	grep -q '"chardev":"dax1.1"' "$T/out" && grep -q '"map":"dev"' "$T/out" \
		&& ok "devdax namespace lists its chardev" || { nok "devdax chardev"; diag < "$T/out"; }
	run "$T/qd" list -N -m fsdax
	[ "$(grep -c '"mode":"fsdax"' "$T/out")" = 2 ] && grep -q '"blockdev":"pmem1.2"' "$T/out" \
		&& grep -q '"map":"mem"' "$T/out" && ok "list -m fsdax: both pfn namespaces, map mem and dev" \
		|| { nok "list -m fsdax"; diag < "$T/out"; }
	run "$T/qd" list -Nv -n namespace1.1
	grep -q '"daxregion"' "$T/out" && grep -q '"mode":"devdax"' "$T/out" \
		&& ok "list -v: devdax daxregion with its device" || nok "list -v daxregion"
fi

# create-namespace fsdax/devdax on region1 of qemu-labelled (binds by
# fake_bind.c): exit status and what is written, as Debian's ndctl 76.1
# (measured; compared live when it can run here)
dax_attrs() {	# dax_attrs TREE
	local r=$(echo "$1"/sys/devices/*/*/*/ndbus0/region1) f v out=
	for f in namespace1.1/size namespace1.1/holder_class namespace1.1/sector_size \
			pfn1.0/uuid pfn1.0/mode pfn1.0/align pfn1.0/namespace \
			dax1.0/uuid dax1.0/mode dax1.0/align dax1.0/namespace; do
		v=$(head -n 1 "$r/$f" | tr -d '\0')
		case $f in */uuid) [ -n "$v" ] && v=set || v=unset ;; esac
		out="$out ${f%%[0-9]*}:${f#*/}=$v"
	done
	echo "${out# }"
}
D0="dax:uuid=unset dax:mode=none dax:align=2097152 dax:namespace="
P0="pfn:uuid=unset pfn:mode=none pfn:align=2097152 pfn:namespace="
N0="namespace:size=0 namespace:holder_class= namespace:sector_size=512 4096 "
while IFS='|' read -r want_rc want args; do
	want=$(eval echo "\"$want\"")
	create_compare dc qemu-labelled dax_attrs "create-namespace -r region1" \
		"-r region1" "$want_rc" "$want" "$args"
done <<-'EOF'
	0|namespace:size=0x10000000 namespace:holder_class=pfn namespace:sector_size=512 pfn:uuid=set pfn:mode=pmem pfn:align=2097152 pfn:namespace=namespace1.1 $D0|
	0|namespace:size=0x4000000 namespace:holder_class=pfn namespace:sector_size=512 pfn:uuid=set pfn:mode=pmem pfn:align=2097152 pfn:namespace=namespace1.1 $D0|-m fsdax -s 64M
	0|namespace:size=0x4000000 namespace:holder_class=pfn namespace:sector_size=512 pfn:uuid=set pfn:mode=ram pfn:align=4096 pfn:namespace=namespace1.1 $D0|-m fsdax -M mem -s 64M -a 4096
	0|namespace:size=0x4000000 namespace:holder_class=dax namespace:sector_size=512 $P0 dax:uuid=set dax:mode=pmem dax:align=2097152 dax:namespace=namespace1.1|-m devdax -s 64M
	0|namespace:size=0x2000000 namespace:holder_class=dax namespace:sector_size=512 $P0 dax:uuid=set dax:mode=pmem dax:align=4096 dax:namespace=namespace1.1|-m devdax -a 4K -s 32M
	0|namespace:size=0x4000000 namespace:holder_class=dax namespace:sector_size=512 $P0 dax:uuid=set dax:mode=ram dax:align=2097152 dax:namespace=namespace1.1|-m devdax -M mem -s 64M
	237|$N0 $P0 $D0|-m fsdax -a 8192 -s 64M
	237|$N0 $P0 $D0|-m raw -a 2M
	234|$N0 $P0 $D0|-m fsdax -s 8M
	234|$N0 $P0 $D0|-m devdax -s 20M
	234|$N0 $P0 $D0|-m devdax -a 1G
	237|$N0 $P0 $D0|-m devdax -a 1G -s 1G
	129|$N0 $P0 $D0|-m fsdax -a 3000
	129|$N0 $P0 $D0|-m sector -M mem
	129|$N0 $P0 $D0|-M bogus
	129|$N0 $P0 $D0|-m raw -M dev
EOF
# no pfn/dax seeds (our kernel today): no -m falls back to raw with
# 76.1's message, -m fsdax / -m devdax are refused, nothing written
tree dn qemu-labelled
RDN=$(echo "$T"/dn/sys/devices/*/*/*/ndbus0/region1)
rm -f "$RDN/pfn_seed" "$RDN/dax_seed"
cp -a "$T/dn" "$T/dn0"
FAKE_BIND=1 run "$T/dn" --fakeio create-namespace -r region1 -s 64M
if [ $rc = 0 ] && grep -q "region1 fsdax mode not available" "$T/err" \
		&& [ "$(head -n 1 "$RDN/namespace1.1/holder_class" | tr -d '\0\n')" = "" ] \
		&& [ "$(head -n 1 "$RDN/namespace1.1/size" | tr -d '\0\n')" = 0x4000000 ]; then
	ok "no pfn seed, no -m: 'fsdax mode not available', a raw namespace (76.1)"
else
	nok "no pfn seed, no -m: exit $rc"; diag < "$T/err"
fi
for m in fsdax devdax; do
	rm -rf "$T/dn" && cp -a "$T/dn0" "$T/dn"
	expect_fail "create-namespace -m $m without a $([ $m = fsdax ] && echo pfn || echo dax) seed" "$T/dn" \
		--fakeio create-namespace -r region1 -m $m -s 64M
	[ $rc = 237 ] && [ "$(head -n 1 "$RDN/namespace1.1/size" | tr -d '\0\n')" = 0 ] \
		&& ok "-m $m without a seed: exit 237 as 76.1, nothing written" || nok "-m $m without a seed: exit $rc"
done

# the pfn/dax device bound by its driver's module as it loads (the
# kernel's driver_attach at registration: dax_pmem on a boot's first
# devdax namespace), so every bind write fails with EBUSY: bound is
# success, nothing is rolled back (it was "devdax setup failed: ENXIO")
while IFS='|' read -r dev want args; do
	want=$(eval echo "\"$want\"")
	tree dr qemu-labelled || continue
	FAKE_BIND=1 FAKE_BIND_RACE=1 run "$T/dr" --fakeio create-namespace -r region1 $args
	got=$(dax_attrs "$T/dr")
	if [ $rc = 0 ] && [ "$got" = "$want" ] && sanitizer_clean "$T/err" \
			&& [ -L "$(echo "$T"/dr/sys/devices/*/*/*/ndbus0/region1/$dev)/driver" ]; then
		ok "create-namespace $args: $dev bound before the bind write (EBUSY): exit 0, $dev bound, nothing undone"
	else
		nok "create-namespace $args with $dev bound before the bind write: exit $rc"
		echo "got:  $got" | diag; echo "want: $want" | diag; diag < "$T/err"
	fi
done <<-'EOF'
	pfn1.0|namespace:size=0x4000000 namespace:holder_class=pfn namespace:sector_size=512 pfn:uuid=set pfn:mode=pmem pfn:align=2097152 pfn:namespace=namespace1.1 $D0|-m fsdax -s 64M
	dax1.0|namespace:size=0x4000000 namespace:holder_class=dax namespace:sector_size=512 $P0 dax:uuid=set dax:mode=pmem dax:align=2097152 dax:namespace=namespace1.1|-m devdax -s 64M
EOF

# disable-namespace of fsdax and devdax namespaces, as 76.1: the pfn/dax
# device is unbound and lets go of the namespace (its info block stays)
pfn_state() {	# pfn_state TREE DEV
	local b=$(echo "$1"/sys/devices/*/*/*/ndbus0/region1/$2)
	echo "namespace='$(head -n 1 "$b/namespace" | tr -d '\0')' driver=$([ -L "$b/driver" ] && echo bound || echo -)"
}
for ns in namespace1.0:pfn1.0 namespace1.1:dax1.0; do
	for who in ours theirs; do
		[ $who = theirs ] && [ -z "$LIVE76" ] && continue
		tree qdd qemu-dax || continue
		: > "$T/qdd/dev/pmem1"	# the pfn disk the in-use check opens
		if [ $who = ours ]; then
			FAKE_BIND=1 run "$T/qdd" --fakeio disable-namespace ${ns%:*}
		else
			unshare -m sh -c "mount --bind '$T/qdd/sys' /sys && mount --bind '$T/qdd/dev' /dev && FAKE_BIND=1 NDCTL_SYSFS_ROOT=/sys LD_PRELOAD='$TB/lib/fake_bind.so' ndctl disable-namespace ${ns%:*}" > "$T/out" 2> "$T/err"
			rc=$?
		fi
		got=$(pfn_state "$T/qdd" ${ns#*:})
		if [ $rc = 0 ] && [ "$got" = "namespace='' driver=-" ] && grep -q "disabled 1 namespace" "$T/err" \
				&& sanitizer_clean "$T/err"; then
			ok "$who: disable-namespace ${ns%:*} unbinds ${ns#*:} and drops the claim"
		else
			nok "$who: disable-namespace ${ns%:*}: exit $rc, $got"; diag < "$T/err"
		fi
	done
done

# a devdax namespace whose memory is online as system RAM (kmem, daxctl
# reconfigure-device --mode=system-ram; issue 26 #10): unbinding it would
# strand the memory until the next reboot, so every command that unbinds
# refuses with EBUSY (exit 240, as 76.1) and changes nothing; offline, the
# same command works
if tree qsr qemu-dax; then
	: > "$T/qsr/dev/pmem1"	# the fsdax disk the in-use check opens
	DX=$(echo "$T"/qsr/sys/devices/*/*/*/ndbus0/region1/dax1.0)
	MEM=$T/qsr/sys/devices/system/memory
	start=$(( $(tr -d '\0\n' < "$DX/resource") ))
	# 2 MiB memory blocks: the first whole one in dax1.0's range online,
	# and the one before it (partly outside: not kmem's) too
	blk=$(( (start + 2097151) / 2097152 ))
	mkdir -p "$MEM/memory$blk" "$MEM/memory$((blk - 1))"
	printf '200000\n' > "$MEM/block_size_bytes"
	echo online > "$MEM/memory$((blk - 1))/state"
	echo online > "$MEM/memory$blk/state"
	for cmd in "destroy-namespace -f namespace1.1" "create-namespace -e namespace1.1 -f -m raw" \
			"disable-namespace namespace1.1" "disable-region region1" "check-namespace -f namespace1.1"; do
		FAKE_BIND=1 run "$T/qsr" --fakeio $cmd
		got=$(pfn_state "$T/qsr" dax1.0)
		if [ $rc != 0 ] && [ "$got" = "namespace='namespace1.1' driver=bound" ] \
				&& [ "$(tr -d '\0\n' < "$(dirname "$DX")/namespace1.1/holder")" = dax1.0 ] \
				&& sanitizer_clean "$T/err"; then
			ok "system-ram devdax: $cmd refused (exit $rc), dax1.0 bound: $(grep -m1 error: "$T/err" | head -c 90)"
		else
			nok "system-ram devdax: $cmd: exit $rc, $got"; diag < "$T/err"
		fi
	done
	[ "$(FAKE_BIND=1 run "$T/qsr" --fakeio destroy-namespace -f namespace1.1; echo $rc)" = 240 ] \
		&& ok "system-ram devdax: destroy-namespace exits 240 (EBUSY), as 76.1" \
		|| nok "system-ram devdax: destroy-namespace exit is not 240"
	echo offline > "$MEM/memory$blk/state"
	FAKE_BIND=1 run "$T/qsr" --fakeio disable-namespace namespace1.1
	[ $rc = 0 ] && [ "$(pfn_state "$T/qsr" dax1.0)" = "namespace='' driver=-" ] \
		&& ok "system-ram devdax: once its memory is offline, disable-namespace unbinds it" \
		|| { nok "system-ram devdax offline: disable-namespace exit $rc, $(pfn_state "$T/qsr" dax1.0)"; diag < "$T/err"; }
fi

# ---------------------------------------------------------------- check-namespace
# namespace1.0 of qemu-btt is in sector mode (btt1.0); its raw block device
# dev/pmem1 is a regular file holding a BTT that bttimage.py lays out as
# the kernel does (v1.1 at 4096, 1000 writes through the lanes); bind and
# unbind are emulated (FAKE_BIND), the device is found through
# NDCTL_DEV_ROOT.  Exit statuses are 76.1's, measured on these images.
BTTIMG="$PY $HERE/bttimage.py"
NSUUID=2a3a9e55-6f29-4c4e-9d1f-0b7a2c5d8e11
if tree cnp qemu-btt; then
	: > "$T/cnp/dev/pmem1s"			# the btt disk the in-use check opens
	truncate -s 512M "$T/cnp/dev/pmem0"	# the io namespace: no BTT
	$BTTIMG make "$T/cnp/dev/pmem1" 268435456 --parent $NSUUID --writes 1000
	CNOK=1
else
	CNOK=
fi
# cn_case [bttimage command ...]: a fresh copy of the tree, one edit
cn_case() {
	rm -rf "$T/cn" && cp -a --sparse=always "$T/cnp" "$T/cn" || return 1
	if [ $# -gt 0 ]; then $BTTIMG "$1" "$T/cn/dev/pmem1" "${@:2}" || return 1; fi
	cp --sparse=always "$T/cn/dev/pmem1" "$T/cn.before"
}
CNB=$(echo "$T"/cnp/sys/devices/*/*/*/ndbus0/region1)
chk() { FAKE_BIND=1 run "$T/cn" --fakeio check-namespace "$@"; }
unchanged() { cmp -s "$T/cn/dev/pmem1" "$T/cn.before"; }
pristine() { cmp -s "$T/cn/dev/pmem1" "$T/cnp/dev/pmem1"; }
has() { grep -q -- "$1" "$T/err"; }
# cn_expect DESC WANT_RC CONDITION...: the status, no sanitizer report, and
# every CONDITION (a shell command) true
cn_expect() {
	local desc=$1 want=$2 c bad=
	shift 2
	for c in "$@"; do eval "$c" || { bad=$c; break; }; done
	if [ "$rc" = "$want" ] && [ -z "$bad" ] && sanitizer_clean "$T/err"; then
		ok "check-namespace: $desc"
	else
		nok "check-namespace: $desc: exit $rc (want $want)${bad:+, failed: $bad}"
		diag < "$T/err"
	fi
}
if [ -n "$CNOK" ]; then
	cn_case
	chk namespace1.0 -f
	cn_expect "clean BTT passes, read-only, namespace back online" 0 \
		'has "checked 1 namespace$"' '! has error:' unchanged \
		'[ "$(tr -d "\0\n" < "${CNB/cnp/cn}/namespace1.0/force_raw")" = 0 ]' \
		'[ -L "${CNB/cnp/cn}/namespace1.0/driver" ]'
	cn_case
	chk namespace1.0
	cn_expect "online namespace without --force refused (76.1: 240)" 240 \
		'has "check aborted, namespace online"' unchanged \
		'[ -L "${CNB/cnp/cn}/btt1.0/driver" ]' '[ ! -L "${CNB/cnp/cn}/namespace1.0/driver" ]'
	cn_case
	rm -f "${CNB/cnp/cn}/btt1.0/driver"
	chk namespace1.0
	cn_expect "disabled sector namespace: checked, left disabled" 0 \
		'has "checked 1 namespace$"' '[ ! -L "${CNB/cnp/cn}/namespace1.0/driver" ]'
	cn_case break-info 0
	chk namespace1.0 -f
	cn_expect "damaged info block: backup found, run with --repair (76.1: 250)" 250 \
		'has "info block at offset 0x1000 needs to be restored from the backup at 0xffff000"' \
		'has "run with --repair"' unchanged
	chk namespace1.0 -f --repair
	cn_expect "damaged info block --repair: restored from the backup" 0 \
		'has "Restoring BTT info block at offset 0x1000"' pristine
	chk namespace1.0 -f
	cn_expect "damaged info block: a second check after the repair passes" 0 \
		'! has "needs to be restored"'
	cn_case break-info2 0
	chk namespace1.0 -f
	cn_expect "damaged info2 detected, still exit 0 as 76.1" 0 \
		'has "Arena 0: BTT info2 at offset 0xffff000 needs to be restored"' unchanged
	chk namespace1.0 -f -R
	cn_expect "damaged info2 -R: copied from the info block" 0 \
		'has "Arena 0: Restoring BTT info2"' pristine
	cn_case set-flags 0 1
	chk namespace1.0 -f
	cn_expect "info block error flag (76.1: 250)" 250 'has "arena 0: info block error flag is set"'
	cn_case set-seq 0 5 1 2
	chk namespace1.0 -f
	cn_expect "flog lane with equal sequence numbers (76.1: 250)" 250 \
		'has "arena 0: lane 5: log entries have sequence numbers 2 and 2"' 'has "the BTT has 1 error"'
	cn_case set-seq 0 5 1 4
	chk namespace1.0 -f
	cn_expect "flog sequence number 4 (76.1: 250)" 250 'has "arena 0: lane 5: .* 2 and 4, not a valid pair"'
	cn_case set-slot 0 9 0 99999 1 1 2
	chk namespace1.0 -f
	cn_expect "flog entry with lba past external_nlba (76.1: 250)" 250 \
		'has "arena 0: lane 9: log entry in slot 0 out of range: lba 99999"'
	cn_case set-slot 0 9 1 3 70000 2 1
	chk namespace1.0 -f
	cn_expect "flog entry with old_map past internal_nlba" 250 \
		'has "arena 0: lane 9: log entry in slot 1 out of range: lba 3 (external_nlba 65208), old 70000"'
	cn_case set-slot 0 4 2 1 2 3 1
	chk namespace1.0 -f
	cn_expect "flog lane with a third slot in use" 250 'has "arena 0: lane 4: log slots in use do not follow"'
	cn_case set-map 0 7 0xc0100000
	chk namespace1.0 -f
	cn_expect "map entry past internal_nlba (76.1: 250)" 250 \
		'has "arena 0: map entry for lba 7 (0xc0100000) points to block 1048576"'
	cn_case set-map 0 7 0xc0000008
	chk namespace1.0 -f
	cn_expect "doubly referenced block (76.1: 250)" 250 \
		'has "arena 0: block 8 is referenced more than once"' \
		'has "arena 0: block 7 is not referenced"'
	cn_case set-map 0 65000 0x80000000
	chk namespace1.0 -f
	cn_expect "trimmed entry owning another block: block 0 twice, 65000 unreferenced" 250 \
		'has "arena 0: block 0 is referenced more than once"' 'has "block 65000 is not referenced"'
	# lane 5's newest entry (seq 2) moved lba 62419 to block 62003; undo
	# its map update: a crash between the two commit points, which the
	# kernel completes on attach (76.1 calls it a bitmap error)
	cn_case set-map 0 62419 0
	if [ "$($BTTIMG get-slot "$T/cn/dev/pmem1" 0 5 0)" = "62419 62419 62003 2" ]; then
		chk namespace1.0 -f
		cn_expect "lost map update of a logged write: reported, not an error" 0 \
			'has "Arena 0: lane 5: map\[0xf3d3\] needs to be updated to 0xc000f233"' unchanged
		chk namespace1.0 -f -R
		cn_expect "lost map update -R: written as the kernel would" 0 \
			'has "map\[0xf3d3\] updated to 0xc000f233"' pristine
	else
		nok "check-namespace: bttimage lane 5 is not what the lost-update test expects"
	fi
	cn_case
	chk namespace0.0 -f
	cn_expect "namespace without a BTT (76.1: 250)" 250 \
		'has "error: namespace0.0: no BTT found: this may not be a sector mode namespace"'
	cn_case make 268435456 --parent 2a3a9e55-6f29-4c4e-9d1f-0b7a2c5d8eff --writes 10
	chk namespace1.0 -f
	cn_expect "BTT of another namespace (parent uuid) is no BTT" 250 'has "no BTT found"' unchanged
	cn_case make 268435456 --start 0 --parent $NSUUID --writes 700 --arena 0x6000000 --old-log
	chk namespace1.0 -f -v
	cn_expect "v2.0 BTT, three arenas, pre-4.15 log padding: clean" 0 \
		'has "BTT version 2.0 at 0$"' 'has "arena 2: log slots 0 and 2"' 'has "3 arenas checked"'
	chk namespace1.0 -f -L
	cn_expect "--rewrite-log without --repair (76.1: 234)" 234 'has "rewrite-log also requires --repair"' unchanged
	chk namespace1.0 -f -R -L
	cn_expect "--repair --rewrite-log: every arena's log in slots 0 and 1" 0 \
		'has "arena 2: log rewritten"' '[ "$($BTTIMG get-slot "$T/cn/dev/pmem1" 1 7 2)" = "0 0 0 0" ]'
	chk namespace1.0 -f -v
	cn_expect "rewritten log passes, now in slots 0 and 1" 0 'has "arena 1: log slots 0 and 1"'
	cn_case make 268435456 --start 0 --parent $NSUUID --writes 700 --arena 0x6000000
	$BTTIMG break-info "$T/cn/dev/pmem1" 1
	chk namespace1.0 -f
	cn_expect "second arena's info block damaged: its backup found" 250 \
		'has "info block at offset 0x6000000 needs to be restored from the backup at 0xbfff000"'
	$BTTIMG break-info "$T/cn/dev/pmem1" 0
	$BTTIMG set-map "$T/cn/dev/pmem1" 2 3 0xc0000004
	cp --sparse=always "$T/cn/dev/pmem1" "$T/cn.before"
	chk namespace1.0 -f -R
	cn_expect "two info blocks restorable, third arena's bitmap error: nothing written" 250 \
		'has "BTT info block at offset 0 needs to be restored from the backup at 0x5fff000: not repaired"' \
		'has "BTT info block at offset 0x6000000 needs to be restored .*: not repaired"' \
		'has "arena 2: block 4 is referenced more than once"' unchanged
	cn_case
	chk namespace9.9
	cn_expect "missing namespace (76.1: 250)" 250 'has "namespace .namespace9.9. not found"'
	chk
	cn_expect "no namespace given (76.1: 129)" 129 'has "specify a namespace to check"'
	# the same images through Debian's ndctl 76.1 (fake_bind.so for the
	# binds): the exit statuses the table above claims
	if [ -n "$LIVE76" ] && [ -f "$TB/lib/fake_bind.so" ]; then
		while IFS="|" read -r want args edit; do
			cn_case $edit
			unshare -m sh -c "mount --bind '$T/cn/sys' /sys && mount --bind '$T/cn/dev' /dev && FAKE_BIND=1 NDCTL_SYSFS_ROOT=/sys LD_PRELOAD='$TB/lib/fake_bind.so' ndctl check-namespace $args" > /dev/null 2>&1
			trc=$?
			[ "$trc" = "$want" ] && ok "check-namespace $args${edit:+ after $edit}: Debian's ndctl exits $want too (live)" \
				|| nok "Debian's ndctl check-namespace $args${edit:+ after $edit} exits $trc, we claim $want"
		done <<-EOF2
			0|-f namespace1.0|
			240|namespace1.0|
			250|-f namespace1.0|break-info 0
			0|-f -R namespace1.0|break-info 0
			0|-f namespace1.0|break-info2 0
			250|-f namespace1.0|set-flags 0 1
			250|-f namespace1.0|set-seq 0 5 1 2
			250|-f namespace1.0|set-map 0 7 0xc0100000
			250|-f namespace1.0|set-map 0 7 0xc0000008
			250|-f namespace0.0|
			234|-f -L namespace1.0|
			250|namespace9.9|
			129||
		EOF2
	else
		skip "check-namespace exit statuses against Debian's ndctl 76.1" "needs root, unshare, ndctl 76.1"
	fi
fi

# ---------------------------------------------------------------- labels (fake ioctls)
if [ "$(id -u)" = 0 ] && [ -x "$FAKEIO" ] && tree lab qemu --dev 2> /dev/null; then
	B=$(echo "$T"/lab/sys/devices/*/*/*/ndbus0)
	LSA=$T/lab/dev/nmem1.lsa
	expect_fail "init-labels on an active DIMM" "$T/lab" --fakeio init-labels nmem1
	rm -f "$B/nmem1/driver" "$B/region1/driver"; echo idle > "$B/nmem1/state"
	export FAKE_IOCTL_LOG=$T/io.log
	rm -f "$T/io.log"
	expect_ok "init-labels nmem1 (v1.1)" "$T/lab" --fakeio init-labels nmem1
	maxlen=$(awk '$1 != "size" {print $3}' "$T/io.log" | sort -n | tail -1)
	[ "${maxlen:-0}" -le 4076 ] && ok "label transfers chunked by max_xfer 4076 (largest $maxlen)" || nok "transfer of $maxlen bytes > max_xfer"
	run "$T/lab" --fakeio read-labels -j nmem1
	$PY - "$T/out" <<-'EOF' && ok "read-labels -j: two v1.1 index blocks, 1020 slots, seq 3/2, slot 0 dumped as 76.1 does" || nok "read-labels -j content"
	import json, sys
	j = json.load(open(sys.argv[1]))
	j = j[0] if isinstance(j, list) else j
	ix = j["index"]
	assert [i["minor"] for i in ix] == [1, 1] and [i["nslot"] for i in ix] == [1020, 1020]
	assert [i["seq"] for i in ix] == [3, 2] and ix[0]["signature"] == "NAMESPACE_INDEX"
	# 76.1 dumps every slot whose slot field names it: on a fresh area
	# that is the all-zero slot 0
	assert [(l["slot"], l["uuid"], l["nlabel"]) for l in j["label"]] == [(0, "00000000-0000-0000-0000-000000000000", 0)]
	EOF
	expect_fail "init-labels again without --force" "$T/lab" --fakeio init-labels nmem1
	expect_ok "init-labels -f -V 1.2" "$T/lab" --fakeio init-labels -f -V 1.2 nmem1
	run "$T/lab" --fakeio read-labels -u nmem1
	grep -q '"nslot":510' "$T/out" && grep -q '"labelsize":256' "$T/out" && ok "v1.2 index: 510 slots of 256 bytes" || nok "v1.2 index"
	# the index checksum and layout, checked independently of our parser
	$PY - "$LSA" <<-'EOF' && ok "v1.2 index blocks: fletcher64 and offsets verified" || nok "v1.2 index bytes"
	import struct, sys
	a = open(sys.argv[1], "rb").read()
	def f64(b):
	    lo = hi = 0
	    for (w,) in struct.iter_unpack("<I", b[:len(b) // 4 * 4]):
	        lo = (lo + w) & 0xffffffff
	        hi = (hi + lo) & 0xffffffffffffffff
	    return ((hi << 32) | lo) & 0xffffffffffffffff
	for i in (0, 1):
	    b = bytearray(a[i * 256:(i + 1) * 256])
	    assert b[:16] == b"NAMESPACE_INDEX\0" and b[19] == 1
	    seq, myoff, mysize, other, labeloff, nslot, maj, mnr, csum = struct.unpack_from("<IQQQQIHHQ", b, 20)
	    assert (seq, myoff, other, labeloff, nslot, maj, mnr) == (3 - i, i * 256, (1 - i) * 256, 512, 510, 1, 2)
	    b[64:72] = bytes(8)
	    assert f64(bytes(b)) == csum
	EOF
	run "$T/lab" --fakeio read-labels nmem1 -o "$T/lsa.out"
	cmp -s "$T/lsa.out" "$LSA" && ok "read-labels -o: binary copy of the whole area" || nok "read-labels -o differs"
	run "$T/lab" --fakeio read-labels -s 100 -O 4000 nmem1
	[ "$(stat -c %s "$T/out")" = 100 ] && cmp -s "$T/out" <(dd if="$LSA" bs=1 skip=4000 count=100 2>/dev/null) \
		&& ok "read-labels -s 100 -O 4000" || nok "read-labels -s/-O"
	FAKE_FW_STATUS=5 expect_fail "read-labels with firmware status 5" "$T/lab" --fakeio read-labels nmem1
	expect_fail "read-labels on a DIMM without label commands" "$T/lab" --fakeio read-labels nmem0
	expect_ok "zero-labels nmem1" "$T/lab" --fakeio zero-labels nmem1
	[ -z "$(tr -d '\0' < "$LSA")" ] && ok "label area is all zero after zero-labels" || nok "zero-labels left data"
	expect_fail "read-labels -O past the end" "$T/lab" --fakeio read-labels -O 200000 nmem1
	# read-labels -j as 76.1 dumps it (issue 16 #7): GUIDs in media byte
	# order, every slot whose slot field names it, free or not, checksum
	# or not; a slot whose field names another slot is left out
	expect_ok "init-labels -f -V 1.2 (for the dump)" "$T/lab" --fakeio init-labels -f -V 1.2 nmem1
	$PY - "$LSA" <<-'EOF'
	import struct, sys, uuid
	a = bytearray(open(sys.argv[1], "rb").read())
	def f64(b):
	    lo = hi = 0
	    for (w,) in struct.iter_unpack("<I", b):
	        lo = (lo + w) & 0xffffffff
	        hi = (hi + lo) & 0xffffffff
	    return (hi << 32) | lo
	def label(slot, u, name, dpa, field=None):
	    l = bytearray(256)
	    l[0:16] = uuid.UUID(u).bytes
	    l[16:16 + len(name)] = name
	    struct.pack_into("<IHHQQQQI", l, 80, 0, 1, 0, 0x1234567890abcdef, 512, dpa,
	                     16 << 20, slot if field is None else field)
	    l[128:144] = uuid.UUID("66f0d379-b4f3-4074-ac43-0d3318b78cdb").bytes_le
	    l[144:160] = uuid.UUID("266400ba-fb9f-4677-bcb0-968f11d0d225").bytes_le
	    struct.pack_into("<Q", l, 248, f64(bytes(l)))
	    a[512 + slot * 256:512 + (slot + 1) * 256] = l
	label(0, "11111111-2222-3333-4444-555555555555", b"inuse", 0)
	label(1, "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", b"freed", 16 << 20)
	label(3, "99999999-2222-3333-4444-555555555555", b"elsewhere", 32 << 20, field=7)
	label(509, "77777777-2222-3333-4444-555555555555", b"last", 48 << 20)
	a[512 + 509 * 256 + 248] ^= 1		# a freed label with a stale checksum
	for i in (0, 1):
	    ix = bytearray(a[i * 256:(i + 1) * 256])
	    ix[72] &= 0xfe			# slot 0 in use, the rest free
	    struct.pack_into("<Q", ix, 64, 0)
	    struct.pack_into("<Q", ix, 64, f64(bytes(ix)))
	    a[i * 256:(i + 1) * 256] = ix
	open(sys.argv[1], "wb").write(a)
	EOF
	run "$T/lab" --fakeio read-labels -j nmem1
	# expected: what Debian's ndctl 76.1 printed for this area (measured)
	$PY - "$T/out" <<-'EOF' && ok "read-labels -j: freed slots and media-order GUIDs as 76.1" || nok "read-labels -j differs from 76.1's dump"
	import json, sys
	j = json.load(open(sys.argv[1]))
	j = j[0] if isinstance(j, list) else j
	got = [(l["slot"], l["name"], l["type_guid"], l["abstraction_guid"]) for l in j["label"]]
	tg, ag = "79d3f066-f3b4-7440-ac43-0d3318b78cdb", "ba006426-9ffb-7746-bcb0-968f11d0d225"
	want = [(0, "inuse", tg, ag), (1, "freed", tg, ag), (509, "last", tg, ag)]
	assert got == want, got
	EOF
	if [ -n "$LIVE76" ] && [ -f "$TB/lib/fake_ioctl.so" ]; then
		unshare -m sh -c "mount --bind '$T/lab/sys' /sys && mount --bind '$T/lab/dev' /dev && LD_PRELOAD='$TB/lib/fake_ioctl.so' ndctl read-labels -j nmem1" > "$T/theirs" 2> /dev/null
		if $PY "$HERE/jsoncmp.py" "$T/theirs" "$T/out" > "$T/diff"; then
			ok "read-labels -j equals Debian ndctl 76.1's dump of the same area (live)"
		else
			nok "read-labels -j differs from Debian ndctl (live)"; diag < "$T/diff"
		fi
	fi
	expect_ok "zero-labels nmem1 (after the dump)" "$T/lab" --fakeio zero-labels nmem1
	unset FAKE_IOCTL_LOG
	# autolabel (create-namespace -e on a label-less region) checks every
	# DIMM before it writes to any (issue 16 #3): nmem2 is in enabled
	# region2, so nothing may be written, not even nmem1's index
	if tree sh qemu-shared --dev; then
		truncate -s 8192 "$T/sh/dev/pmem1"	# the raw device the info-block wipe reads
		rm -f "$T/io.log"
		FAKE_BIND=1 FAKE_IOCTL_LOG=$T/io.log run "$T/sh" --fakeio create-namespace -e namespace1.0 -f -L
		touch "$T/io.log"
		if grep -q "cannot label nmem2: in use by region2, no DIMM labelled" "$T/err" \
				&& ! grep -q "^set" "$T/io.log" && sanitizer_clean "$T/err" \
				&& [ -z "$(tr -d '\0' < "$T/sh/dev/nmem1.lsa")" ] \
				&& [ -z "$(tr -d '\0' < "$T/sh/dev/nmem2.lsa")" ]; then
			ok "autolabel with a DIMM busy in another region writes no label"
		else
			nok "autolabel with a busy DIMM: exit $rc, $(grep -c '^set' "$T/io.log") label writes"; diag < "$T/err"
		fi
		SH2=$(echo "$T"/sh/sys/devices/*/*/*/ndbus0)
		rm -f "$SH2/region2/driver" "$SH2/region1/driver" "$SH2/region1/namespace1.0/driver"
		echo idle > "$SH2/nmem2/state"
		FAKE_BIND=1 run "$T/sh" --fakeio create-namespace -e namespace1.0 -f -L
		if head -c 16 "$T/sh/dev/nmem1.lsa" | grep -q NAMESPACE_INDEX \
				&& head -c 16 "$T/sh/dev/nmem2.lsa" | grep -q NAMESPACE_INDEX \
				&& sanitizer_clean "$T/err"; then
			ok "autolabel with region2 disabled labels both DIMMs of region1"
		else
			nok "autolabel of an idle region did not label both DIMMs (exit $rc)"; diag < "$T/err"
		fi
		[ -L "$SH2/region1/driver" ] && ok "autolabel re-enabled region1" || nok "region1 left disabled"
	fi
	# create-namespace -e (issue 16 #8): a new uuid (the name and size
	# carry over) and the old info block wiped even when the namespace was
	# disabled, so a stale BTT cannot claim the new one
	if tree re qemu-labelled --dev; then
		RN=$(echo "$T"/re/sys/devices/*/*/*/ndbus0/region1/namespace1.0)
		rm -f "$RN/driver"
		$PY -c "open('$T/re/dev/pmem1', 'wb').write(b'BTT_ARENA_INFO\0\0' + b'x' * 8176 + bytes(8192))"
		FAKE_BIND=1 run "$T/re" --fakeio create-namespace -e namespace1.0
		nu=$(tr -d '\0\n' < "$RN/uuid")
		if [ $rc = 0 ] && [ -n "$nu" ] && [ "$nu" != 2a3a9e55-6f29-4c4e-9d1f-0b7a2c5d8e11 ] \
				&& [ "$(tr -d '\0\n' < "$RN/alt_name")" = data ] && sanitizer_clean "$T/err"; then
			ok "create-namespace -e: new uuid $nu, name 'data' kept"
		else
			nok "create-namespace -e: exit $rc, uuid '$nu', name '$(cat "$RN/alt_name")'"; diag < "$T/err"
		fi
		[ -z "$(head -c 8192 "$T/re/dev/pmem1" | tr -d '\0')" ] \
			&& ok "create-namespace -e wiped the stale info block of a disabled namespace" \
			|| nok "create-namespace -e left the old info block"
		# on a terminal the new namespace is printed with human sizes (76.1)
		if command -v script > /dev/null; then
			script -qec "env FAKE_BIND=1 NDCTL_SYSFS_ROOT='$T/re/sys' NDCTL_DEV_ROOT='$T/re/dev' '$FAKEIO' create-namespace -f -e namespace1.0" /dev/null > "$T/tty.out" 2>&1
			grep -q '"size":"256.00 MiB (268.44 MB)"' "$T/tty.out" \
				&& ok "create-namespace on a terminal prints human sizes" \
				|| { nok "create-namespace on a terminal: no human size"; diag < "$T/tty.out"; }
			nu=$(tr -d '\0\n' < "$RN/uuid")
		else
			skip "create-namespace human sizes on a terminal" "needs script(1)"
		fi
		echo 1 > "$(dirname "$RN")/read_only"
		expect_fail "create-namespace -e on a read-only region" "$T/re" --fakeio create-namespace -e namespace1.0 -f
		grep -q "read-only" "$T/err" && [ "$(tr -d '\0\n' < "$RN/uuid")" = "$nu" ] \
			&& ok "read-only refusal says so, namespace untouched" || nok "read-only refusal: $(cat "$T/err")"
		expect_fail "destroy-namespace -f on a read-only region" "$T/re" --fakeio destroy-namespace -f namespace1.0
		[ "$(tr -d '\0\n' < "$RN/size")" != 0 ] && ok "read-only region: destroy changed nothing" || nok "destroy on read-only region changed the size"
	fi
	unset FAKE_IOCTL_LOG
	# Debian's ndctl must accept what we wrote (and we what it wrote)
	if command -v ndctl > /dev/null && unshare -m true 2> /dev/null && [ -f "$HERE/fake_ioctl.so" -o -f "$TB/lib/fake_ioctl.so" ]; then
		SO=$TB/lib/fake_ioctl.so
		run "$T/lab" --fakeio init-labels nmem1
		unshare -m sh -c "mount --bind '$T/lab/sys' /sys && mount --bind '$T/lab/dev' /dev && LD_PRELOAD='$SO' ndctl read-labels -j nmem1" > "$T/theirs" 2>/dev/null
		grep -q '"nslot":1020' "$T/theirs" && ok "Debian ndctl reads our v1.1 index" || nok "Debian ndctl does not read our index"
		unshare -m sh -c "mount --bind '$T/lab/sys' /sys && mount --bind '$T/lab/dev' /dev && LD_PRELOAD='$SO' ndctl init-labels -f -V 1.2 nmem1" > /dev/null 2>&1
		run "$T/lab" --fakeio read-labels -j nmem1
		grep -q '"nslot":510' "$T/out" && ok "we read Debian ndctl's v1.2 index" || nok "cannot read Debian's v1.2 index"
	else
		skip "label interchange with Debian's ndctl" "needs ndctl, unshare, fake_ioctl.so"
	fi
else
	skip "label commands through fake ioctls" "needs root (mknod) and ndctl-fakeio"
fi

for inc in $INCS; do
	# shellcheck disable=SC1090
	. "$HERE/$inc"
done

echo "1..$n"
echo "$pass passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
