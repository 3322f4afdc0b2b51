# nt-poison: media errors through nfit_test's poison knob (debugfs
# nfit_test/nfit_test.N/dimmI/poison, docs/nfit_test.md "Poison") on
# nfit_test.1's 32 MiB label-less namespace (1-way: namespace offset =
# DPA = media offset).  The knob's own input checks; a raw pmem read of
# a poisoned page fails EIO, its neighbours read as written, pmem logs
# the byte, a write does not clear the poison, the knob does; a BTT
# (4096-byte sectors): a poisoned data block, map line and flog fail
# their sector or the attach only; poisoned info blocks at autodetect
# and at a configured attach are refused, logged and left as they were,
# including the two cases where an unreadable block used to be taken
# for "no BTT" and a new one laid out over it (the backup, the other
# version's start); a new BTT's poisoned map line fails only its
# blocks' reads, not the attach; the same for a pfn (fsdax) info block.
# Runs after pfn-nt/btt-powercut (namespace raw, region read-only) and
# leaves it so, with no poison.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"
. "$(dirname "$0")/ns.inc"
. "$(dirname "$0")/btt.inc"

nd_settle
nt_debugfs
ns=$(ls -d $(nt_bus 1)/region*/namespace* 2> /dev/null | head -n 1)
[ -n "$ns" ] || { nok "nfit_test.1 has no namespace"; exit 0; }
r=${ns%/*} n=${ns##*/}
D=$NT_DBG/nfit_test.1/dimm0
media=$D/media
P=$D/poison
bind=/sys/bus/nd/drivers/nd_pmem/bind
unbind=/sys/bus/nd/drivers/nd_pmem/unbind
MB=1048576
echo 0 > $r/read_only

# dio DD-ARGS...: dd; prints "ok" or the error text
dio() {
	local out
	if out=$(dd "$@" 2>&1); then
		echo ok
	else
		echo "${out##*: }" | head -n 1
	fi
}
# preads PAGE: O_DIRECT read of 4 KiB page PAGE of /dev/$dev into
# /tmp/po.got; pwrites PAGE FILE: O_DIRECT write of FILE's first 4 KiB
preads() {
	dio if=/dev/$dev of=/tmp/po.got bs=4096 skip=$1 count=1 iflag=direct
}
pwrites() {
	dio if=$2 of=/dev/$dev bs=4096 seek=$1 count=1 oflag=direct
}
# want SEED LEN PAGE: page PAGE of pattern SEED (LEN bytes) to /tmp/po.want
want() {
	nvt-pattern gen $1 $2 | dd of=/tmp/po.want bs=4096 skip=$3 count=1 2> /dev/null
}
# pv: the poison list on one line, "none" when empty
pv() {
	local v
	v=$(cat $P 2>&1 | tr '\n' ' ')
	echo "${v:-none}"
}
# intact SEED LEN FIRST PAGE...: the PAGEs of /dev/$dev that do not read
# back as pattern SEED (LEN bytes, written at page FIRST), or "none bad"
intact() {
	local seed=$1 len=$2 first=$3 p bad=
	shift 3
	for p; do
		want $seed $len $((p - first))
		[ "$(preads $p)" = ok ] && cmp -s /tmp/po.got /tmp/po.want || bad="$bad $p"
	done
	echo "${bad:-none bad}"
}
# nreads: the DIMM's reads stopped by poison
nreads() {
	awk '{ print $1 }' $D/poison_reads
}
# mm OFF LEN: the media bytes [OFF, +LEN) to stdout (whole pages in one
# read each)
mm() {
	if [ $(($1 % 4096 + $2 % 4096)) = 0 ]; then
		dd if=$media bs=4096 skip=$(($1 / 4096)) count=$(($2 / 4096)) 2> /dev/null
	else
		dd if=$media bs=1 skip=$1 count=$2 2> /dev/null
	fi
}
# u LEN OFF: little-endian unsigned of LEN bytes at media offset OFF
u() {
	mm $2 $1 | od -An -t u$1 | tr -d ' '
}
# meta_sum: the media where a BTT or pfn device keeps what it would
# rewrite: the first 8 KiB (info blocks), the last 256 KiB (map, flog,
# backup info block)
meta_sum() {
	{ dd if=$media bs=4096 count=2; dd if=$media bs=4096 skip=8128; } 2> /dev/null |
		md5sum | cut -d' ' -f1
}
# raw_put DD-ARGS...: dd onto the namespace (force_raw, bound, unbound)
raw_put() {
	echo 1 > $ns/force_raw
	echo $n > $bind
	nd_settle
	dd of=/dev/$(nt_blockdev $ns) conv=notrunc oflag=direct "$@" 2> /dev/null
	sync
	echo $n > $unbind
	echo 0 > $ns/force_raw
}

