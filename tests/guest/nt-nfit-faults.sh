# nt-nfit-faults: the NFIT parser's answer to a malformed table, on
# nfit_test.1 (1 DIMM, handle 0; its NFIT: header 40 bytes, SPA range 1
# at 0x28 (64 bytes), memory device map at 0x68 (48), control region 1
# at 0x98 (80), 232 bytes).  nfit_test's `nfit_defect` knob
# (docs/nfit_test.md) builds the table wrong at the next bind, one defect
# at a time.  What the driver must do, as upstream does:
#   - a bad header, or subtable lengths that do not tile the table:
#     refuse the whole table (no bus; the bind fails with EINVAL) and say
#     why in one line
#   - a bad checksum: say so, use the table anyway
#   - a subtable of a reserved type: skip it quietly
#   - a malformed, duplicate or dangling entry: drop that entry with a
#     warning naming it, and whatever depends on it (a map whose range or
#     control region is gone, a range whose interleave set is incomplete),
#     and expose the rest: the DIMM (from its map) and the PM region
#     (from its range, with the DIMMs mapped into it)
# Every case: "DIMMs regions mappings" of nfit_test.1's bus, the kernel's
# line.  Then a 32-way interleave set (the most a region takes: every
# mappingN attribute), 33 ways and a map of 0 bytes (the region refused).
# At the end the knob refuses a defect that does not exist, and with 0
# the DIMM and its region are back.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"

nd_settle
PD=/sys/bus/platform/drivers/nfit_test
KNOB=/sys/module/nfit_test/parameters/nfit_defect
[ -w $KNOB ] || { nok "no nfit_defect knob ($KNOB)"; exit 0; }
nt_bus 1 > /dev/null || { nok "no nfit_test.1 bus before the defects"; exit 0; }

# shape: "DIMMs regions mappings" of nfit_test.1, "no bus" without one
shape() {
	local b r n=0
	b=$(nt_bus 1) || { echo "no bus"; return; }
	for r in $b/region*; do
		[ -d $r ] && n=$((n + $(cat $r/mappings)))
	done
	echo "$(ls -d $b/nmem* 2> /dev/null | wc -l) $(ls -d $b/region* 2> /dev/null | wc -l) $n"
}

# defect N NAME SHAPE LOGLINE [WHO]: bind nfit_test.1 with defect N; its
# bind answer ("no bus": EINVAL), its shape and a kernel line matching
# WHO LOGLINE (grep -E; WHO: "nfit_test.1: NFIT: " unless given; LOGLINE
# "-": no "NFIT:" line at all)
defect() {
	local n=$1 name=$2 want=$3 line=$4 who=${5:-"nfit_test.1: NFIT: "} r got
	echo nfit_test.1 > $PD/unbind 2> /dev/null
	echo $n > $KNOB
	ns_mark
	r=$(ns_w $PD/bind nfit_test.1)
	nd_settle
	got=$(shape)
	[ "$want" = "no bus" ] && want="Invalid argument no bus" && got="$r $got"
	expect_eq "defect $n ($name): nfit_test.1 (DIMMs regions mappings)" "$got" "$want"
	ns_log_since > /tmp/nf.log
	if [ "$line" = - ]; then
		grep -q "NFIT:" /tmp/nf.log && {
			nok "defect $n ($name): a warning for a valid table"
			sed 's/^/#   /' /tmp/nf.log
		} || ok "defect $n ($name): no NFIT warning"
	elif grep -qE "$who$line" /tmp/nf.log; then
		ok "defect $n ($name): $(grep -m 1 -E "$who$line" /tmp/nf.log | sed 's/^\[[^]]*\] //')"
	else
		nok "defect $n ($name): no kernel line matching '$who$line'"
		sed 's/^/#   /' /tmp/nf.log
	fi
}

