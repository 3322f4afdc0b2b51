# nt-ns-stress: configuration racing new devices (issue 10 defects 4, 8),
# on nfit_test.0's region0 (2-way PMEM) and region4 (BLK on DIMM 2).
#
# Worker A creates and deletes namespaces through the seed for a fixed
# number of rounds: uuid, size, bind to nd_pmem (the seed advances: a new
# namespace device appears), unbind, size 0 (the namespace goes away).
# Workers B and C write the attributes of whatever the region's seed is
# at that moment (alt_name, sector_size, holder_class: most writes land
# on a device being created or a namespace being bound) and read every
# attribute of the region's namespaces.  A BLK worker does the same on
# region4 with its own seed.  A registration under the bus lock deadlocks
# here (a write on a new seed holds its device lock and waits for the
# lock its creator holds); on the debug kernel lockdep and the hung-task
# detector watch too.  Afterwards: every worker finished in time, the
# regions hold only namespaceR.0 and an idle seed, all space is free,
# the labels are intact (a rebind of the regions finds nothing).
. /nvt/lib.sh
. /nvt/nfit_test.inc
. /nvt/ns.inc

nd_settle
B=$(nt_bus 0) && R0=/sys/bus/nd/devices/$(nt_region 0 1) &&
	RB=/sys/bus/nd/devices/$(nt_region 0 9) &&
	D0=$(nt_dimm 0 0x0) && D1=$(nt_dimm 0 0x1) && D2=$(nt_dimm 0 0x100) &&
	D3=$(nt_dimm 0 0x101) || { nok "nfit_test.0 not found"; exit 0; }
DIMMS="$D0 $D1 $D2 $D3"
ROUNDS=${NVT_STRESS_ROUNDS:-25}
LIMIT=${NVT_STRESS_LIMIT:-240}

# blank label areas, regions enabled
nt_regions_unbind 0
for d in $DIMMS; do
	nd-label-ioctl write /dev/$d /dev/zero > /tmp/st.out 2>&1 ||
		nok "zero $d's label area: $(cat /tmp/st.out)"
	echo $d > /sys/bus/nd/drivers/nvdimm/unbind
	echo $d > /sys/bus/nd/drivers/nvdimm/bind
done
nt_regions_bind 0
nd_settle
avail0=$(cat $R0/available_size)
availb=$(cat $RB/available_size)