# --- the knob ----------------------------------------------------------------
expect_eq "$P: empty at the start" "$(pv)" none
dmark
expect_eq "poison: bad input refused (bogus, one number, length 0, past the DPA space x2, 70 bytes)" \
	"$(ns_w $P bogus) | $(ns_w $P 4096) | $(ns_w $P '4096 0') | $(ns_w $P '0x2000000 64') | $(ns_w $P '0x1ffffc0 0x80') | $(ns_w $P "$(printf '%070d' 1)")" \
	"Invalid argument | Invalid argument | Invalid argument | Numerical result out of range | Numerical result out of range | Invalid argument"
expect_eq "poison: nothing marked by the refused writes" "$(pv)" none
expect_eq "the refusals are logged" "$(dsince | grep -c 'nfit_test: poison: [0-9]*-byte write refused: -')" 6
expect_eq "poison 8 bytes at 0x102410, 64 at 0x102440, then clear 1 at 0x102450: whole lines" \
	"$(ns_w $P '0x102410 8') $(pv)$(ns_w $P '0x102440 0x40') $(pv)$(ns_w $P 'clear 0x102450 1') $(pv)" \
	"ok 0x102400 0x40 ok 0x102400 0x80 ok 0x102400 0x40 "

# --- raw pmem ----------------------------------------------------------------
dev=$(nt_blockdev $ns)
if [ -z "$dev" ] || [ ! -b /dev/$dev ]; then
	nok "$n is not a raw pmem disk (driver '$(ns_driver $ns)', holder '$(ns_rd $ns/holder)')"
	exit 0
fi
echo clear > $P
nvt-pattern write /dev/$dev 1M 64K 7001 > /dev/null 2>&1
echo '0x102410 8' > $P		# page 258 = 1 MiB + 8 KiB: its line 0x400
n0=$(nreads)
dmark
expect_eq "/dev/$dev: O_DIRECT read of the poisoned page 258" "$(preads 258)" "Input/output error"
expect_eq "$D/poison_reads counts it" "$(nreads)" $((n0 + 1))
dsince | grep -q "$dev: media error: read of \[0x102000, +0x1000) failed at byte 0x102400" &&
	ok "pmem logs the failing byte" || { nok "no pmem log line for the media error"; dsince | tail -n 3 | sed 's/^/#   /'; }
expect_eq "/dev/$dev: pages 257 and 259 read as written" "$(intact 7001 64K 256 257 259)" "none bad"
nvt-pattern gen 7002 4096 > /tmp/po.new
expect_eq "/dev/$dev: a write over the poisoned page" "$(pwrites 258 /tmp/po.new)" ok
mm $((MB + 8192)) 4096 > /tmp/po.m
check "the write reached the media" cmp /tmp/po.m /tmp/po.new
expect_eq "the poison stays after the write (read, knob)" "$(preads 258) $(pv)" "Input/output error 0x102400 0x40 "
expect_eq "clear" "$(ns_w $P clear) $(pv)" "ok none"
expect_eq "/dev/$dev: page 258 reads again" "$(preads 258)" ok
check "page 258 holds what was written over the poison" cmp /tmp/po.got /tmp/po.new

# --- BTT: data block, map, flog ---------------------------------------------------
echo $n > $unbind
bt=$(btt_seed_dir $r)
U=$(cat /proc/sys/kernel/random/uuid)
expect_eq "${bt##*/}: uuid, sector_size 4096, namespace $n, bind" \
	"$(ns_w $bt/uuid $U) $(ns_w $bt/sector_size 4096) $(ns_w $bt/namespace $n) $(ns_w $bind ${bt##*/})" "ok ok ok ok"