# --- the whole table refused --------------------------------------------------
defect 1 "bad signature" "no bus" "bad signature, table refused"
defect 2 "header length 16" "no bus" "header length 16 is shorter than the header, table refused"
defect 3 "header length past the buffer" "no bus" "header length 240 but only 232 bytes present, table refused"
defect 4 "3 stray bytes" "no bus" "3 stray bytes at offset 0xe8, table refused"
defect 5 "subtable length 2" "no bus" "subtable at offset 0x98 has length 2, table refused"
defect 6 "subtable past the end" "no bus" "subtable at offset 0x98 \\(length 88\\) runs past the table end, table refused"
grep -q "nfit_test.1: NFIT refused (-22): no NVDIMM bus" /tmp/nf.log &&
	ok "a refused table: 'NFIT refused (-22): no NVDIMM bus'" ||
	nok "a refused table: no 'NFIT refused' line"

# --- the table used: logged, skipped -------------------------------------------
defect 7 "checksum" "1 1 1" "checksum mismatch \\(sum 0x1\\), using the table anyway"
defect 8 "unknown subtable type" "1 1 1" -

# --- one entry dropped, and what depends on it -----------------------------------
defect 9 "SPA range cut to 40 bytes" "0 0 0" "SPA range at offset 0x28: length 40, needs 56, ignored"
grep -q "handle 0x0): references missing SPA range 1, ignored" /tmp/nf.log &&
	ok "defect 9: the map of the dropped range dropped too" ||
	nok "defect 9: no line for the map of the dropped range"
defect 10 "SPA range index 0" "0 0 0" "SPA range at offset 0x28: index 0 is reserved, ignored"
defect 11 "SPA range 1 twice" "1 1 1" "SPA range 1 at offset 0xe8: duplicate index, ignored"
defect 12 "SPA range of length 0" "1 1 1" "SPA range 2: zero length, ignored"
defect 13 "SPA range wrapping" "1 1 1" "SPA range 2: address 0xfffffffffff01000 \\+ length 0x100000 overflows, ignored"
defect 14 "SPA ranges overlapping" "1 1 1" "SPA range 2 \\[0x[0-9a-f]*-0x[0-9a-f]*\\] overlaps SPA range 1, ignored"
defect 15 "control region index 0" "1 1 1" "control region at offset 0xe8: index 0 is reserved, ignored"
defect 16 "control region 1 twice" "1 1 1" "control region 1 at offset 0xe8: duplicate index, ignored"
defect 17 "windows without window fields" "1 1 1" "control region 2: 2 block windows but no window fields \\(length 32\\), windows ignored"
defect 18 "interleave table index 0" "1 1 1" "interleave table at offset 0xe8: index 0 is reserved, ignored"
defect 19 "interleave table 7 twice" "1 1 1" "interleave table 7 at offset 0xfc: duplicate index, ignored"
defect 20 "interleave table without lines" "1 1 1" "interleave table 8: 0 lines of 256 bytes, ignored"
defect 21 "1000 lines in 20 bytes" "1 1 1" "interleave table at offset 0xe8: length 20, needs 4016, ignored"
defect 22 "100 flush hints in 24 bytes" "1 1 1" "flush hint at offset 0xe8: length 24, needs 816, ignored"
defect 23 "two flush hints of one DIMM" "1 1 1" "flush hint at offset 0xf8: duplicate device handle 0x0, ignored"
defect 24 "block window of a missing control region" "1 1 1" "block data window at offset 0xe8: references missing control region 9, ignored"
defect 25 "map cut to 40 bytes" "0 1 0" "memory device map at offset 0x68: length 40, needs 48, ignored"
defect 26 "map with 0 ways" "0 1 0" "memory device map at offset 0x68 \\(handle 0x0\\): zero interleave ways, ignored"
defect 27 "map twice" "1 1 1" "memory device map at offset 0xe8: handle 0x0 already mapped to SPA range 1, ignored"
defect 28 "map to a missing range" "1 1 1" "memory device map at offset 0xe8 \\(handle 0x1\\): references missing SPA range 9, ignored"
defect 29 "map to a missing control region" "0 1 0" "memory device map at offset 0x68 \\(handle 0x0\\): references missing control region 9, ignored"
defect 30 "map to a missing interleave table" "0 1 0" "memory device map at offset 0x68 \\(handle 0x0\\): references missing interleave table 9, ignored"
defect 31 "2 ways, 1 map" "0 0 0" "SPA range 1: interleave set incomplete \\(1 of 2 ways mapped\\), range ignored"
defect 32 "maps disagreeing on ways" "0 0 0" "SPA range 1: interleave set incomplete \\(2 maps disagree on interleave ways\\), range ignored"


