# media: our ndctl's media-error commands beside Debian's ndctl 76.1 on
# nfit_test (issue 28 #7): inject-error (--block/--count, --status,
# --uninject, --saturate, --no-notify), start-scrub, wait-scrub and
# list --media-errors on nfit_test.1's namespace (1-way: one DIMM),
# each result compared with what 76.1 gives for the same request, and
# what one binary injected read back by the other; libndctl's ARS calls
# (ndctl-ars-api: cap/start/status records, clear-error and its
# refusals); bad input refused by both with the same exit status and
# nothing injected; the same on fsdax, devdax and sector namespaces of
# nfit_test.0 (blocks from the data's start; sector mode refused by
# both).  Injections are withdrawn at the end and the listed sectors
# written (whether that clears the kernel's list is nd_pmem's).
# usage: sh media.sh OUR_NDCTL [DEBIAN_NDCTL]
. "$(dirname "$0")/common.sh"

if [ ! -d /sys/devices/platform/nfit_test.1 ]; then
	skip "media errors" "needs the nfit_test platform"
	exit 0
fi
settle
BUS=nfit_test.1
B1=$(ls -d /sys/devices/platform/nfit_test.1/ndbus* | head -n 1)
"$THEIRS" list -b $BUS -N > /tmp/m.json 2> /dev/null
ns=$(sed -n 's/^[ \t]*"dev":"\(namespace[^"]*\)".*/\1/p' /tmp/m.json | head -n 1)
bd=$(sed -n 's/^[ \t]*"blockdev":"\([^"]*\)".*/\1/p' /tmp/m.json | head -n 1)
if [ -z "$ns" ] || [ -z "$bd" ]; then
	nok "no namespace with a block device on $BUS"
	exit 0
fi
diag "$BUS: $ns ($bd)"
# the bus must offer ARS (nfit/scrub) and the injection functions 7-9
mask=$(attr $B1/nfit/dsm_mask)
if [ ! -e $B1/nfit/scrub ] || [ $(( ${mask:-0} & 0x380 )) != $((0x380)) ]; then
	skip "media errors on $BUS" "its firmware has no ARS or error injection (dsm_mask ${mask:-none})"
	exit 0
fi
blocks=$(( $(attr /sys/bus/nd/devices/$ns/size) / 512 ))
flat() { tr -d ' \t\n'; }

# both BIN ARGS...: ours and theirs, outputs in /tmp/o.*, /tmp/t.*, $orc $trc
both() {
	"$OURS" "$@" > /tmp/o.out 2> /tmp/o.err
	orc=$?
	"$THEIRS" "$@" > /tmp/t.out 2> /tmp/t.err
	trc=$?
}
# same DESC ARGS...: same exit status and the same JSON (order-free)
same() {
	local desc=$1
	shift
	both "$@"
	canon /tmp/o.out > /tmp/o.canon
	canon /tmp/t.out > /tmp/t.canon
	if [ $orc = $trc ] && cmp -s /tmp/o.canon /tmp/t.canon; then
		ok "$desc: as ndctl 76.1 (exit $orc, $(flat < /tmp/o.out | head -c 120))"
	else
		nok "$desc: ours exit $orc, 76.1 exit $trc"
		diff /tmp/t.canon /tmp/o.canon | head -n 10 | sed 's/^/#   /'
		sed 's/^/#   ours: /' /tmp/o.err | head -n 3
		sed 's/^/#   76.1: /' /tmp/t.err | head -n 3
	fi
}
status_of() { "$1" inject-error --status ${2:-$ns} 2> /dev/null | flat; }