# creator REGION_DIR KIND: ROUNDS create/bind/unbind/delete cycles
creator() {
	local R=$1 i=0 s u fails=0
	while [ $i -lt $ROUNDS ]; do
		s=$R/$(cat $R/namespace_seed)
		u=$(printf '57e55000-0000-4000-8000-%012x' $((i + ${2:-0})))
		echo $u > $s/uuid 2>/dev/null &&
			echo $((16 * MiB)) > $s/size 2>/dev/null || fails=$((fails + 1))
		if [ "$3" = pmem ]; then
			echo ${s##*/} > /sys/bus/nd/drivers/nd_pmem/bind 2>/dev/null ||
				fails=$((fails + 1))
			echo ${s##*/} > /sys/bus/nd/drivers/nd_pmem/unbind 2>/dev/null
		fi
		echo 0 > $s/size 2>/dev/null || fails=$((fails + 1))
		i=$((i + 1))
	done
	echo $fails > /tmp/st.creator.$3
}

# poker REGION_DIR: attribute writes on the current seed and on the one
# that comes next (namespaceR.N+1: its attributes are written the moment
# it appears in sysfs, before it is probed) until told to stop
poker() {
	local R=$1 n=0 s next
	while [ ! -e /tmp/st.stop ]; do
		s=$(cat $R/namespace_seed 2>/dev/null)
		next=${s%.*}.$((${s##*.} + 1))
		for a in $R/$next $R/$s $R/$next; do
			echo poke-$n > $a/alt_name 2>/dev/null
			echo "" > $a/holder_class 2>/dev/null
		done
		echo 4096 > $R/$s/sector_size 2>/dev/null
		n=$((n + 1))
	done
	echo $n > /tmp/st.poker.$2
}

reader() {
	local n=0
	while [ ! -e /tmp/st.stop ]; do
		cat $R0/namespace*/* $RB/namespace*/* $R0/available_size \
			$RB/available_size > /dev/null 2>&1
		n=$((n + 1))
	done
	echo $n > /tmp/st.reader
}

rm -f /tmp/st.stop /tmp/st.creator.* /tmp/st.poker.* /tmp/st.reader
t0=$(cut -d. -f1 /proc/uptime)
creator $R0 0 pmem & pa=$!
creator $RB 1000 blk & pb=$!
poker $R0 p & pp=$!
poker $RB b & pq=$!
reader & pr=$!
# the creators run their rounds; a deadlock keeps them from finishing
while [ -d /proc/$pa ] || [ -d /proc/$pb ]; do
	[ $(( $(cut -d. -f1 /proc/uptime) - t0 )) -gt $LIMIT ] && break
	sleep 1
done
touch /tmp/st.stop
hung=
for p in $pa $pb; do [ -d /proc/$p ] && hung="$hung $p"; done
if [ -n "$hung" ]; then
	nok "creators still running after ${LIMIT}s (deadlock?):$hung"
	for p in $hung; do
		diag "pid $p: $(cat /proc/$p/wchan 2>/dev/null) $(tr '\n' ' ' < /proc/$p/stack 2>/dev/null | head -c 400)"
	done
	exit 0
fi
wait $pp $pq $pr
ok "$ROUNDS create/bind/delete rounds on region0 and region4 with concurrent seed writes: $(( $(cut -d. -f1 /proc/uptime) - t0 ))s, $(cat /tmp/st.poker.p) + $(cat /tmp/st.poker.b) poker rounds, $(cat /tmp/st.reader) reader rounds"
expect_eq "creator failures (region0, region4)" \
	"$(cat /tmp/st.creator.pmem) $(cat /tmp/st.creator.blk)" "0 0"

nd_settle
for R in $R0 $RB; do
	s=$(cat $R/namespace_seed)
	n=$(ns_list $R | wc -w)
	expect_eq "${R##*/}: namespaces left (.0 and the seed) | seed idle" \
		"$n | $(ns_state $R/$s | cut -d' ' -f1,3,4)" "2 | 0 0 -"
done
expect_eq "available_size of region0, region4 back to the start" \
	"$(cat $R0/available_size) $(cat $RB/available_size)" "$avail0 $availb"
nt_regions_unbind 0
nt_regions_bind 0
nd_settle
expect_eq "rebound: region0, region4 namespaces from labels (none but .0)" \
	"$(ns_list $R0) | $(ns_list $RB)" \
	"$(basename $R0 | sed 's/region/namespace/').0 | $(basename $RB | sed 's/region/namespace/').0"

# --- a DIMM unbound and bound again during label transactions (defect 2) ----
# region0's namespace lives on DIMMs 0 and 1; every alt_name write is a
# two-pass transaction over both.  While DIMM 1 is unbound and bound in a
# loop, every write must succeed on both DIMMs (the enabled region keeps
# the DIMM's label state): afterwards, re-enabled, the namespace comes up
# from labels that agree, under the last name written.
S=$R0/$(cat $R0/namespace_seed)
FU=57e55000-0000-4000-8000-00000000f1a9
expect_eq "flap: ${S##*/} uuid, size 16M" \
	"$(ns_w $S/uuid $FU) $(ns_w $S/size $((16 * MiB)))" "ok ok"
rm -f /tmp/st.stop
flapper() {
	local n=0
	while [ ! -e /tmp/st.stop ]; do
		echo $D1 > /sys/bus/nd/drivers/nvdimm/unbind 2>/dev/null
		echo $D1 > /sys/bus/nd/drivers/nvdimm/bind 2>/dev/null
		n=$((n + 1))
	done
	echo $n > /tmp/st.flaps
}
flapper & pf=$!
i=0 fails=0
while [ $i -lt 40 ]; do
	[ "$(ns_w $S/alt_name flap-$i)" = ok ] || fails=$((fails + 1))
	i=$((i + 1))
done
touch /tmp/st.stop
wait $pf
[ -e /sys/bus/nd/drivers/nvdimm/$D1 ] || echo $D1 > /sys/bus/nd/drivers/nvdimm/bind
expect_eq "flap: alt_name writes failed while $D1 flapped ($(cat /tmp/st.flaps) unbind/bind cycles)" $fails 0
nt_regions_unbind 0
nt_regions_bind 0
nd_settle
n=
for d in $R0/namespace[0-9]*; do
	[ "$(cat $d/uuid 2>/dev/null)" = $FU ] && n=$d
done
expect_eq "flap: re-enabled, the namespace from labels (name size)" \
	"$(cat $n/alt_name 2>/dev/null) $(cat $n/size 2>/dev/null)" "flap-39 $((16 * MiB))"
[ -n "$n" ] && ns_w $n/size 0 > /dev/null
