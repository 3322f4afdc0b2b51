# nt-doc-example: the v4.2 document's picture (issue 5 §5), configured on
# nfit_test.0 purely through sysfs writes, always on each region's current
# namespace_seed, in the order of docs/namespaces.md ("On the v4.2
# document's platform"):
#
#   DIMM    0 (nmem0)          1 (nmem1)          2 (nmem2)          3 (nmem3)
#   DPA 0   pm0.0  [0,8M)      pm0.0  [0,8M)      blk4.0 [0,16M)     blk5.0 [0,16M)
#       8M  blk2.0 [8M,16M)    blk3.0 [8M,16M)       (not aliased)      (not aliased)
#      16M  pm1.0  [16M,24M)   pm1.0              pm1.0  [16M,24M)   pm1.0
#      24M  blk2.1 [24M,32M)   blk3.1             blk4.0 [24M,32M)   blk5.0 [24M,32M)
#
#   region0 = PM range 1 (DIMM 0,1 DPA [0,16M), 2-way), region1 = PM range 2
#   (DIMM 0..3 DPA [16M,32M), 4-way), region2..5 = the BLK regions of DIMM 0..3.
#
# After every step: the namespace's size, nstype, dpa_extents, uuid,
# alt_name, sector_size; every region's available_size (and PMEM
# max_available_extent); namespace_seed moved to a new idle namespace.
# The expected values are the table below, worked out by hand from the
# allocation policy, never read back from the kernel.  Then the labels on
# each DIMM (decoded from the raw area), every namespace bound (PMEM to
# nd_pmem, BLK to nd_blk) and a distinct pattern through each block
# device (/dev/pmemR, /dev/ndblkR.N), and all of it again after (a)
# regions + DIMMs unbound and rebound and (b) the nfit_test.0 platform
# device unbound from its driver and bound again (the mock keeps media and
# labels across it, as a power cycle would: a label area or a pattern
# lost is a failure).  Finally everything is deleted (size 0) in
# reverse order: available_size walks back up the table, the labels are
# gone, the seeds stay.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"

nd_settle
nt_debugfs || { nok "no debugfs"; exit 0; }

# --- the plan ---------------------------------------------------------------
# Regions by key: R0 R1 (PMEM), B0..B3 (BLK of DIMM 0..3); SPA range indexes.
REGION_KEYS="R0 R1 B0 B1 B2 B3"
range_of() {
	case $1 in R0) echo 1 ;; R1) echo 2 ;; B0) echo 7 ;; B1) echo 8 ;; B2) echo 9 ;; B3) echo 10 ;; esac
}
# the namespace driver of a region's namespaces
drv_of() {
	case $1 in R*) echo nd_pmem ;; *) echo nd_blk ;; esac
}
# the document's region names
docname_of() {
	case $1 in R0) echo region0 ;; R1) echo region1 ;; B0) echo region2 ;; B1) echo region3 ;; B2) echo region4 ;; B3) echo region5 ;; esac
}

# Steps, in order.  KEY REGION NSID SIZE_MIB SECTOR ORDER EXTENTS and the
# available_size of R0 R1 B0 B1 B2 B3 in MiB after the step.
#   ORDER a: alt_name uuid sector_size size   b: uuid size sector_size alt_name
#         c: uuid sector_size size alt_name  (b and c rewrite existing labels)
#   SECTOR -: never written (PMEM: no current size shown)
STEPS="
pm0.0  R0 0 16 4096 a 2 16 64 24 24 32 32
pm1.0  R1 0 32 -    b 4 16 32 16 16 24 24
blk2.0 B0 0 8  512  c 1  0 32  8 16 24 24
blk3.0 B1 0 8  520  a 1  0 32  8  8 24 24
blk2.1 B0 1 8  4096 b 1  0  0  0  8 24 24
blk3.1 B1 1 8  4104 c 1  0  0  0  0 24 24
blk4.0 B2 0 24 4160 a 2  0  0  0  0  0 24
blk5.0 B3 0 24 4224 b 2  0  0  0  0  0  0
"
INIT_AVAIL="32 64 32 32 32 32"
uuid_of() {
	case $1 in
	pm0.0) echo d0c5a000-0000-4000-8000-000000000000 ;;
	pm1.0) echo d0c5a000-0000-4000-8000-000000000010 ;;
	blk2.0) echo d0c5a000-0000-4000-8000-000000000020 ;;
	blk2.1) echo d0c5a000-0000-4000-8000-000000000021 ;;
	blk3.0) echo d0c5a000-0000-4000-8000-000000000030 ;;
	blk3.1) echo d0c5a000-0000-4000-8000-000000000031 ;;
	blk4.0) echo d0c5a000-0000-4000-8000-000000000040 ;;
	blk5.0) echo d0c5a000-0000-4000-8000-000000000050 ;;
	esac
}
nstype_of() { case $2 in R*) echo 5 ;; *) echo 6 ;; esac; }
name_of() { echo "doc-$1"; }

