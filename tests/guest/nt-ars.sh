# nt-ars: Address Range Scrub and error injection on nfit_test
# (docs/ars.md, docs/nfit_test.md "ARS and error injection").
#
# - the buses offer ARS_CAP/START/STATUS, CLEAR_ERROR and ND_CMD_CALL
#   with the injection functions 7-9 in nfit/dsm_mask; nfit/scrub and
#   hw_error_scrub as 6.1 (bad writes EINVAL, a second scrub EBUSY)
# - the scrub at probe ran (the mock counted its ARS Starts), without
#   holding up probe
# - the mock firmware through raw ioctls (tools/nvt-ars.c): records are
#   the poisoned lines in SPA order, adjacent lines of two DIMMs of the
#   4-way range merged, ARS Status "in progress" until the scrub is done,
#   ARS Start busy meanwhile, more records than max_ars_out holds: the
#   scrub stops early with the restart range at the first one left out;
#   bad lengths, unaligned clears, injections outside every PM range:
#   status 2 (invalid input), nothing changed
# - nfit.ko's scrub honours the restart range (two ARS Starts for that
#   range) and survives every lie the mock can tell (ars_corrupt 1-6:
#   record count, output length, a record outside, a wrapping record, a
#   restart range outside, never done + ars_timeout), each logged
# - Debian's ndctl 76.1: inject-error --block/--count, --status,
#   --uninject, start-scrub, wait-scrub, list --media-errors on
#   nfit_test.1's namespace (1-way: namespace offset = DPA)
# - unloading nfit_test in the middle of a scrub: the work item is
#   cancelled before the bus goes
# Leaves no poison and the knobs at their defaults.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/btt.inc"

nd_settle
nt_debugfs || { nok "no debugfs"; exit 0; }