# --- injections, read back by the other binary -----------------------------------
before=$(status_of "$THEIRS")
expect_eq "no injected errors at the start (76.1 --status)" "$before" "$(status_of "$OURS")"
"$OURS" inject-error --block=8 --count=2 $ns > /tmp/o.out 2> /tmp/o.err
rc=$?
case "$rc:$(flat < /tmp/o.out)" in
0:'{"dev":"'$ns'"'*) ok "ours: inject-error --block=8 --count=2 $ns (prints it: $(flat < /tmp/o.out | head -c 100))" ;;
*) nok "ours: inject-error: exit $rc, $(flat < /tmp/o.out)"; sed 's/^/#   /' /tmp/o.err ;;
esac
# 76.1 prints the namespace the same way: its keys, without the
# badblocks a notified scrub may or may not have added yet
"$THEIRS" inject-error --block=8 --count=2 $ns 2> /dev/null | flat | sed -e 's/,"badblock_count":[0-9]*//' -e 's/,"badblocks":\[.*\]//' > /tmp/t.k
flat < /tmp/o.out | sed -e 's/,"badblock_count":[0-9]*//' -e 's/,"badblocks":\[.*\]//' > /tmp/o.k
expect_eq "inject-error prints the namespace as 76.1 does" "$(cat /tmp/o.k)" "$(cat /tmp/t.k)"
expect_eq "76.1 --status sees ours' injection" "$(status_of "$THEIRS")" '{"badblocks":[{"block":8,"count":2}]}'
same "inject-error --status" inject-error --status $ns

# the scrub finds it: start by ours, wait by ours, then the same by 76.1
"$OURS" start-scrub $BUS > /tmp/o.out 2> /tmp/o.err
rc=$?
case "$rc:$(flat < /tmp/o.out)" in
0:*'"dev":"'${B1##*/}'"'*) ok "ours: start-scrub $BUS ($(flat < /tmp/o.out))" ;;
*) nok "ours: start-scrub $BUS: exit $rc"; sed 's/^/#   /' /tmp/o.err ;;
esac
"$OURS" wait-scrub $BUS > /tmp/o.out 2> /tmp/o.err
rc=$?
case "$rc:$(flat < /tmp/o.out)" in
0:*'"scrub_state":"idle"'*) ok "ours: wait-scrub $BUS: idle" ;;
*) nok "ours: wait-scrub: exit $rc $(flat < /tmp/o.out)"; sed 's/^/#   /' /tmp/o.err ;;
esac
"$THEIRS" start-scrub $BUS > /tmp/t.out 2>&1
"$THEIRS" wait-scrub $BUS > /tmp/t.out 2>&1
same "wait-scrub $BUS after the scrub" wait-scrub $BUS
same "wait-scrub (every bus)" wait-scrub
expect_eq "/sys/block/$bd/badblocks after the scrub" "$(cat /sys/block/$bd/badblocks | tr '\n' ' ')" "8 2 "
for o in "-N" "-NM" "-RNM" "-BRNM" "-NM -u" "-Nv"; do
	# shellcheck disable=SC2086
	same "list $o -b $BUS" list $o -b $BUS
done
"$OURS" list -NM -n $ns | flat > /tmp/o.flat
grep -q '"badblock_count":2,"badblocks":\[{"offset":8,"length":2' /tmp/o.flat &&
	ok "ours: list -NM: badblock_count 2, offset 8 length 2" || nok "ours: list -NM: $(cat /tmp/o.flat)"

# libndctl's ARS calls (ndctl-ars-api, tests/userspace/ars-api.c): a
# scrub of the region through ARS Cap/Start/Status finds the injected
# lines of blocks 8 and 9; Clear Error refuses bad ranges before sending
# and clears the good ones, after which 76.1 sees no injection left
region=$(basename "$(dirname "$(readlink -f /sys/bus/nd/devices/$ns)")")
nsoff=$(( $(attr /sys/bus/nd/devices/$ns/resource) - $(attr /sys/bus/nd/devices/$region/resource) ))
api=$(command -v ndctl-ars-api)
if [ -z "$api" ]; then
	nok "ndctl-ars-api not in the guest"