# Live labels per DIMM after the whole picture, sorted by DPA:
# "dpa rawsize flags nlabel position lbasize KEY" (cookie: the PMEM
# region's set_cookie, 0 for BLK).  PMEM: flags 0 after the two-pass
# update, nlabel = ways, position = mapping index, lbasize = the sector
# size (0 when never set); BLK: LOCAL (0x2), one label per extent.
LABELS_0="
0 0x800000 0 2 0 4096 pm0.0
0x800000 0x800000 0x2 0 0 512 blk2.0
0x1000000 0x800000 0 4 0 0 pm1.0
0x1800000 0x800000 0x2 0 0 4096 blk2.1"
LABELS_1="
0 0x800000 0 2 1 4096 pm0.0
0x800000 0x800000 0x2 0 0 520 blk3.0
0x1000000 0x800000 0 4 1 0 pm1.0
0x1800000 0x800000 0x2 0 0 4104 blk3.1"
LABELS_2="
0 0x1000000 0x2 0 0 4160 blk4.0
0x1000000 0x800000 0 4 2 0 pm1.0
0x1800000 0x800000 0x2 0 0 4160 blk4.0"
LABELS_3="
0 0x1000000 0x2 0 0 4224 blk5.0
0x1000000 0x800000 0 4 3 0 pm1.0
0x1800000 0x800000 0x2 0 0 4224 blk5.0"
# a blank area of a DIMM that aliases BLK gets a v1.1 index of the v4.x
# layout on the first label write: 1016 slots, one kept in reserve
NSLOT=1016

# --- the platform -----------------------------------------------------------
lookup() {
	B=$(nt_bus 0) || return 1
	for k in $REGION_KEYS; do
		r=$(nt_region 0 $(range_of $k)) || return 1
		eval "REG_$k=$r DIR_$k=/sys/bus/nd/devices/$r RID_$k=${r#region}"
	done
	D0=$(nt_dimm 0 0x0) && D1=$(nt_dimm 0 0x1) && D2=$(nt_dimm 0 0x100) &&
		D3=$(nt_dimm 0 0x101) || return 1
	DIMMS="$D0 $D1 $D2 $D3"
}
reg() { eval echo \$REG_$1; }
rdir() { eval echo \$DIR_$1; }
rid() { eval echo \$RID_$1; }
nsdir() { echo $(rdir $1)/namespace$(rid $1).$2; }

if ! lookup; then
	nok "nfit_test.0: bus, regions or DIMMs not found"
	exit 0
fi
got=
want=
for k in $REGION_KEYS; do got="$got $(reg $k)"; want="$want $(docname_of $k)"; done
expect_eq "nfit_test.0 regions carry the document's names (PM 1, PM 2, BLK 0..3)" "$got" "$want"
diag "regions:$got; DIMMs $DIMMS"

