# nt-stress: concurrency stress on nfit_test (issue 14 item 2) for a fixed
# time (NVT_STRESS_SECONDS, default 20).  Parallel workers:
#   pmem     Debian's ndctl creates and destroys namespaces in every mode
#            (raw, sector, fsdax, devdax: refused on a mock range) on
#            nfit_test.0's 4-way PMEM region
#   blk      our ndctl (/opt/ours/bin/ndctl) creates and destroys 4 and
#            8 MiB raw BLK namespaces on DIMM 0x101's BLK region (a BTT
#            wants more than 16 MiB: a BLK namespace that size takes DPA
#            the 4-way region's namespaces need aligned, and fsdax and
#            devdax would fail for want of alignment; nt-load-cycles
#            makes BLK sector namespaces)
#   seed     sysfs: uuid, sector_size, size on the BLK seed of DIMM 0x100,
#            bind to nd_blk, unbind, size 0
#   toggle   disables and enables the stable namespaces and regions
#            (sysfs unbind/bind and ndctl disable-/enable-namespace)
#   binder   unbinds and binds DIMM 0x101 and nfit_test.1's whole bus
#   io       writes seeded 4 KiB blocks (O_DIRECT|O_DSYNC) to the stable
#            namespaces, records each write that completed (a failed one
#            makes its block unknown), reads the first block of every
#            other pmem block device
#   attrs    reads every attribute of every nd device
#   labels   label commands: GET_CONFIG_SIZE/DATA, DIMM flags, ndctl
#            read-labels of every DIMM
# The stable namespaces (created before, never destroyed): sector on the
# 2-way PMEM region, fsdax on the 4-way one, raw BLK on DIMM 0x100, and
# nfit_test.1's label-less raw io namespace.
# Afterwards: every worker ended, no hung task (detector at 30 s) and no
# kernel report, every DIMM's label index valid and its labels whole; the
# bus rebound (nfit_test.0 unbound, bound); the namespaces it lists are
# the ones the labels describe (uuid, size), the stable ones in their
# modes; every block whose write completed reads back its data.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/stress.inc"

SECS=${NVT_STRESS_SECONDS:-20}
GRACE=${NVT_STRESS_GRACE:-240}
W=/tmp/ss
rm -rf $W
mkdir -p $W

nd_settle
nt_debugfs
modprobe nd_btt 2> /dev/null
modprobe dax_pmem 2> /dev/null
B0=$(nt_bus 0) && P1=$(nt_region 0 1) && P2=$(nt_region 0 2) &&
	B9=$(nt_region 0 9) && B10=$(nt_region 0 10) &&
	D0=$(nt_dimm 0 0x0) && D1=$(nt_dimm 0 0x1) && D2=$(nt_dimm 0 0x100) &&
	D3=$(nt_dimm 0 0x101) && nt_bus 1 > /dev/null ||
	{ nok "nfit_test.0/1 not found"; exit 0; }
DIMMS="$D0 $D1 $D2 $D3"
[ -x $OURS ] || { nok "our ndctl $OURS is missing"; exit 0; }

# --- hung-task detector: 30 s; its reports fail the test ---------------------
HT=/proc/sys/kernel/hung_task_timeout_secs
if [ -e $HT ]; then
	ht0=$(cat $HT)
	echo 30 > $HT
	htw0=$(cat /proc/sys/kernel/hung_task_warnings)
fi
blocked0=$(dmesg | grep -c 'blocked for more than')
warn0=$(dmesg | grep -Ec "$NVT_DMESG_BAD")

# --- clean start: knobs reset, blank labels, regions enabled ---------------
for d in $DIMMS; do nt_knobs_reset $d; done
nt_blank_labels 0 $DIMMS
for r in $(nt_bus 1)/region*; do echo 0 > $r/read_only; done
nd_settle