else
	"$api" $BUS $region scrub > /tmp/ars.out 2> /tmp/ars.err
	rc=$?
	r8=$(printf 'record %#x ' $((nsoff + 8 * 512)))
	r9=$(printf 'record %#x ' $((nsoff + 9 * 512)))
	if [ $rc = 0 ] && grep -q "^cap 256 256" /tmp/ars.out && grep -q "^$r8" /tmp/ars.out \
			&& grep -q "^$r9" /tmp/ars.out && grep -q "^overflow 0" /tmp/ars.out; then
		ok "libndctl ARS cap/start/status of $region: $(tr '\n' ' ' < /tmp/ars.out)"
	else
		nok "libndctl ARS scrub of $region: exit $rc: $(tr '\n' ' ' < /tmp/ars.out)"
		sed 's/^/#   /' /tmp/ars.err
	fi
	unit=$(sed -n 's/^cap [0-9]* \([0-9]*\)/\1/p' /tmp/ars.out)
	unit=${unit:-256}
	size=$(attr /sys/bus/nd/devices/$region/size)
	for bad in "$((nsoff + 8 * 512 + 1)) $unit" "$((nsoff + 8 * 512)) 0" "$((nsoff + 8 * 512)) $((unit + 1))" \
			"$((size - unit)) $((2 * unit))" "$size $unit" "0 0xffffffffffffff00"; do
		# shellcheck disable=SC2086
		"$api" $BUS $region badclear $bad > /tmp/ars.out 2> /tmp/ars.err
		rc=$?
		[ $rc = 0 ] && ok "libndctl clear_error [$bad]: refused before sending" ||
			{ nok "libndctl clear_error [$bad]: exit $rc"; sed 's/^/#   /' /tmp/ars.err; }
	done
	for b in 8 9; do
		"$api" $BUS $region clear $((nsoff + b * 512)) $unit > /tmp/ars.out 2> /tmp/ars.err
		rc=$?
		expect_eq "libndctl clear_error of block $b's unit: cleared" "$rc:$(cat /tmp/ars.out)" "0:cleared $unit"
	done
	expect_eq "76.1 --status after libndctl's clear_error: none left" "$(status_of "$THEIRS")" "$before"
fi

# uninject by ours: 76.1 sees none; the kernel's list keeps them until written
"$OURS" inject-error --uninject --block=8 --count=2 $ns > /tmp/o.out 2> /tmp/o.err
rc=$?
[ $rc = 0 ] && ok "ours: inject-error --uninject -B 8 -n 2" || { nok "ours: --uninject: exit $rc"; sed 's/^/#   /' /tmp/o.err; }
expect_eq "76.1 --status after ours' --uninject" "$(status_of "$THEIRS")" "$before"
same "inject-error --status (none)" inject-error --status $ns

# 76.1 injects (saturated, no notify), ours reads it back and withdraws it
"$THEIRS" inject-error -B 20 -n 3 -S -N $ns > /dev/null 2>&1
expect_eq "ours --status sees 76.1's -B 20 -n 3 -S" "$(status_of "$OURS")" "$(status_of "$THEIRS")"
"$OURS" inject-error -d -B 20 -n 3 -S $ns > /dev/null 2> /tmp/o.err
expect_eq "ours: -d -B 20 -n 3 -S withdrew it (76.1 --status)" "$(status_of "$THEIRS")" "$before"
# the same request by each binary leaves the same injection
for req in "-B 40 -n 1" "-B 41 -n 4 -S" "-B 60 -n 2 -N"; do
	# shellcheck disable=SC2086
	"$OURS" inject-error $req $ns > /dev/null 2>&1
	o=$(status_of "$THEIRS")
	# shellcheck disable=SC2086
	"$OURS" inject-error -d $req $ns > /dev/null 2>&1
	# shellcheck disable=SC2086
	"$THEIRS" inject-error $req $ns > /dev/null 2>&1
	t=$(status_of "$THEIRS")
	# shellcheck disable=SC2086
	"$THEIRS" inject-error -d $req $ns > /dev/null 2>&1
	expect_eq "inject-error $req: ours injects what 76.1 injects" "$o" "$t"