# available_size of every region (MiB), and PMEM max_available_extent
avail_now() {
	local k v out=
	for k in $REGION_KEYS; do
		eval _rd v \$DIR_$k/available_size
		case $v in [0-9]*) v=$((v / MiB)) ;; esac
		out="$out $v"
	done
	echo $out
}
mae_now() {
	local a b
	_rd a $DIR_R0/max_available_extent
	_rd b $DIR_R1/max_available_extent
	case $a in [0-9]*) a=$((a / MiB)) ;; esac
	case $b in [0-9]*) b=$((b / MiB)) ;; esac
	echo "$a $b"
}
# regions idle at the start: a blank platform, every seed namespaceR.0
for k in $REGION_KEYS; do
	d=$(rdir $k)
	got="$(cat $d/nstype) $(cat $d/namespace_seed 2>&1) $(ns_list $d) | $(ns_state $d/namespace$(rid $k).0 | cut -d' ' -f1-5)"
	expect_eq "start: $(reg $k) nstype, seed, namespaces | seed state" "$got" \
		"$(nstype_of x $k) namespace$(rid $k).0 namespace$(rid $k).0 | 0 $(nstype_of x $k) 0 - -"
done
avail_check() {	# DESC R0 R1 B0 B1 B2 B3
	local desc=$1
	shift
	expect_eq "$desc: available_size (MiB) of $REGION_KEYS" "$(avail_now)" "$*"
	expect_eq "$desc: max_available_extent (MiB) of R0 R1" "$(mae_now)" "$1 $2"
}
avail_check "start" $INIT_AVAIL

ns_phase "configure"
# --- configure the picture ----------------------------------------------------
# wr DESC FILE VALUE: one write that must succeed; collects failures in $bad
wr() {
	local r
	r=$(ns_w $1 "$2")
	[ "$r" = ok ] || bad="$bad ${1##*/}=$2: $r;"
}

echo "$STEPS" | while read key rk nsid mib ss order ext a0 a1 b0 b1 b2 b3; do
	[ -n "$key" ] || continue
	R=$(rdir $rk)
	N=$(nsdir $rk $nsid)
	u=$(uuid_of $key)
	name=$(name_of $key)
	seed=$(cat $R/namespace_seed 2>/dev/null)
	expect_eq "$key: $(reg $rk)'s namespace_seed before the step" "$seed" "${N##*/}"
	bad=
	case $order in
	a) wr $N/alt_name $name; wr $N/uuid $u
	   [ $ss = - ] || wr $N/sector_size $ss
	   wr $N/size $((mib * MiB)) ;;
	b) wr $N/uuid $u; wr $N/size $((mib * MiB))
	   [ $ss = - ] || wr $N/sector_size $ss
	   wr $N/alt_name $name ;;
	c) wr $N/uuid $u
	   [ $ss = - ] || wr $N/sector_size $ss
	   wr $N/size $((mib * MiB)); wr $N/alt_name $name ;;
	esac
	[ -z "$bad" ] && ok "$key: ${N##*/} configured (order $order)" ||
		nok "$key: ${N##*/} writes failed:$bad"
	# a seed advances when it binds (v4.2, 6.1): PMEM to nd_pmem, BLK
	# to nd_blk
	expect_eq "$key: $(reg $rk)'s seed stays ${N##*/} until it binds" \
		"$(cat $R/namespace_seed 2>/dev/null)" "${N##*/}"
	echo ${N##*/} > /sys/bus/nd/drivers/$(drv_of $rk)/bind 2>/tmp/doc.err
	nd_settle
	expect_eq "$key: ${N##*/} size nstype dpa_extents uuid alt_name sector_size" \
		"$(ns_state $N)" "$((mib * MiB)) $(nstype_of x $rk) $ext $u $name $ss"
	avail_check "$key" $a0 $a1 $b0 $b1 $b2 $b3
	s=$(cat $R/namespace_seed 2>/dev/null)
	want=namespace$(rid $rk).$((nsid + 1))
	expect_eq "$key: $(reg $rk)'s new seed is a new idle namespace (name | state)" \
		"$s | $(ns_state $R/${s:-none} | cut -d' ' -f1-5)" "$want | 0 $(nstype_of x $rk) 0 - -"
done

ns_phase "labels"
# --- what is on the DIMMs -----------------------------------------------------
# expect_labels DESC: live labels and available_slots of every DIMM
expect_labels() {
	local i d want got c n
	# the cookie PMEM labels carry: set_cookie follows the first DIMM's
	# label version (v1.1 here), so read it now that labels exist
	_rd COOKIE_R0 $DIR_R0/set_cookie
	_rd COOKIE_R1 $DIR_R1/set_cookie
	i=0
	for d in $DIMMS; do
		eval want=\$LABELS_$i
		want=$(echo "$want" | while read dpa raw fl nl pos lba key; do
			[ -n "$dpa" ] || continue
			case $key in pm0.0) c=$COOKIE_R0 ;; pm1.0) c=$COOKIE_R1 ;; *) c=0 ;; esac
			echo "dpa=$dpa rawsize=$raw flags=$fl nlabel=$nl position=$pos lbasize=$lba cookie=$c uuid=$(uuid_of $key) name=$(name_of $key) slotok=1 csum=-"
		done)
		if ns_area $d /tmp/doc.$d; then
			got=$(ns_labels /tmp/doc.$d)
			if [ "$got" = "$want" ]; then
				ok "$1: $d live labels as the picture ($(echo "$want" | wc -l))"
			else
				nok "$1: $d live labels differ"
				echo "$want" | sed 's/^/#   want: /'
				echo "$got" | sed 's/^/#   got:  /'
			fi
			# both blocks valid v1.1; the current one is the other's
			# successor in the sequence cycle 1 -> 2 -> 3 -> 1 (the
			# last update went to the older block); its bitmap frees
			# every slot but the live labels'
			got=$(nvt-labels show /tmp/doc.$d | awk '
				$1 == "index" { v = v " " $10 "/" $11 "/" $9 "/" $13; q[$2] = substr($4, 5) % 4 }
				$1 == "current" { c = $2 }
				$1 == "free" { f = $2 }
				END { nx[1] = 2; nx[2] = 3; nx[3] = 1
					print "successor=" (c != "none" && nx[q[1 - c]] == q[c]) v " free=" f }')
			n=$(echo "$want" | wc -l)
			expect_eq "$1: $d index (current follows the other, ver/lsize/nslot/valid of both, free slots) and available_slots" \
				"$got $(cat /sys/bus/nd/devices/$d/available_slots 2>&1)" \
				"successor=1 ver=1.1/lsize=128/nslot=$NSLOT/valid=1 ver=1.1/lsize=128/nslot=$NSLOT/valid=1 free=$((NSLOT - n)) $((NSLOT - n - 1))"
		else
			nok "$1: $d label area unreadable: $(cat /tmp/ns-area.out)"
		fi
		i=$((i + 1))
	done
}
expect_labels "configured"

