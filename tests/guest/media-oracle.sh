# media-oracle: Debian's ndctl 76.1 media-error commands on a PMEM
# namespace of nfit_test, written so that it runs unchanged on upstream's
# own 6.1 mock (module set `upstream`, scripts/upstream-mock.sh) and on
# ours (set `test`); tests/guest/compare-media-oracle.py compares the two
# records line by line (docs/harness.md "The upstream-mock oracle").
#
# The namespace: a PMEM namespace on a bus that offers ARS error
# injection (nfit/dsm_mask bit 7), on the region with the fewest DIMMs
# (ours: nfit_test.1's 1-way range; upstream: nfit_test.1 cannot inject,
# nfit_test.0's 2-way range); a raw one is created with ndctl when no
# enabled namespace is there.  Then, by Debian's ndctl: inject-error
# --block/--count (adjacent and overlapping), --status, start-scrub,
# wait-scrub, list --media-errors, --uninject (part, then all); reads of
# a bad sector (EIO), writes over bad sectors (they clear, the list
# shrinks), bad input (past the end, straddling it, count 0); then an
# ext4 file whose block is found on the raw device (strings -t d), poisoned, read (EIO)
# and rewritten (clears).
#
# Every recorded value is namespace-relative (blocks, sectors) or a
# count: no device numbers, addresses or bus names, which differ
# between the mocks.  Records: /out/media-oracle.txt, "KEY: VALUE".
. "$(dirname "$0")/lib.sh"

# a freshly loaded mock: no state of an earlier test of the boot (us-doc
# runs it after us-media).  The upstream boot runs it first, on the mock
# /init loaded; there rmmod nfit_test fails (EAGAIN: upstream's mock is
# held while its buses are up), so it is not reloaded
if [ "$NVT_SET" != upstream ] &&
   { ! rmmod nfit_test > /tmp/mo.unload 2>&1 || ! modprobe nfit_test >> /tmp/mo.unload 2>&1; }; then
	nok "reloading nfit_test: $(cat /tmp/mo.unload)"
	exit 0
fi
nd_settle
wait_pmem 1 30
OUTF=/tmp/media-oracle.txt
: > $OUTF
rec() { echo "$1 = $2" >> $OUTF; }
flush_out() { [ -d "$NVT_OUT" ] && cp $OUTF "$NVT_OUT/media-oracle.txt"; }
flat() { tr -d ' \t\n'; }