# stable namespaces (fsdax and devdax need multiples of 16 MiB, a BTT
# more than 16 MiB)
ST_TABLE="sector:$P1:pmem:sector:32M:57e55000-5000-4000-8000-000000000002
fsdax:$P2:pmem:fsdax:16M:57e55000-5000-4000-8000-000000000003
blk:$B9:blk:raw:4M:57e55000-5000-4000-8000-000000000004"
ST_TAGS="sector fsdax blk io"
st_create $W || { nok "setup: $(cat $W/create.fail)"; exit 0; }
# the raw io namespace spans its 32 MiB range; the others as created
STABLE_WANT=" sector:safe:pmems:$((32 * MiB)) fsdax:memory:pmem:$((16 * MiB)) blk:raw:ndblk:$((4 * MiB)) io:raw:pmem:$((32 * MiB))"
expect_eq "setup: stable namespaces (tag:mode:block device kind:size)" \
	"$(st_state)" "$STABLE_WANT"

END=$(( $(cut -d. -f1 /proc/uptime) + SECS ))
running() { [ $(cut -d. -f1 /proc/uptime) -lt $END ]; }
# count NAME: one more in $W/NAME
count() { echo $(( $(cat $W/$1 2> /dev/null || echo 0) + 1 )) > $W/$1; }

# churn_clean REGION NAME NDCTL: destroy the region's namespaces named NAME
# (whatever a create made, also a refused devdax's configured namespace)
churn_clean() {
	local n
	for n in /sys/bus/nd/devices/$1/namespace*; do
		[ "$(cat $n/alt_name 2> /dev/null)" = $2 ] || continue
		$3 destroy-namespace -f ${n##*/} > /dev/null 2>&1 &&
			count $2.destroy || count $2.fail.destroy
	done
}

w_pmem() {
	local m a
	while running; do
		for m in raw sector fsdax devdax; do
			a="-s 16M -a 4K"
			case $m in raw) a="-s 16M" ;; sector) a="-s 24M" ;; esac
			ndctl create-namespace -r $P2 -m $m $a -n churn > $W/pmem.out 2>&1 &&
				count pmem.create.$m || count pmem.fail.$m
			churn_clean $P2 churn ndctl
		done
	done
}

w_blk() {
	local m
	while running; do
		for m in 4M 8M; do
			$OURS create-namespace -r $B10 -t blk -m raw -s $m -n churnb > $W/blk.out 2>&1 &&
				count blk.create.$m || count blk.fail.$m
			churn_clean $B10 churnb $OURS
		done
	done
}