ns_phase "data"
# --- data through /dev/pmem of pm0.0, pm1.0 and /dev/ndblk of the blk* -----
# every namespace of the picture, PMEM and BLK (/dev/ndblkR.N, nd_blk)
PM_KEYS="pm0.0:R0:0:6101 pm1.0:R1:0:6102 blk2.0:B0:0:6103 blk3.0:B1:0:6104
blk2.1:B0:1:6105 blk3.1:B1:1:6106 blk4.0:B2:0:6107 blk5.0:B3:0:6108"
pm_io() {	# write|verify DESC
	local e key rk nsid seed N b
	for e in $PM_KEYS; do
		IFS=: read key rk nsid seed <<EOF
$e
EOF
		N=$(nsdir $rk $nsid)
		b=$(nt_blockdev $N)
		if [ -z "$b" ]; then
			nok "$2: $key (${N##*/}) has no block device (driver $(ns_driver $N))"
			continue
		fi
		if nvt-pattern $1 /dev/$b 0 4M $seed > /tmp/doc.io 2>&1 &&
			nvt-pattern $1 /dev/$b -2M 2M $((seed + 50)) >> /tmp/doc.io 2>&1; then
			ok "$2: $key (/dev/$b) pattern ${1}s: first 4M, last 2M"
		else
			nok "$2: $key (/dev/$b) pattern $1: $(tr '\n' ' ' < /tmp/doc.io)"
		fi
	done
}
for e in $PM_KEYS; do
	IFS=: read key rk nsid seed <<EOF