# --- the widest interleave set, one DIMM too many, a map of 0 bytes -----------------
# 32 DIMMs (handles 0..31), each 1 MiB of range 1 at DPA 0, line i: the
# region shows mapping0..mapping31, DIMM i in mapping i at position i
defect 33 "32-way interleave set" "32 1 32" -
B=$(nt_bus 1)
R=$B/$(nt_region 1 1)
# the DIMM name of each handle, once (read, not cat: 32 DIMMs, debug kernel)
for d in $B/nmem*; do
	read h < $d/nfit/handle
	eval "dimm_$((h))=${d##*/}"
done
bad=
i=0
while [ $i -lt 32 ]; do
	m=
	read m < $R/mapping$i
	eval "d=\$dimm_$i"
	[ "$m" = "$d,0,1048576,$i" ] || bad="$bad mapping$i='$m'(want $d,0,1048576,$i)"
	i=$((i + 1))
done
[ -z "$bad" ] && ok "32-way set: mapping0..31 name DIMMs 0..31, DPA 0, 1 MiB, positions 0..31" ||
	nok "32-way set:$bad"
[ -e $R/mapping32 ] && nok "32-way set: a mapping32 attribute" || ok "32-way set: no mapping32"
defect 34 "33-way interleave set" "33 0 0" "PMEM region with 33 mappings \\(max 32\\)" "ndbus[0-9]*: "
defect 35 "map of 0 bytes" "1 0 0" "PMEM region: bad mapping 0" "ndbus[0-9]*: "
defect 36 "20 bytes of table" "no bus" "20 bytes cannot hold the table header, table refused"
defect 37 "two block windows of control region 1" "1 1 1" "block data window at offset 0x110: second one for control region 1, ignored"
# range 1 at 0 (32 MiB): across the guest's System RAM in iomem
defect 38 "range over the guest's RAM" "1 0 0" "SPA range 1 \\[mem 0x00000000-0x01ffffff flags 0x200\\] conflicts in iomem: -16" "nfit_test.1: "
# a flush hint with nothing behind it: upstream maps hints when a region
# enables, so it costs that region, not the bus (ours failed the whole
# bus before): the DIMM is up, the region registered but not enabled
defect 39 "flush hint with nothing behind it" "1 1 1" "DIMM 0x0: cannot map flush hint 0x[0-9a-f]*, its regions stay disabled" "nfit_test.1: "
R=$(nt_bus 1)/$(nt_region 1 1)
[ -e $R/driver ] && nok "defect 39: the region of the DIMM enabled without its flush hint" ||
	ok "defect 39: the region of the DIMM stays disabled"
grep -qE "region[0-9]+: nmem[0-9]+: flush hints not mapped, writes could not be made durable" /tmp/nf.log &&
	ok "defect 39: the region says why ($(grep -m 1 -oE 'nmem[0-9]+: flush hints not mapped.*' /tmp/nf.log))" ||
	nok "defect 39: no 'flush hints not mapped' line from the region"
N=$(nt_bus 1)/nmem*
[ -e $N/driver ] && ok "defect 39: the DIMM itself enabled" || nok "defect 39: the DIMM not enabled"

# --- the knob itself, and back to a good table -------------------------------------
expect_eq "nfit_defect 40 (no such defect): refused" "$(ns_w $KNOB 40)" "Invalid argument"
expect_eq "nfit_defect after the refused write: still 39" "$(cat $KNOB)" "39"
echo nfit_test.1 > $PD/unbind
echo 0 > $KNOB
ns_mark
expect_eq "nfit_defect 0: nfit_test.1 binds" "$(ns_w $PD/bind nfit_test.1)" ok
nd_settle
expect_eq "nfit_defect 0: its DIMM and its region with one mapping" "$(shape)" "1 1 1"
ns_log_since | grep -q "NFIT:" && nok "nfit_defect 0: an NFIT warning for the good table" ||
	ok "nfit_defect 0: no NFIT warning"