w_seed() {
	local R=/sys/bus/nd/devices/$B9 s i=0
	while running; do
		i=$((i + 1))
		s=$R/$(cat $R/namespace_seed 2> /dev/null)
		if { echo $(printf '57e55000-5000-4000-8000-%012x' $((0x1000 + i))) > $s/uuid &&
			echo 4096 > $s/sector_size && echo $((4 * MiB)) > $s/size &&
			echo ${s##*/} > /sys/bus/nd/drivers/nd_blk/bind; } 2> /dev/null; then
			count seed.ok
		else
			count seed.fail
		fi
		{ echo ${s##*/} > /sys/bus/nd/drivers/nd_blk/unbind; } 2> /dev/null
		{ echo 0 > $s/size; } 2> /dev/null
	done
}

w_toggle() {
	local t d n
	while running; do
		for t in sector fsdax blk; do
			d=$(st_dir $t)
			[ -n "$d" ] || continue
			n=${d##*/}
			if ndctl disable-namespace $n > /dev/null 2>&1; then
				count toggle.ns
			else
				count toggle.fail
			fi
			usleep 200000
			ndctl enable-namespace $n > /dev/null 2>&1 || count toggle.fail
		done
		for r in $P1 $B10; do
			{ echo $r > /sys/bus/nd/drivers/nd_region/unbind; } 2> /dev/null &&
				count toggle.region || count toggle.fail
			usleep 300000
			{ echo $r > /sys/bus/nd/drivers/nd_region/bind; } 2> /dev/null ||
				count toggle.fail
		done
	done
}

w_binder() {
	while running; do
		{ echo $D3 > /sys/bus/nd/drivers/nvdimm/unbind; } 2> /dev/null &&
			count binder.dimm || count binder.fail
		usleep 100000
		{ echo $D3 > /sys/bus/nd/drivers/nvdimm/bind; } 2> /dev/null || count binder.fail
		{ echo nfit_test.1 > /sys/bus/platform/drivers/nfit_test/unbind; } 2> /dev/null &&
			count binder.bus || count binder.fail
		usleep 300000
		{ echo nfit_test.1 > /sys/bus/platform/drivers/nfit_test/bind; } 2> /dev/null ||
			count binder.fail
		usleep 500000
	done
}

# held_write DEV NSDIR BLOCK SEED: write the seeded block to DEV, holding
# the disk open from before the write until it is known to be the
# namespace's (a name passes to another namespace's new disk when the
# binder or the toggler re-creates disks between the lookup and the open;
# a disk held open keeps its device number).  Prints ok, moved (the held
# disk is not the namespace's now), or fail.
held_write() {
	(
		# read-only: "<>" creates a regular file where the node just
		# vanished, and devtmpfs then cannot put the next disk of that
		# name there (nvt-pattern opens the held disk again, read-write)
		exec 2> /dev/null 5< /dev/$1 || exit
		[ -b /proc/self/fd/5 ] || exit
		nvt-pattern wsync /proc/self/fd/5 $(($3 * 4096)) 4096 $4 > /dev/null || { echo fail; exit; }
		now=$(cat /sys/class/block/$(bdev_of $2)/dev)
		[ "$(stat -L -c '%t:%T' /proc/self/fd/5)" = "$(printf '%x:%x' ${now%:*} ${now#*:})" ] &&
			echo ok || echo moved
	)
}

# completed writes: $W/rec.TAG lines "BLOCK SEED" (SEED x: unknown), the
# last line of a block counts
w_io() {
	local k=0 seed t d dev b
	while running; do
		k=$(( (k + 1) % 256 ))
		for t in $ST_TAGS; do
			d=$(st_dir $t)
			dev=$([ -n "$d" ] && bdev_of $d)
			[ -n "$dev" ] && [ -b /dev/$dev ] || continue
			seed=$(( (k << 20) + $(cat $W/io.n 2> /dev/null || echo 0) + 1 ))
			echo $seed > $W/io.n
			case $(held_write $dev $d $k $seed) in
			ok)
				echo "$k $seed" >> $W/rec.$t
				count io.write
				;;
			moved)
				# it went to another namespace's disk: the block
				# is unknown wherever it landed
				for b in $ST_TAGS; do echo "$k x" >> $W/rec.$b; done
				count io.moved
				;;
			*)
				echo "$k x" >> $W/rec.$t
				count io.fail
				;;
			esac
		done
		for b in /dev/pmem* /dev/ndblk*; do
			[ -b $b ] || continue
			dd if=$b of=/dev/null bs=4096 count=1 2> /dev/null && count io.read
		done
	done
}

w_attrs() {
	local f
	while running; do
		for f in /sys/bus/nd/devices/*/* /sys/bus/nd/devices/*/nfit/* \
			/sys/class/nd/ndctl*/device/*; do
			case $f in */wait_probe | */uevent) continue ;; esac
			[ -f $f ] && cat $f > /dev/null 2>&1
		done
		count attrs.pass
	done
}

w_labels() {
	local d
	while running; do
		for d in $DIMMS; do
			[ -e /dev/$d ] || continue
			nd-label-ioctl size /dev/$d > /dev/null 2>&1 && count labels.size
			nd-label-ioctl get /dev/$d 0 256 > /dev/null 2>&1 && count labels.get
			nd-label-ioctl flags /dev/$d > /dev/null 2>&1 && count labels.flags
			ndctl read-labels $d -o $W/rl.$d > /dev/null 2>&1 &&
				count labels.read || count labels.fail
		done
	done
}

t0=$(cut -d. -f1 /proc/uptime)
pids=
for w in pmem blk seed toggle binder io attrs labels; do
	w_$w > $W/log.$w 2>&1 &
	pids="$pids $w:$!"
done
late=
for p in $pids; do
	while [ -d /proc/${p#*:} ]; do
		[ $(cut -d. -f1 /proc/uptime) -ge $((END + GRACE)) ] && break
		sleep 1
	done
	[ -d /proc/${p#*:} ] && late="$late $p"
done
t1=$(cut -d. -f1 /proc/uptime)
c() { cat $W/$1 2> /dev/null || echo 0; }
diag "stress ${SECS}s (ran $((t1 - t0))s): pmem create raw/sector/fsdax/devdax $(c pmem.create.raw)/$(c pmem.create.sector)/$(c pmem.create.fsdax)/$(c pmem.create.devdax) fail $(c pmem.fail.raw)/$(c pmem.fail.sector)/$(c pmem.fail.fsdax)/$(c pmem.fail.devdax) destroy $(c churn.destroy) fail $(c churn.fail.destroy)"
diag "  blk create 4M/8M $(c blk.create.4M)/$(c blk.create.8M) fail $(c blk.fail.4M)/$(c blk.fail.8M) destroy $(c churnb.destroy) fail $(c churnb.fail.destroy); seed ok/fail $(c seed.ok)/$(c seed.fail)"
diag "  toggles ns/region/fail $(c toggle.ns)/$(c toggle.region)/$(c toggle.fail); binds dimm/bus/fail $(c binder.dimm)/$(c binder.bus)/$(c binder.fail)"
diag "  io writes/fail/moved/reads $(c io.write)/$(c io.fail)/$(c io.moved)/$(c io.read); attr passes $(c attrs.pass); label size/get/flags/read-labels/fail $(c labels.size)/$(c labels.get)/$(c labels.flags)/$(c labels.read)/$(c labels.fail)"
if [ -n "$late" ]; then
	nok "workers still running ${GRACE}s after the end (hung?):$late"
	for p in $late; do
		diag "${p%%:*} (pid ${p#*:}): $(tr '\n' ' ' < /proc/${p#*:}/stack 2> /dev/null | head -c 500)"
	done
	ps -o pid,stat,args 2> /dev/null | sed 's/^/#   /' | head -n 40
	exit 0
fi
ok "8 workers for ${SECS}s all ended ($((t1 - t0))s)"
# every worker did its work at least once (a worker that always failed
# stressed nothing)
lazy=
for k in pmem.create.raw pmem.create.sector pmem.create.fsdax blk.create.4M \
	blk.create.8M seed.ok toggle.ns toggle.region binder.dimm binder.bus \
	io.write io.read attrs.pass labels.get labels.read; do
	[ $(c $k) -gt 0 ] || lazy="$lazy $k"
done
[ -z "$lazy" ] && ok "every worker succeeded at least once" ||
	nok "operations that never succeeded:$lazy (logs: $(cat $W/pmem.out $W/blk.out 2> /dev/null | tr '\n' ' ' | head -c 300))"

# --- hung tasks, kernel reports ---------------------------------------------
blocked1=$(dmesg | grep -c 'blocked for more than')
if [ -e $HT ]; then
	htw1=$(cat /proc/sys/kernel/hung_task_warnings)
	echo $ht0 > $HT
	expect_eq "no hung task (detector at 30 s: reports, warnings left)" \
		"$((blocked1 - blocked0)) $htw1" "0 $htw0"
else
	skip "hung-task detector" "no $HT (kernel without CONFIG_DETECT_HUNG_TASK)"
fi
warn1=$(dmesg | grep -Ec "$NVT_DMESG_BAD")
[ "$warn1" = "$warn0" ] && ok "no kernel report during the stress" || {
	nok "$((warn1 - warn0)) new kernel report line(s) during the stress"
	dmesg | grep -E "$NVT_DMESG_BAD" | tail -n 20 | sed 's/^/#   /'
}

# --- everything back: bus, DIMMs, regions, stable namespaces ----------------
[ -e /sys/bus/platform/drivers/nfit_test/nfit_test.1 ] ||
	echo nfit_test.1 > /sys/bus/platform/drivers/nfit_test/bind
[ -e /sys/bus/nd/drivers/nvdimm/$D3 ] || echo $D3 > /sys/bus/nd/drivers/nvdimm/bind
nd_settle
nt_regions_bind 0
for t in sector fsdax blk; do
	d=$(st_dir $t)
	[ -n "$d" ] && ndctl enable-namespace ${d##*/} > /dev/null 2>&1
done
nd_settle

# --- labels: every DIMM's index valid, every label whole ----------------------
# each DIMM's area saved ($W/area.X) and decoded ($W/show.X)
bad=
for d in $DIMMS; do
	if ! nd-label-ioctl read /dev/$d $W/area.$d > $W/rd.out 2>&1; then
		bad="$bad $d:unreadable"
		continue
	fi
	nvt-labels show $W/area.$d > $W/show.$d
	grep -q '^current [01]$' $W/show.$d || bad="$bad $d:no-current-index"
	awk '$1 == "index" && $0 ~ /valid=1/' $W/show.$d | grep -q . || bad="$bad $d:no-valid-index"
	grep '^label ' $W/show.$d | grep -Eqv 'slotok=1 csum=(ok|-)$' && bad="$bad $d:bad-label"
	ndctl read-labels -j $d > $W/rl.json 2>&1 || bad="$bad $d:read-labels"
done
[ -z "$bad" ] && ok "labels of $DIMMS: a valid current index, every label slot and checksum ok, ndctl read-labels reads them" ||
	nok "labels:$bad"
# from the labels: "uuid size", size the sum of the uuid's label rawsizes
for d in $DIMMS; do grep '^label ' $W/show.$d 2> /dev/null; done |
	sed 's/.*uuid=\([^ ]*\).*rawsize=\([^ ]*\).*/\1 \2/' |
	while read u r; do echo "$u $((r))"; done |
	awk '{ s[$1] += $2 } END { for (u in s) printf "%s %d\n", u, s[u] }' | sort > $W/from-labels

# --- rebind the bus: what it lists is what the labels say ------------------
echo nfit_test.0 > /sys/bus/platform/drivers/nfit_test/unbind
echo nfit_test.0 > /sys/bus/platform/drivers/nfit_test/bind
nd_settle
for n in $(nt_bus 0)/region*/namespace*; do
	u=$(cat $n/uuid 2> /dev/null)
	case $u in "" | 00000000-0000-0000-0000-000000000000) continue ;; esac
	echo "$u $(cat $n/size)"
done | sort > $W/from-bus
if cmp -s $W/from-labels $W/from-bus && [ -s $W/from-bus ]; then
	ok "rebound nfit_test.0: its $(wc -l < $W/from-bus) namespaces are the labels' (uuid, size)"
else
	nok "rebound nfit_test.0: namespaces (uuid size) differ from the labels'"
	diff $W/from-labels $W/from-bus 2>&1 | head -n 20 | sed 's/^/#   /'
fi
expect_eq "rebound: stable namespaces (tag:mode:block device kind:size)" \
	"$(st_state)" "$STABLE_WANT"

# --- the data of every completed write --------------------------------------
nblk=0 nbad=0 bads=
for t in $ST_TAGS; do
	[ -s $W/rec.$t ] || continue
	d=$(st_dir $t)
	dev=$([ -n "$d" ] && bdev_of $d)
	awk '{ last[$1] = $2 } END { for (k in last) if (last[k] != "x") print k, last[k] }' $W/rec.$t > $W/last.$t
	while read k seed; do
		nblk=$((nblk + 1))
		if ! nvt-pattern verify /dev/$dev $((k * 4096)) 4096 $seed > /dev/null 2>&1; then
			nbad=$((nbad + 1))
			bads="$bads $t:$k"
		fi
	done < $W/last.$t
done
[ $nblk -gt 0 ] && [ $nbad = 0 ] &&
	ok "data of the completed writes intact after the rebind ($nblk blocks of $(c io.write) writes)" ||
	nok "completed writes: $nbad of $nblk blocks differ:$(echo $bads | head -c 300)"

# leave the platform as it was found for the next tests: no namespaces
ndctl destroy-namespace -f -b nfit_test.0 all > /dev/null 2>&1
nt_blank_labels 0 $DIMMS