$e
EOF
	N=$(nsdir $rk $nsid)
	[ -e $N/driver ] || echo ${N##*/} > /sys/bus/nd/drivers/$(drv_of $rk)/bind 2>/tmp/doc.err
	nd_settle
	expect_eq "$key: ${N##*/} bound to $(drv_of $rk)" "$(ns_driver $N)" $(drv_of $rk)
done
pm_io write "configured"
for d in $DIMMS; do ns_area $d /tmp/doc.save.$d; done

# --- everything back after a re-enable ------------------------------------------
# check_all DESC: every namespace of the picture, seeds, namespace lists,
# available sizes, labels unchanged, data
check_all() {
	local key rk nsid mib ss order ext rest k want N d
	echo "$STEPS" | while read key rk nsid mib ss order ext rest; do
		[ -n "$key" ] || continue
		N=$(nsdir $rk $nsid)
		expect_eq "$1: $key (${N##*/}) size nstype dpa_extents uuid alt_name sector_size" \
			"$(ns_state $N)" "$((mib * MiB)) $(nstype_of x $rk) $ext $(uuid_of $key) $(name_of $key) $ss"
	done
	for k in $REGION_KEYS; do
		n=$(echo "$STEPS" | awk -v k=$k '$2 == k { n++ } END { print n + 0 }')
		want=
		i=0
		while [ $i -le $n ]; do want="$want namespace$(rid $k).$i"; i=$((i + 1)); done
		d=$(rdir $k)
		s=$(cat $d/namespace_seed 2>/dev/null)
		expect_eq "$1: $(reg $k) namespaces, seed (state)" \
			"$(ns_list $d) | $s ($(ns_state $d/${s:-none} | cut -d' ' -f1-5))" \
			"${want# } | namespace$(rid $k).$n (0 $(nstype_of x $k) 0 - -)"
	done
	avail_check "$1" 0 0 0 0 0 0
	for d in $DIMMS; do
		if ns_area $d /tmp/doc.now.$d && cmp -s /tmp/doc.save.$d /tmp/doc.now.$d; then
			ok "$1: $d label area unchanged"
		else
			nok "$1: $d label area changed: $(cmp /tmp/doc.save.$d /tmp/doc.now.$d 2>&1 | head -n 1)"
			nvt-labels show /tmp/doc.now.$d | head -n 12 | sed 's/^/#   /'
		fi
	done
	for e in $PM_KEYS; do
		IFS=: read key rk nsid seed <<EOF
$e
EOF
		N=$(nsdir $rk $nsid)
		expect_eq "$1: $key (${N##*/}) probed by $(drv_of $rk) again" "$(ns_driver $N)" $(drv_of $rk)
	done
}

ns_phase "(a) rebind"
# (a) regions and DIMMs unbound through sysfs, then bound again
ns_mark
nt_regions_unbind 0
got=$(ls -d $B/region*/namespace[0-9]* 2>/dev/null | wc -l)
expect_eq "(a) regions unbound: no namespace devices left on nfit_test.0" "$got" 0
for d in $DIMMS; do echo $d > /sys/bus/nd/drivers/nvdimm/unbind; done
got=$(for d in $DIMMS; do [ -e /sys/bus/nd/devices/$d/driver ] && echo $d; done)
expect_eq "(a) DIMMs unbound" "$got" ""
for d in $DIMMS; do echo $d > /sys/bus/nd/drivers/nvdimm/bind; done
nd_settle
nt_regions_bind 0
wait_pmem 3 10
check_all "(a) rebound"
pm_io verify "(a) rebound"
ns_log_since | grep -E 'nmem|region|namespace' | head -n 10 | sed 's/^/# dmesg: /'

ns_phase "(b) platform rebind"
# (b) the whole bus: the nfit_test.0 platform device unbound from its driver
# and bound again (nfit's devres teardown, then a new NFIT walk, new DIMM and
# region devices)
PD=/sys/bus/platform/drivers/nfit_test
ns_mark
for d in $DIMMS; do cp /tmp/doc.save.$d /tmp/doc.bus.$d; done
if echo nfit_test.0 > $PD/unbind; then
	nd_settle
	if nt_bus 0 > /dev/null; then
		nok "(b) nfit_test.0 unbound but its ndbus is still there"
	else
		ok "(b) nfit_test.0 unbound from nfit_test: its ndbus, DIMMs, regions are gone"
	fi
	echo nfit_test.0 > $PD/bind
	nd_settle
	if lookup; then
		ok "(b) nfit_test.0 bound again: $(nt_bus 0 | sed 's,.*/,,'), DIMMs $DIMMS"
		# the mock keeps media and label areas as long as the module
		# (docs/nfit_test.md): areas that come back different are a
		# failure, and the checks below say what else was lost
		persisted=1
		for d in $DIMMS; do
			ns_area $d /tmp/doc.now.$d && cmp -s /tmp/doc.bus.$d /tmp/doc.now.$d || persisted=
		done
		[ -n "$persisted" ] && ok "(b) label areas of $DIMMS as before the platform rebind" ||
			nok "(b) label areas changed across the platform rebind (nfit_test keeps them while loaded)"
		wait_pmem 3 10
		check_all "(b) platform rebound"
		pm_io verify "(b) platform rebound"
	else
		nok "(b) nfit_test.0 did not come back: $(ls /sys/bus/nd/devices | tr '\n' ' ')"
		exit 0
	fi
else
	nok "(b) cannot unbind nfit_test.0 from $PD"
fi
ns_log_since | grep -E 'nmem|region|namespace' | head -n 10 | sed 's/^/# dmesg: /'

ns_phase "delete"
# --- delete everything, last first: available_size walks back ------------------
for e in $PM_KEYS; do
	IFS=: read key rk nsid seed <<EOF
$e
EOF
	N=$(nsdir $rk $nsid)
	[ -e $N/driver ] && echo ${N##*/} > $N/driver/unbind
done
nd_settle
prev=$(echo "$STEPS" | awk 'NF { print }')
n=$(echo "$prev" | wc -l)
while [ $n -gt 0 ]; do
	set -- $(echo "$prev" | sed -n ${n}p)
	key=$1 rk=$2 nsid=$3
	if [ $n -gt 1 ]; then
		want=$(echo "$prev" | sed -n $((n - 1))p | awk '{ print $8, $9, $10, $11, $12, $13 }')
	else
		want=$INIT_AVAIL
	fi
	R=$(rdir $rk)
	N=$(nsdir $rk $nsid)
	seed=$(cat $R/namespace_seed 2>/dev/null)
	r=$(ns_w $N/size 0)
	nd_settle
	if [ $nsid = 0 ]; then
		# namespaceR.0 stays, idle (alt_name may stay)
		got="$r | $(ns_state $N | cut -d' ' -f1-4)"
		expect_eq "delete $key: size 0 | ${N##*/} stays, idle" "$got" "ok | 0 $(nstype_of x $rk) 0 -"
	else
		got="$r | $([ -e $N ] && echo present || echo gone)"
		expect_eq "delete $key: size 0 | ${N##*/} (neither .0 nor the seed) goes away" "$got" "ok | gone"
	fi
	expect_eq "delete $key: $(reg $rk)'s seed stays $seed" "$(cat $R/namespace_seed 2>/dev/null)" "$seed"
	avail_check "delete $key" $want
	n=$((n - 1))
done
for d in $DIMMS; do
	if ns_area $d /tmp/doc.now.$d; then
		got="$(ns_labels /tmp/doc.now.$d | wc -l) $(nvt-labels show /tmp/doc.now.$d | awk '$1 == "current" { print $2 != "none" }') $(cat /sys/bus/nd/devices/$d/available_slots 2>&1)"
		expect_eq "all deleted: $d live labels, a valid index, available_slots" "$got" "0 1 $((NSLOT - 1))"
	else
		nok "all deleted: $d label area unreadable"
	fi
done
# enabled again: no labels, so every region has just namespaceR.0, the seed
nt_regions_unbind 0
nt_regions_bind 0
for k in $REGION_KEYS; do
	d=$(rdir $k)
	expect_eq "all deleted, regions rebound: $(reg $k) namespaces | seed (state)" \
		"$(ns_list $d) | $(cat $d/namespace_seed 2>&1) ($(ns_state $d/namespace$(rid $k).0 | cut -d' ' -f1-4))" \
		"namespace$(rid $k).0 | namespace$(rid $k).0 (0 $(nstype_of x $k) 0 -)"
done
avail_check "all deleted, regions rebound" $INIT_AVAIL
ns_phase "done"