ctx() {
	B0=$(nt_bus 0) && B1=$(nt_bus 1) || return 1
	C0=/dev/ndctl${B0##*ndbus} C1=/dev/ndctl${B1##*ndbus}
	A0=$NT_DBG/nfit_test.0 A1=$NT_DBG/nfit_test.1
	ns=$(ls -d $B1/region*/namespace* 2> /dev/null | head -n 1)
	r1=$(nt_region 0 1) && r2=$(nt_region 0 2) || return 1
	S1=$(($(cat $B0/$r1/resource))) S2=$(($(cat $B0/$r2/resource)))
	[ -n "$ns" ]
}
ctx || { nok "nfit_test buses, regions or nfit_test.1's namespace missing"; exit 0; }
n=${ns##*/}
NSR=$(($(cat $ns/resource)))
P=$A1/dimm0/poison
KIB=1024 MIB=1048576

# hx N: N as 0x..., as nvt-ars prints it
hx() { printf '%#x' $1; }
# pv FILE: a poison list on one line, "none" when empty
pv() {
	local v
	v=$(head -n 8 $1 | tr '\n' ' ')
	echo "${v:-none}"
}
# scrub_wait BUS SECONDS: until BUS/nfit/scrub has no "+"; prints it
scrub_wait() {
	local i=0 v
	while v=$(cat $1/nfit/scrub) && [ "${v%+}" != "$v" ] && [ $i -lt $(($2 * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	echo $v
}
cnt() { cat $1; }
# ars_done SECONDS: until the mock's ARS Status stops answering "in
# progress" (status 0x10000), polled every 0.1 s; 1 if it never does
ars_done() {
	local i=0
	while [ "$(nvt-ars status $C0 256 | cut -d' ' -f2)" = status=0x10000 ]; do
		[ $i -ge $(($1 * 10)) ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}
# json-ish: ndctl output on one line, without blanks
flat() { tr -d ' \t\n'; }

# --- the buses ---------------------------------------------------------------
for b in $B0 $B1; do
	expect_eq "${b##*/}: commands" "$(cat $b/commands)" \
		"ars_cap ars_start ars_status clear_error cmd_call "
	expect_eq "${b##*/}: nfit/dsm_mask (ARS 1-4, injection 7-9)" \
		"$(cat $b/nfit/dsm_mask)" 0x39e
	expect_eq "${b##*/}: nfit/hw_error_scrub" "$(cat $b/nfit/hw_error_scrub)" 0
	v=$(scrub_wait $b 30)
	case $v in
	[1-9]*) ok "${b##*/}: the probe's scrub completed (scrub $v)" ;;
	*) nok "${b##*/}: nfit/scrub '$v' after the probe's scrub" ;;
	esac
done
expect_eq "nfit_test.0: the probe's scrub started both PM ranges (ars_starts >= 2)" \
	"$([ $(cnt $A0/ars_starts) -ge 2 ] && echo yes)" yes

expect_eq "scrub: '0', '2', 'x', '' refused" \
	"$(ns_w $B0/nfit/scrub 0) | $(ns_w $B0/nfit/scrub 2) | $(ns_w $B0/nfit/scrub x) | $(ns_w $B0/nfit/scrub '')" \
	"Invalid argument | Invalid argument | Invalid argument | Invalid argument"
expect_eq "hw_error_scrub: 1, then 2 refused, then 0" \
	"$(ns_w $B0/nfit/hw_error_scrub 1) $(cat $B0/nfit/hw_error_scrub) $(ns_w $B0/nfit/hw_error_scrub 2) $(ns_w $B0/nfit/hw_error_scrub 0) $(cat $B0/nfit/hw_error_scrub)" \
	"ok 1 Invalid argument ok 0"

# a scrub, then a second one while it runs
c0=$(scrub_wait $B0 30) s0=$(cnt $A0/ars_starts)
echo 1000 > $A0/ars_delay_ms
expect_eq "scrub: '1' starts one, '1' again while it runs is busy" \
	"$(ns_w $B0/nfit/scrub 1) $(ns_w $B0/nfit/scrub 1) $(cat $B0/nfit/scrub)" \
	"ok Device or resource busy $c0+"
expect_eq "scrub: done after it, counted once" "$(scrub_wait $B0 30)" $((c0 + 1))
expect_eq "the mock saw one ARS Start per PM range" "$(($(cnt $A0/ars_starts) - s0))" 2
echo 50 > $A0/ars_delay_ms

# --- the mock firmware, raw ---------------------------------------------------
expect_eq "ARS Cap of range 2: persistent + volatile scrub, 256-byte output, 256-byte clear unit" \
	"$(nvt-ars cap $C0 $S2 $((64 * MIB)))" \
	"rc=0 status=0x30000 max_ars_out=256 clear_err_unit=256"
expect_eq "ARS Cap of length 0 / wrapping: status 2" \
	"$(nvt-ars cap $C0 $S2 0 | cut -d' ' -f1-2) $(nvt-ars cap $C0 0xffffffffffff0000 0x20000 | cut -d' ' -f1-2)" \
	"rc=0 status=0x2 rc=0 status=0x2"

# poison on two DIMMs of the 4-way range (DPA 16 MiB up): dimm0's page 3
# of its part holds SPA line 12, dimm1's SPA line 13 (nt_xlate)
D0=$A0/dimm0/poison D1=$A0/dimm1/poison D2=$A0/dimm2/poison
echo "$((16 * MIB + 3 * 4096 + 4032)) 64" > $D0
echo "$((16 * MIB + 3 * 4096)) 64" > $D1
echo "$((16 * MIB + 5 * 4096 + 128)) 8" > $D2
# long enough that the two calls below see it running on a loaded host
# under the debug kernel; ars_done waits for its end
echo 8000 > $A0/ars_delay_ms
st=$(nvt-ars start $C0 $S2 $((64 * MIB)))
expect_eq "ARS Start of range 2" "$st" "rc=0 status=0"
expect_eq "ARS Start again while it runs: status 6 (busy)" \
	"$(nvt-ars start $C0 $S2 $((64 * MIB)))" "rc=0 status=0x6"
expect_eq "ARS Status while it runs: in progress" \
	"$(nvt-ars status $C0 256 | cut -d' ' -f1-3)" "rc=0 status=0x10000 out_length=48"
ars_done 30 || nok "ARS of range 2 still in progress after 30 s"
expect_eq "ARS Status done: two records, dimm0+dimm1 lines merged, dimm2's line at SPA line 22" \
	"$(nvt-ars status $C0 256)" \
	"rc=0 status=0 out_length=96 num=2 flags=0 restart=0+0 $(hx $((S2 + 12 * 4096 + 4032)))+0x80 $(hx $((S2 + 22 * 4096 + 128)))+0x40"
echo 50 > $A0/ars_delay_ms
for bad in "0" "0xffffffffffffffff"; do
	expect_eq "ARS Start of length $bad: status 2" \
		"$(nvt-ars start $C0 $S2 $bad)" "rc=0 status=0x2"
done
expect_eq "ARS Start of type 1 (volatile only): status 2" \
	"$(nvt-ars start $C0 $S2 $((64 * MIB)) 1)" "rc=0 status=0x2"
expect_eq "Clear Error unaligned / outside / length 0: status 2, nothing cleared" \
	"$(nvt-ars clear $C0 $((S2 + 12 * 4096 + 4032)) 128) | $(nvt-ars clear $C0 $((S2 + 64 * MIB)) 4096) | $(nvt-ars clear $C0 $S2 0) | $(pv $D0)" \
	"rc=0 status=0x2 cleared=0 | rc=0 status=0x2 cleared=0 | rc=0 status=0x2 cleared=0 | $(hx $((16 * MIB + 3 * 4096 + 4032))) 0x40 "
expect_eq "Clear Error of SPA line 12's last 256 bytes clears dimm0's line only" \
	"$(nvt-ars clear $C0 $((S2 + 12 * 4096 + 3840)) 256) | $(pv $D0) | $(pv $D1)" \
	"rc=0 status=0 cleared=0x100 | none | $(hx $((16 * MIB + 3 * 4096))) 0x40 "
echo clear > $D1
echo clear > $D2

# more records than 256 bytes hold: 10 lines, 64 KiB apart, in range 1
# (2-way: SPA line 2k is dimm0's page k)
for k in 0 1 2 3 4 5 6 7 8 9; do
	echo "$((k * 32 * KIB)) 64" > $D0
done
nvt-ars start $C0 $S1 $((32 * MIB)) > /dev/null
ars_done 30 || nok "ARS of range 1 still in progress after 30 s"
got=$(nvt-ars status $C0 256)
expect_eq "10 records, room for 8: 8 returned, stopped early, restart at the 9th" \
	"$(echo "$got" | cut -d' ' -f1-6)" \
	"rc=0 status=0x30000 out_length=240 num=8 flags=0 restart=$(hx $((S1 + 8 * 64 * KIB)))+$(hx $((32 * MIB - 8 * 64 * KIB)))"
s0=$(cnt $A0/ars_starts) c0=$(scrub_wait $B0 30)
dmark
echo 1 > $B0/nfit/scrub
expect_eq "nfit's scrub: done" "$(scrub_wait $B0 30)" $((c0 + 1))
expect_eq "nfit's scrub restarted range 1 once (3 ARS Starts)" \
	"$(($(cnt $A0/ars_starts) - s0))" 3
if [ -r $B0/$r1/badblocks ]; then
	expect_eq "$r1/badblocks: the 10 lines, one sector each" \
		"$(wc -l < $B0/$r1/badblocks)" 10
else
	nok "$r1/badblocks missing (the core's bad ranges)"
fi
echo clear > $D0

# injection, raw: inside a PM range sets poison, outside / 0 / huge: status 2
dmark
r0=$(cnt $A1/ars_refused)
expect_eq "inject outside every PM range, length 0, huge: status 2" \
	"$(nvt-ars inject $C1 $((NSR - 4096)) 4096) | $(nvt-ars inject $C1 $NSR 0) | $(nvt-ars inject $C1 $NSR 0x8000000000000000) | $(nvt-ars inject $C1 $((NSR + 32 * MIB - 64)) 128)" \
	"rc=0 fw_size=4 status=0x2 | rc=0 fw_size=4 status=0x2 | rc=0 fw_size=4 status=0x2 | rc=0 fw_size=4 status=0x2"
expect_eq "... refused by the mock, nothing poisoned" \
	"$(($(cnt $A1/ars_refused) - r0)) $(pv $P)" "4 none"
expect_eq "inject 100 bytes at 0x10010: the two lines, listed by ARS_INJECT_GET" \
	"$(nvt-ars inject $C1 $((NSR + 0x10010)) 100) | $(pv $P) | $(nvt-ars injected $C1)" \
	"rc=0 fw_size=4 status=0 | 0x10000 0x80  | rc=0 fw_size=24 status=0 count=1 $(hx $((NSR + 0x10000)))+0x80"
expect_eq "uninject them" "$(nvt-ars uninject $C1 $((NSR + 0x10000)) 128) | $(pv $P)" \
	"rc=0 fw_size=4 status=0 | none"

# --- Debian's ndctl ------------------------------------------------------------
c0=$(scrub_wait $B1 30)
check "ndctl inject-error --block=8 --count=2 $n" ndctl inject-error --block=8 --count=2 $n
# ndctl 76.1 injects block by block, each call one clear_err_unit long
expect_eq "the media: the first 256 bytes of blocks 8 and 9 poisoned" \
	"$(pv $P)" "0x1000 0x100 0x1200 0x100 "
got=$(ndctl inject-error --status $n 2>&1 | flat)
expect_eq "ndctl inject-error --status $n" "$got" '{"badblocks":[{"block":8,"count":2}]}'
# one notification per block: one scrub, or one more after the running one
v=$(scrub_wait $B1 30)
expect_eq "the injection's notifications scrubbed nfit_test.1 (scrub $c0 -> $v)" \
	"$([ "$v" -ge $((c0 + 1)) ] && [ "$v" -le $((c0 + 2)) ] && echo yes)" yes
got=$(ndctl list --media-errors -n $n 2>&1 | flat)
case $got in
*'"badblock_count":2'*'"badblocks":[{"offset":8,"length":2'*) ok "ndctl list --media-errors: 2 bad blocks at 8" ;;
*) nok "ndctl list --media-errors: $got" ;;
esac
check "ndctl inject-error --uninject --block=8 --count=2 $n" \
	ndctl inject-error --uninject --block=8 --count=2 $n
expect_eq "... the media clean again" "$(pv $P)" none
got=$(ndctl inject-error --status $n 2>&1 | flat)
case $got in
*'"block"'*) nok "ndctl inject-error --status after --uninject: $got" ;;
*) ok "ndctl inject-error --status after --uninject: none ($got)" ;;
esac
# --uninject cleared the media, not the kernel's list (6.1: bad blocks
# leave by clearing): a write over bad blocks clears them through the
# core's nvdimm_clear_poison(), ARS Cap then Clear Error on the mock
dev=$(nt_blockdev $ns)
echo 0 > $B1/$(basename $(dirname $ns))/read_only
ndctl inject-error --block=16 --count=1 $n > /dev/null 2>&1
scrub_wait $B1 30 > /dev/null
k0=$(cnt $A1/ars_clears)
# O_DIRECT from an aligned buffer (tools/nvt-dio.c): busybox dd's
# oflag=direct can fall back to a buffered read-modify-write of the
# page, whose read fails on the bad sectors before any write is issued
expect_eq "/dev/$dev: blocks 8-9 still listed, 16 bad after the injection's scrub, its read fails" \
	"$(cat /sys/block/$dev/badblocks | tr '\n' ' ')$(nvt-dio read /dev/$dev $((16 * 512)) 512)" \
	"8 2 16 1 EIO"