nd_settle
dev=$(btt_disk $bt)
if [ -z "$dev" ]; then
	nok "no BTT disk on $n"
	exit 0
fi
nvt-pattern write /dev/$dev 0 1M 7100 > /dev/null 2>&1
# arena 0 at 4096 (BTT 1.1): its info block's offsets, LBA 10's block
A=4096
dataoff=$(u 8 $((A + 88))) mapoff=$(u 8 $((A + 96))) logoff=$(u 8 $((A + 104)))
ilba=$(u 4 $((A + 64)))
raw=$(u 4 $((A + mapoff + 40)))
blk=$((raw & 0x3fffffff))
[ $((raw >> 30)) = 0 ] && blk=10
blkoff=$((A + dataoff + blk * ilba))
want 7100 1M 10
mm $blkoff 4096 > /tmp/po.m
check "LBA 10 found on the media at $blkoff (map entry $raw)" cmp /tmp/po.m /tmp/po.want
echo "$((blkoff + 100)) 1" > $P
n0=$(nreads)
dmark
expect_eq "/dev/$dev: LBA 10 (poisoned data block)" "$(preads 10)" "Input/output error"
dsince | grep -q "${bt##*/}: read of sector 10 failed: -5" &&
	ok "the BTT logs the failed sector" || nok "no BTT log line for sector 10"
expect_eq "/dev/$dev: LBAs 9 and 11 read as written" "$(intact 7100 1M 0 9 11)" "none bad"
# the failed read set LBA 10's map entry to the error state (E without
# Z), same block: it stays bad, across a power cycle too, until written
raw2=$(u 4 $((A + mapoff + 40)))
expect_eq "LBA 10's map entry after the media error: flags, block" \
	"$((raw2 >> 30)) $((raw2 & 0x3fffffff))" "1 $blk"
dsince | grep -q "${bt##*/}: block 10: media error in data block $blk: marked bad until written" &&
	ok "the BTT logs the block it marked bad" || nok "no log line for the block marked bad"
# a write goes to a free block: LBA 10 is readable again, its old
# (poisoned) block is now the lane's free one; its bytes were written
# again.  The shell pinned to CPU 0 (busybox taskset): the next write
# uses the same lane.
taskset -p 1 $$ > /dev/null 2>&1
want 7100 1M 10
expect_eq "/dev/$dev: LBA 10 written, read back (poison still marked)" \
	"$(pwrites 10 /tmp/po.want) $(preads 10) $(pv)" "ok ok $(printf '%#x' $(((blkoff + 100) / 64 * 64))) 0x40 "
check "LBA 10 holds its data" cmp /tmp/po.got /tmp/po.want
# the lane's free block is the poisoned one: a write on the lane is
# refused rather than acknowledged into a block that reads back EIO
dmark
expect_eq "/dev/$dev: LBA 11 written on that lane while its free block is poisoned" \
	"$(pwrites 11 /tmp/po.new)" "Input/output error"
dsince | grep -q "free block $blk of lane 0 still has a media error (-5): writes on the lane fail until it is cleared" &&
	ok "the refused write names the poisoned free block" || nok "no log line for the poisoned free block"
expect_eq "/dev/$dev: LBA 11 as written before" "$(intact 7100 1M 0 11)" "none bad"
echo clear > $P
expect_eq "/dev/$dev: LBA 11 written once the poison is cleared, read back" \
	"$(pwrites 11 /tmp/po.new) $(preads 11)" "ok ok"
check "LBA 11 holds the new data" cmp /tmp/po.got /tmp/po.new
want 7100 1M 11
expect_eq "/dev/$dev: LBA 11 back to the pattern" "$(pwrites 11 /tmp/po.want)" ok
taskset -p ffffffff $$ > /dev/null 2>&1
# the map line of LBAs 16..31: reads and writes of LBA 20 fail, LBA 40
# works, LBA 20 keeps its data
echo "$((A + mapoff + 80)) 4" > $P
dmark
expect_eq "/dev/$dev: LBA 20 (poisoned map entry) read, write; LBA 40 read" \
	"$(preads 20) $(pwrites 20 /tmp/po.new) $(preads 40)" "Input/output error Input/output error ok"