done
expect_eq "all withdrawn" "$(status_of "$THEIRS")" "$before"

# --- bad input: the same refusal, nothing injected --------------------------------
for req in "-B $blocks -n 1" "-B $((blocks - 1)) -n 0" "-B 0 -n 0" "-t -B 1" "-B x -n 1" \
		"-B 18446744073709551615 -n 1"; do
	# shellcheck disable=SC2086
	same "inject-error $req" inject-error $req $ns
	expect_eq "inject-error $req: nothing injected" "$(status_of "$THEIRS")" "$before"
done
# ours refuses a range that ends outside before sending any of it (76.1
# injects the blocks inside, then fails with EINVAL: the same exit)
# shellcheck disable=SC2086
"$OURS" inject-error -B $((blocks - 1)) -n 2 $ns > /dev/null 2> /tmp/o.err
rc=$?
expect_eq "ours: -B $((blocks - 1)) -n 2: EINVAL (exit 234)" "$rc" 234
expect_eq "ours: -B $((blocks - 1)) -n 2: nothing injected" "$(status_of "$THEIRS")" "$before"
# block 2^55: its byte offset wraps to 0.  76.1 injects at the
# namespace's block 0 (exit 0); ours refuses it, EINVAL, nothing sent
"$OURS" inject-error -B 0x80000000000000 -n 1 $ns > /dev/null 2> /tmp/o.err
rc=$?
expect_eq "ours: -B 0x80000000000000 -n 1 (offset wraps): EINVAL (exit 234)" "$rc" 234
expect_eq "ours: -B 0x80000000000000 -n 1: nothing injected" "$(status_of "$THEIRS")" "$before"
same "inject-error on no such namespace" inject-error -B 1 -n 1 namespace99.0
same "start-scrub 99 (no such bus)" start-scrub 99
same "wait-scrub 99" wait-scrub 99