w=
for s in 8 9 16; do
	w="$w $(nvt-dio write /dev/$dev $((s * 512)) 512)"
done
# one 512-byte write per sector: one Clear Error each
expect_eq "writes over them: Clear Error reached the mock 3 times, poison and badblocks gone, block 16 reads" \
	"$w / $(($(cnt $A1/ars_clears) - k0)) $(pv $P) $(cat /sys/block/$dev/badblocks | wc -l) $(nvt-dio read /dev/$dev $((16 * 512)) 512)" \
	" ok ok ok / 3 none 0 ok"

c0=$(scrub_wait $B1 30)
check "ndctl start-scrub nfit_test.1" ndctl start-scrub nfit_test.1
check "ndctl wait-scrub nfit_test.1" ndctl wait-scrub nfit_test.1
expect_eq "... one more scrub" "$(cat $B1/nfit/scrub)" $((c0 + 1))
got=$(ndctl list -B -b nfit_test.1 2>&1 | flat)
case $got in
*'"scrub_state":"idle"'*) ok "ndctl list -B: scrub_state idle" ;;
*) nok "ndctl list -B: $got" ;;
esac
# past the namespace's end, count 0: refused, nothing injected; a count
# of 2^40 blocks from the last block: ndctl injects block by block, so the
# last block is poisoned and the next one, past the end, refused
last=$((32 * MIB / 512 - 1))
for bad in "--block=$((last + 1)) --count=1:0" "--block=0 --count=0:0" \
	   "--block=$last --count=$((1 << 40)):1"; do
	want=${bad##*:} bad=${bad%:*}
	i0=$(cnt $A1/ars_injects)
	c0=$(scrub_wait $B1 30)
	if ndctl inject-error $bad $n > /tmp/ars.out 2>&1; then
		nok "ndctl inject-error $bad: accepted ($(flat < /tmp/ars.out | cut -c1-200))"
	else
		ok "ndctl inject-error $bad: refused ($(head -n 1 /tmp/ars.out))"
	fi
	expect_eq "... blocks injected" "$(($(cnt $A1/ars_injects) - i0)) $(pv $P)" \
		"$want $([ $want = 0 ] && echo none || echo "$(hx $((last * 512))) 0x100 ")"
	scrub_wait $B1 30 > /dev/null
	echo clear > $P
done

# --- nfit's scrub against a lying firmware ------------------------------------
echo "$((4 * 4096)) 64" > $D0		# SPA line 8 of range 1
for m in "1:records claimed" "2:output length" "3:outside the scrubbed range" \
	 "4:wraps" "5:restart range" "6:no answer in 2 s"; do
	mode=${m%%:*} what=${m#*:}
	[ $mode = 6 ] && echo 2 > /sys/module/nfit/parameters/ars_timeout
	echo $mode > $A0/ars_corrupt
	c0=$(scrub_wait $B0 30)
	dmark
	echo 1 > $B0/nfit/scrub
	v=$(scrub_wait $B0 30)
	w=$(dsince | grep 'nfit_test.0: ARS' | grep -c "$what")
	if [ "$v" = $((c0 + 1)) ] && [ $w -ge 1 ]; then
		ok "ars_corrupt $mode: the scrub completed, '$what' logged $w times"
	else
		nok "ars_corrupt $mode: scrub '$v' (want $((c0 + 1))), '$what' logged $w times"
		dsince | tail -n 5 | sed 's/^/#   /'
	fi
done
echo 0 > $A0/ars_corrupt
echo 120 > /sys/module/nfit/parameters/ars_timeout
# ARS Cap's max_ars_out below the status header, and past nfit's 1 MiB
for m in "40:below the 48-byte status header" "4194304:using 1048576"; do
	echo ${m%%:*} > $A0/ars_max_out
	c0=$(scrub_wait $B0 30)
	dmark
	echo 1 > $B0/nfit/scrub
	v=$(scrub_wait $B0 30)
	w=$(dsince | grep 'nfit_test.0: ARS Cap' | grep -c "${m#*:}")
	expect_eq "max_ars_out ${m%%:*}: the scrub completed, '${m#*:}' logged" \
		"$v $([ $w -ge 1 ] && echo logged)" "$((c0 + 1)) logged"
done
echo 256 > $A0/ars_max_out
echo clear > $D0
expect_eq "ars_corrupt 7 refused" "$(ns_w $A0/ars_corrupt 7)" "Invalid argument"

# --- unbind in the middle of a scrub -------------------------------------------
# a 60 s scrub: an unload that waited for it would take a minute; the
# bound leaves room for a slow teardown (debug kernel on a busy host)
echo 60000 > $A0/ars_delay_ms
echo 1 > $B0/nfit/scrub
t0=$(date +%s)
if rmmod nfit_test; then
	t=$(($(date +%s) - t0))
	expect_eq "rmmod nfit_test during a 60 s scrub returns without waiting for it (${t} s)" \
		"$([ $t -le 20 ] && echo yes)" yes
else
	nok "rmmod nfit_test during a scrub"
fi
modprobe nfit_test && ok "modprobe nfit_test" || nok "modprobe nfit_test"
nd_settle
wait_pmem 1 30
ctx && scrub_wait $B0 30 > /dev/null
expect_eq "reloaded: defaults back (ars_delay_ms)" "$(cat $NT_DBG/nfit_test.0/ars_delay_ms)" 50