expect_eq "the failed write is logged" "$(dsince | grep -c "${bt##*/}: write of sector 20 failed: -5")" 1
echo clear > $P
expect_eq "$D/poison_reads: data block, free block read back, map read, map write" "$(nreads)" $((n0 + 4))
expect_eq "/dev/$dev: LBA 20 as written before" "$(intact 7100 1M 0 20)" "none bad"
# the flog, read when the BTT attaches
echo ${bt##*/} > $bt/driver/unbind
echo "$((A + logoff)) 64" > $P
sum=$(meta_sum)
dmark
expect_eq "bind ${bt##*/} (poisoned flog)" "$(ns_w $bind ${bt##*/})" "Input/output error"
dsince | grep -q "${bt##*/}: $n: arena 0: cannot read the flog: -5" &&
	ok "the flog read error is logged" || nok "no log line for the flog read error"
expect_eq "BTT metadata unchanged" "$(meta_sum)" "$sum"
echo clear > $P
expect_eq "bind ${bt##*/} after clear" "$(ns_w $bind ${bt##*/})" ok
nd_settle
check "/dev/$dev: data intact" nvt-pattern verify /dev/$dev 0 1M 7100

# --- BTT info blocks -----------------------------------------------------------------
# raw_enable KIND: with the info block at 4096 poisoned, enabling $n
# attaches it raw (no claim), logs the unreadable KIND info block, writes
# nothing; then disabled, the poison cleared
raw_enable() {
	local sum=$(meta_sum)
	echo "4160 1" > $P
	dmark
	expect_eq "enable $n ($1 info block poisoned)" "$(ns_w $bind $n)" ok
	nd_settle
	expect_eq "$n: not claimed, attached raw ($1)" "$(ns_rd $ns/holder) $(ns_driver $ns)" "- nd_pmem"
	dsince | grep -q "$n: cannot read a $1 info block.*: -5$" &&
		ok "autodetect logs the unreadable $1 info block" || nok "no autodetect log line for the $1 info block"
	echo $n > $unbind
	expect_eq "media unchanged by the raw enable ($1)" "$(meta_sum)" "$sum"
	echo clear > $P
}
btt_release $bt
mm 4096 4096 > /tmp/po.ib
raw_enable BTT
# refused WHAT POISON LOG: with POISON marked, a btt of the BTT's uuid
# configured on $n does not attach (EIO), logs LOG (after "btt6.N: $n: "),
# writes nothing; then released, the poison cleared
refused() {
	local sum=$(meta_sum) bt=$(btt_seed_dir $r)
	echo "$2" > $P
	dmark
	expect_eq "${bt##*/}: uuid, 4096, $n, bind ($1)" \
		"$(ns_w $bt/uuid $U) $(ns_w $bt/sector_size 4096) $(ns_w $bt/namespace $n) $(ns_w $bind ${bt##*/})" \
		"ok ok ok Input/output error"
	dsince | grep -q "${bt##*/}: $n: $3" && ok "the refusal is logged ($1)" ||
		{ nok "no log line '$3'"; dsince | grep "${bt##*/}" | tail -n 3 | sed 's/^/#   /'; }
	expect_eq "nothing written ($1)" "$(meta_sum)" "$sum"
	btt_release $bt
	echo clear > $P
}
refused "primary info block poisoned" "4160 1" \
	"cannot read the info block of arena 0 at 4096: -5"
# no BTT at 4096 (wiped), the other version's start (0) unreadable
raw_put if=/dev/zero bs=4096 seek=1 count=1
refused "wiped, offset 0 poisoned" "0 1" \
	"no BTT at 4096 (.*), and the info block of the other version at 0 is unreadable (-5): not laying out a new BTT over it"
# a foreign primary (bad signature), its backup unreadable
info2off=$(dd if=/tmp/po.ib bs=1 skip=112 count=8 2> /dev/null | od -An -t u8 | tr -d ' ')
{ printf 'NOT_A_BTT_BLOCK!'; dd if=/tmp/po.ib bs=16 skip=1 2> /dev/null; } > /tmp/po.ibx
raw_put if=/tmp/po.ibx bs=4096 seek=1 count=1
refused "bad signature, backup poisoned" "$((A + info2off)) 1" \
	"primary info block at 4096 .*, its backup at $((A + info2off)) unreadable (-5): not laying out a new BTT over it"
raw_put if=/tmp/po.ib bs=4096 seek=1 count=1
expect_eq "enable $n (info block restored)" "$(ns_w $bind $n)" "No such device or address"
nd_settle
ab=$(btt_of $ns)
dev=$(btt_disk $ab)
check "/dev/$dev: data intact after the info block rounds" nvt-pattern verify /dev/$dev 0 1M 7100
btt_release $ab

# --- a new BTT's map poisoned: attach reads no map entry for unused lanes ---
# (as 6.1: ndctl's btt-errors.sh poisons map entry 0 of a new BTT and
# expects the namespace to enable and only that block's reads to fail)
raw_put if=/dev/zero bs=4096 count=2
bt=$(btt_seed_dir $r)
expect_eq "${bt##*/}: a new BTT (uuid, 4096, $n, bind)" \
	"$(ns_w $bt/uuid $(cat /proc/sys/kernel/random/uuid)) $(ns_w $bt/sector_size 4096) $(ns_w $bt/namespace $n) $(ns_w $bind ${bt##*/})" \
	"ok ok ok ok"
nd_settle
mapoff=$(u 8 $((A + 96)))
echo ${bt##*/} > $bt/driver/unbind
echo "$((A + mapoff)) 64" > $P
expect_eq "bind ${bt##*/} (map entries of LBAs 0..15 poisoned, no lane used yet)" \
	"$(ns_w $bind ${bt##*/})" ok
nd_settle
dev=$(btt_disk $bt)
expect_eq "/dev/${dev:-none}: LBA 0 (poisoned map entry), LBA 16" \
	"$(preads 0) $(preads 16)" "Input/output error ok"
echo clear > $P
expect_eq "/dev/${dev:-none}: LBA 0 once cleared" "$(preads 0)" ok
btt_release $bt

# --- pfn (fsdax) info block ------------------------------------------------------------
raw_put if=/dev/zero bs=4096 count=2
ps=$(cat $r/pfn_seed)
pf=$r/$ps
U=$(cat /proc/sys/kernel/random/uuid)
expect_eq "$ps: uuid, mode pmem, align 4096, namespace $n, bind" \
	"$(ns_w $pf/uuid $U) $(ns_w $pf/mode pmem) $(ns_w $pf/align 4096) $(ns_w $pf/namespace $n) $(ns_w $bind $ps)" \
	"ok ok ok ok ok"
nd_settle
dev=$(ls $pf/block 2> /dev/null | head -n 1)
nvt-pattern write /dev/$dev 0 64K 7200 > /dev/null 2>&1
btt_release $pf
raw_enable pfn
sum=$(meta_sum)
echo "4160 1" > $P
ps=$(cat $r/pfn_seed)
pf=$r/$ps
dmark
expect_eq "$ps: the same uuid, mode pmem, align 4096, namespace $n, bind (info block poisoned)" \
	"$(ns_w $pf/uuid $U) $(ns_w $pf/mode pmem) $(ns_w $pf/align 4096) $(ns_w $pf/namespace $n) $(ns_w $bind $ps)" \
	"ok ok ok ok Input/output error"
dsince | grep -q "$ps: $n: info block at 4096 unreadable (-5): not overwritten" &&
	ok "the refusal is logged" || nok "no log line for the unreadable pfn info block"
expect_eq "pfn info block not overwritten" "$(meta_sum)" "$sum"
echo clear > $P
expect_eq "bind $ps after clear" "$(ns_w $bind $ps)" ok
nd_settle
dev=$(ls $pf/block 2> /dev/null | head -n 1)
check "/dev/$dev: data intact" nvt-pattern verify /dev/$dev 0 64K 7200
btt_release $pf

# --- left raw, read-only, no poison -------------------------------------------------------
raw_put if=/dev/zero bs=4096 count=2
expect_eq "enable $n raw" "$(ns_w $bind $n)" ok
nd_settle
expect_eq "$n: raw, no holder, no poison" "$(cat $ns/mode) $(ns_rd $ns/holder) $(pv)" "raw - none"
echo 1 > $r/read_only