# --- the namespace -------------------------------------------------------------
# can_inject BUS: the bus's dsm_mask has NFIT_CMD_ARS_INJECT_SET (7)
can_inject() {
	local m
	m=$(cat $1/nfit/dsm_mask 2> /dev/null) || return 1
	[ $((m >> 7 & 1)) = 1 ]
}
# pick: "NS REGION" of an enabled pmem namespace with a block device on an
# injecting bus, the region with the fewest mappings first
pick() {
	local b r ns n best= bestn=99
	for b in /sys/class/nd/ndctl*/device; do
		can_inject $b || continue
		for r in $b/region*; do
			[ "$(cat $r/nstype 2> /dev/null)" = 4 ] || continue
			n=$(cat $r/mappings)
			for ns in $r/namespace*.*; do
				[ -d $ns/block ] || continue
				[ $n -lt $bestn ] && { best="$ns $r"; bestn=$n; }
			done
		done
	done
	[ -n "$best" ] && echo $best
}
set -- $(pick)
if [ -z "$1" ]; then
	# none: a raw namespace on the first injecting bus's smallest region
	for b in /sys/class/nd/ndctl*/device; do
		can_inject $b || continue
		for r in $b/region*; do
			[ "$(cat $r/nstype 2> /dev/null)" = 4 ] || continue
			ndctl create-namespace -m raw -r ${r##*/} > /tmp/mo.cr 2>&1 && break 2
		done
	done
	nd_settle
	set -- $(pick)
	[ -n "$1" ] && diag "created a raw namespace: $(flat < /tmp/mo.cr | cut -c1-200)"
fi
if [ -z "$1" ]; then
	nok "no PMEM namespace on a bus with ARS injection ($(ls /sys/class/nd /sys/bus/nd/devices | tr '\n' ' '))"
	exit 0
fi
NSP=$1 REG=$2
NS=${NSP##*/} BUS=$(cd $REG/.. && pwd)
DEV=$(ls $NSP/block | head -n 1)
PROV=$(cat $BUS/provider)
SECTORS=$(cat /sys/block/$DEV/size)
LAST=$((SECTORS - 1))
NSOFF=$(( ($(cat $NSP/resource) - $(cat $REG/resource)) / 512 ))
ok "namespace $NS (/dev/$DEV, $PROV ${REG##*/}, $(cat $REG/mappings) DIMMs, $SECTORS sectors)"
diag "mappings: $(cat $REG/mappings); dsm_mask $(cat $BUS/nfit/dsm_mask)"
rec "namespace mode" "$(ndctl list -n $NS 2>&1 | flat | sed -n 's/.*"mode":"\([^"]*\)".*/\1/p')"
rec "namespace sectors" "$SECTORS"
rec "sector_size" "$(cat /sys/block/$DEV/queue/logical_block_size)"
# so that writes reach the media (the clears)
echo 0 > $REG/read_only 2> /dev/null

# scrubs: BUS/nfit/scrub is "N" or "N+" while one runs
scrub_wait() {
	local i=0 v
	while v=$(cat $BUS/nfit/scrub) && [ "${v%+}" != "$v" ] && [ $i -lt 300 ]; do
		usleep 100000
		i=$((i + 1))
	done
	echo ${v%+}
}
# the namespace's bad blocks as the kernel lists them, one line
bb() { cat /sys/block/$DEV/badblocks | tr '\n' ' ' | sed 's/ $//'; }
# the region's bad blocks, relative to the namespace's first sector
rbb() {
	local s n
	while read s n; do echo -n "$((s - NSOFF)) $n "; done < $REG/badblocks
}
# ndctl inject-error --status, normalised
inj_status() {
	local o
	o=$(ndctl inject-error --status $NS 2>&1)
	echo "rc=$? $(echo "$o" | flat)"
}
# ndctl list --media-errors: badblock_count, the list, and the number
# of DIMMs named per entry (translate-SPA, topology dependent)
media() {
	local o c l d
	o=$(ndctl list --media-errors -n $NS 2>&1 | flat)
	c=$(echo "$o" | sed -n 's/.*"badblock_count":\([0-9]*\).*/\1/p')
	l=$(echo "$o" | grep -o '"offset":[0-9]*,"length":[0-9]*' | sed 's/"offset"://; s/,"length":/+/' | tr '\n' ' ' | sed 's/ $//')
	d=$(echo "$o" | grep -o '"dimms":\[[^]]*\]' | wc -l)
	echo "count=${c:-none} [${l}]|dimm lists=$d"
}
rec_media() {
	local m
	m=$(media)
	rec "$1: list --media-errors" "${m%|*}"
	rec "$1: list --media-errors entries with dimms" "${m#*|}"
	rec "$1: /dev/pmem badblocks" "$(bb)"
	rec "$1: region badblocks (namespace-relative)" "$(rbb)"
}
# rd SECTOR: read one sector with O_DIRECT (tools/nvt-dio.c: busybox
# dd's iflag=direct falls back to buffered I/O, reading whole pages):
# "ok", "EIO", ...
rd() { nvt-dio read /dev/$DEV $(($1 * 512)) 512; }
# wr SECTOR COUNT: COUNT sectors of zeros in one O_DIRECT write
wr() { nvt-dio write /dev/$DEV $(($1 * 512)) $(($2 * 512)); }
# brd SECTOR: a buffered read of the page holding SECTOR (dd)
brd() {
	if dd if=/dev/$DEV of=/dev/null bs=512 skip=$1 count=1 2> /tmp/mo.dd; then
		echo ok
	elif grep -q 'Input/output error' /tmp/mo.dd; then
		echo EIO
	else
		echo "err($(tail -n 1 /tmp/mo.dd))"
	fi
}
# inj ARGS...: ndctl inject-error ARGS NS, "rc=N" and its first message
inj() {
	local o rc
	o=$(ndctl inject-error "$@" $NS 2>&1)
	rc=$?
	# ndctl names blocks in hex: the end and last block by name
	echo "rc=$rc $(echo "$o" | grep -v '^ *$' | head -n 1 | sed "s/$NS/NS/g; s/block $(printf %x $SECTORS)\$/block END/; s/block $(printf %x $LAST)\$/block LAST/")"
}

# --- the starting state ------------------------------------------------------
scrub_wait > /dev/null
rec "initial: inject-error --status" "$(inj_status)"
rec_media initial

# --- injections: (block, count), adjacent and overlapping ---------------------
c0=$(scrub_wait)
for bc in "8 2" "9 2" "11 1" "100 3" "64 1"; do
	set -- $bc
	r=$(inj --block=$1 --count=$2)
	rec "inject --block=$1 --count=$2" "$r"
	case $r in rc=0*) ok "ndctl inject-error --block=$1 --count=$2" ;;
	*) nok "ndctl inject-error --block=$1 --count=$2: $r" ;; esac
	rec "after inject $1+$2: inject-error --status" "$(inj_status)"
done
i=0
while c1=$(scrub_wait) && [ "$c1" -le "$c0" ] && [ $i -lt 50 ]; do
	usleep 100000
	i=$((i + 1))
done
rec "injections' notifications started a scrub" "$([ "$c1" -gt "$c0" ] && echo yes || echo "no ($c0 -> $c1)")"
rec_media "after injections"

check "ndctl start-scrub" ndctl start-scrub $PROV
check "ndctl wait-scrub" ndctl wait-scrub $PROV
c2=$(scrub_wait)
rec "start-scrub + wait-scrub: one more scrub" "$([ "$c2" = $((c1 + 1)) ] && echo yes || echo "no ($c1 -> $c2)")"
rec "wait-scrub: scrub_state" "$(ndctl list -B -b $PROV 2>&1 | flat | sed -n 's/.*"scrub_state":"\([^"]*\)".*/\1/p')"
rec_media "after start-scrub"

# --- uninject: part of a range, then the rest -----------------------------------
rec "uninject --block=9 --count=1" "$(inj --uninject --block=9 --count=1)"
rec "after uninject 9+1: inject-error --status" "$(inj_status)"
for bc in "8 1" "10 2" "100 3" "64 1"; do
	set -- $bc
	rec "uninject --block=$1 --count=$2" "$(inj --uninject --block=$1 --count=$2)"
done
rec "after uninjecting all: inject-error --status" "$(inj_status)"
ndctl start-scrub $PROV > /dev/null 2>&1
ndctl wait-scrub $PROV > /dev/null 2>&1
scrub_wait > /dev/null
rec_media "after uninject + scrub"

# --- reads and writes over bad sectors -------------------------------------------
for s in 7 8 9 11 12 64 100 102 103; do
	rec "read sector $s" "$(rd $s)"
done
# buffered: the page (sectors 8-15) of sector 12 holds bad sectors
rec "buffered read of sector 12" "$(brd 12)"
r8=$(rd 8)
expect_eq "a read of bad sector 8 fails with EIO" "$r8" EIO
rec "write sector 8 (1 sector)" "$(wr 8 1)"
rec_media "after writing sector 8"
rec "write sectors 9-10 (2 sectors)" "$(wr 9 2)"
rec_media "after writing sectors 9-10"
rec "write sectors 8-15 (4 KiB at 8)" "$(wr 8 8)"
rec_media "after writing sectors 8-15"
rec "write sector 64 (1 sector)" "$(wr 64 1)"
rec "write 100-103 (2 KiB at 100)" "$(wr 100 4)"
rec_media "after the writes"
for s in 8 9 11 64 100 102; do
	rec "read sector $s after the writes" "$(rd $s)"
done
expect_eq "sector 8 reads after the writes over it" "$(rd 8)" ok

# --- bad input ---------------------------------------------------------------
c0=$(scrub_wait)
rec "inject --block=END --count=1" "$(inj --block=$SECTORS --count=1)"
rec "inject --block=0 --count=0" "$(inj --block=0 --count=0)"
rec "inject --block=LAST --count=2 (straddles the end)" "$(inj --block=$LAST --count=2)"
rec "inject --block=-1 --count=1" "$(inj --block=-1 --count=1)"
rec "after bad input: inject-error --status" "$(inj_status | sed "s/\"block\":$LAST,/\"block\":LAST,/")"
scrub_wait > /dev/null
ndctl inject-error --uninject --block=$LAST --count=1 $NS > /dev/null 2>&1
rec "uninject --block=END --count=1" "$(inj --uninject --block=$SECTORS --count=1)"
rec "after clean-up: inject-error --status" "$(inj_status)"
# the last sector, if it was poisoned: cleared by a write
wr $LAST 1 > /dev/null
rec "last sector after the clean-up write" "$(rd $LAST)"
flush_out

# --- a file on ext4: its block found on the device, poisoned, rewritten -------
if ! mkfs.ext4 -q -F -b 4096 /dev/$DEV > /tmp/mo.mkfs 2>&1; then
	nok "mkfs.ext4 /dev/$DEV: $(tail -n 1 /tmp/mo.mkfs)"
	flush_out
	exit 0
fi
mkdir -p /mnt/mo
if ! mount -t ext4 /dev/$DEV /mnt/mo 2> /tmp/mo.mnt; then
	nok "mount ext4 /dev/$DEV: $(cat /tmp/mo.mnt)"
	flush_out
	exit 0
fi
# 8 KiB of a marker nothing else on the device holds
i=0
while [ $i -lt 256 ]; do echo "media-oracle-marker-$i-0123456"; i=$((i + 1)); done | head -c 8192 > /mnt/mo/f
sync
umount /mnt/mo
# the file's first byte on the device (strings -t d: decimal offsets)
off=$(strings -t d -n 20 /dev/$DEV | grep -F 'media-oracle-marker-0-0123456' | head -n 1 | awk '{print $1}')
if [ -z "$off" ]; then
	nok "the file's data not found on /dev/$DEV"
	flush_out
	exit 0
fi
fs=$((off / 512))
rec "ext4: file data sector-aligned at a 4 KiB block" "$([ $((off % 4096)) = 0 ] && echo yes || echo "no (offset % 4096 = $((off % 4096)))")"
rec "ext4: inject the file's 2nd sector" "$(inj --block=$((fs + 1)) --count=1 | sed "s/$((fs + 1))/FILE+1/g")"
ndctl wait-scrub $PROV > /dev/null 2>&1
scrub_wait > /dev/null
rec "ext4: /dev/pmem badblocks (file-relative)" "$(cat /sys/block/$DEV/badblocks | while read s n; do echo -n "$((s - fs)) $n "; done)"
mount -t ext4 /dev/$DEV /mnt/mo 2> /tmp/mo.mnt || nok "remount: $(cat /tmp/mo.mnt)"
echo 3 > /proc/sys/vm/drop_caches
r=$(nvt-dio read /mnt/mo/f 0 4096)
rec "ext4: O_DIRECT read of the file's first 4 KiB" "$r"
expect_eq "ext4: reading the poisoned file block fails with EIO" "$r" EIO
rec "ext4: buffered read of the file" "$(cat /mnt/mo/f > /dev/null 2>&1 && echo ok || echo EIO)"
rec "ext4: O_DIRECT rewrite of that 4 KiB" "$(nvt-dio write /mnt/mo/f 0 4096)"
rec "ext4: /dev/pmem badblocks after the rewrite" "$(bb)"
echo 3 > /proc/sys/vm/drop_caches
rec "ext4: O_DIRECT read after the rewrite" "$(nvt-dio read /mnt/mo/f 0 4096)"
rec "ext4: inject-error --status after the rewrite" "$(inj_status | sed "s/\"block\":$((fs + 1)),/\"block\":FILE+1,/")"
umount /mnt/mo
ndctl inject-error --uninject --block=$((fs + 1)) --count=1 $NS > /dev/null 2>&1
rec "ext4: after uninject: inject-error --status" "$(inj_status)"
flush_out
ok "records: $(wc -l < $OUTF) lines -> /out/media-oracle.txt"