# --- fsdax, devdax, sector: blocks count from the data; list -M ---------------------
# on a namespace 76.1 creates in a pmem region of nfit_test.0 (nfit_test.1's
# is read-only), destroyed after each mode
preg=
for r in /sys/devices/platform/nfit_test.0/ndbus*/region*; do
	[ "$(attr $r/nstype)" = 5 ] && [ "$(attr $r/available_size)" -ge $((32 << 20)) ] 2> /dev/null &&
		{ preg=${r##*/}; break; }
done
if [ -z "$preg" ]; then
	skip "fsdax, devdax and sector injections" "no pmem region of nfit_test.0 with 32 MiB free"
else
	for mode in fsdax devdax sector; do
		a=
		[ $mode = devdax ] && a="-a 4K"
		# shellcheck disable=SC2086
		"$THEIRS" create-namespace -r $preg -m $mode -s 32M $a > /tmp/cn.out 2>&1
		ns2=$(sed -n 's/^[ \t]*"dev":"\(namespace[^"]*\)".*/\1/p' /tmp/cn.out | head -n 1)
		if [ -z "$ns2" ]; then
			# not ours to judge (76.1 and the kernel's dax); say why
			skip "$mode injections" "76.1's create-namespace -r $preg -m $mode -s 32M failed: $(grep -m1 -i error /tmp/cn.out)"
			"$THEIRS" destroy-namespace -f all -r $preg > /dev/null 2>&1
			continue
		fi
		settle
		b2=$(status_of "$THEIRS" $ns2)
		for req in "-B 8 -n 2" "-B 3 -n 1 -S -N"; do
			# shellcheck disable=SC2086
			"$OURS" inject-error $req $ns2 > /dev/null 2>&1
			orc=$?
			o=$(status_of "$THEIRS" $ns2)
			# shellcheck disable=SC2086
			"$OURS" inject-error -d $req $ns2 > /dev/null 2>&1
			# shellcheck disable=SC2086
			"$THEIRS" inject-error $req $ns2 > /dev/null 2>&1
			trc=$?
			t=$(status_of "$THEIRS" $ns2)
			expect_eq "$mode $ns2: inject-error $req: ours injects what 76.1 injects" "$orc:$o" "$trc:$t"
			[ $trc = 0 ] && same "$mode $ns2: inject-error --status after 76.1's $req" inject-error --status $ns2
			# shellcheck disable=SC2086
			"$THEIRS" inject-error -d $req $ns2 > /dev/null 2>&1
		done
		# the notified injection's scrub: the kernel's lists as each lists them
		"$THEIRS" inject-error -B 8 -n 2 $ns2 > /dev/null 2>&1
		"$OURS" start-scrub nfit_test.0 > /dev/null 2>&1
		"$OURS" wait-scrub nfit_test.0 > /dev/null 2>&1
		same "$mode $ns2: list -NM" list -NM -n $ns2
		same "$mode $ns2: list -RNM" list -RNM -r $preg
		"$THEIRS" inject-error -d -B 8 -n 2 $ns2 > /dev/null 2>&1
		expect_eq "$mode $ns2: all withdrawn" "$(status_of "$THEIRS" $ns2)" "$b2"
		"$OURS" clear-errors -v $ns2 > /tmp/o.out 2> /tmp/o.err
		rc=$?
		"$THEIRS" list -N -n $ns2 2> /dev/null | flat > /tmp/t.flat
		case "$rc:$(cat /tmp/t.flat)" in
		0:*'"badblock_count"'*) nok "$mode $ns2: ours clear-errors left: $(cat /tmp/t.flat)" ;;
		0:*'"mode":"'$mode'"'*)
			want="cleared 1 namespace"
			[ $mode = sector ] && want="cleared 0 namespaces"	# skipped, as 76.1
			expect_eq "$mode $ns2: ours clear-errors: none left, still $mode" "$(tail -n 1 /tmp/o.err)" "$want"
			[ "$(tail -n 1 /tmp/o.err)" = "$want" ] || sed 's/^/#   /' /tmp/o.err | grep -v "libndctl: \(add_\|nd_read\|scan\)" | tail -n 12 ;;
		*) nok "$mode $ns2: ours clear-errors: exit $rc, $(cat /tmp/t.flat)"; sed 's/^/#   /' /tmp/o.err ;;
		esac
		"$THEIRS" destroy-namespace -f $ns2 > /tmp/cn.out 2>&1 ||
			{ nok "76.1: destroy-namespace -f $ns2"; sed 's/^/#   /' /tmp/cn.out; }
	done
fi

# --- clear-errors: the kernel's known errors cleared through the platform ---------
same "clear-errors (no namespace)" clear-errors
same "clear-errors a b" clear-errors a b
same "clear-errors namespace99.0" clear-errors namespace99.0
for who in THEIRS OURS; do
	eval bin=\$$who
	"$bin" inject-error -B 70 -n 1 $ns > /dev/null 2>&1
	"$OURS" start-scrub $BUS > /dev/null 2>&1
	"$OURS" wait-scrub $BUS > /dev/null 2>&1
	grep -q "^70 1$" /sys/block/$bd/badblocks || diag "block 70 not listed: $(flat < /sys/block/$bd/badblocks)"
	"$bin" clear-errors $ns > /tmp/ce.out 2> /tmp/ce.err
	rc=$?
	eval ${who}_ce="'$rc $(tail -n 1 /tmp/ce.err)'"
	bd=$("$THEIRS" list -n $ns 2> /dev/null | sed -n 's/^[ \t]*"blockdev":"\([^"]*\)".*/\1/p' | head -n 1)
	expect_eq "$who clear-errors $ns: /sys/block/$bd/badblocks empty (exit $rc)" \
		"$(cat /sys/block/$bd/badblocks 2> /dev/null | flat)" ""
done
expect_eq "clear-errors $ns: ours answers as 76.1" "$OURS_ce" "$THEIRS_ce"
