# write-cache: each namespace's disk and its dax/write_cache (6.1: every
# pmem disk has one, raw and fsdax alike; a sector-mode disk has none),
# whether DAX writers must flush CPU caches.  Clears and sets it, then
# feeds it bad values: refused with EINVAL, the value unchanged.  The
# record (write-cache.txt, one line per disk and step) is compared by
# the host between the stock modules (oracle-1) and ours (ours-1).
. "$(dirname "$0")/lib.sh"
OUTF=/tmp/write-cache.txt
: > $OUTF

# write $2 to $1; prints "ok" or the shell's reason (EINVAL: Invalid argument)
wc_write() {
	local err

	err=$( (echo "$2" > "$1") 2>&1 ) && { echo ok; return; }
	case $err in
	*"Invalid argument"*) echo EINVAL ;;
	*) echo "failed: $err" ;;
	esac
}

nd_settle
n=0
# the disk is a child of the namespace (raw) or of its btt or pfn device
for ns in /sys/bus/nd/devices/namespace* /sys/bus/nd/devices/btt* \
	  /sys/bus/nd/devices/pfn*; do
	[ -e "$ns" ] || continue
	N=$(basename $ns)
	for blk in $ns/block/*; do
		[ -e "$blk" ] || continue
		B=$(basename $blk)
		n=$((n + 1))
		f=/sys/block/$B/dax/write_cache
		if [ ! -e $f ]; then
			echo "$N $B write_cache absent" >> $OUTF
			continue
		fi
		v0=$(cat $f)
		echo "$N $B write_cache = $v0" >> $OUTF
		echo "$N $B write 0: $(wc_write $f 0), now $(cat $f)" >> $OUTF
		expect_eq "$B: dax/write_cache after writing 0" "$(cat $f)" 0
		for bad in maybe 2 ""; do
			echo "$N $B write '$bad': $(wc_write $f "$bad"), now $(cat $f)" >> $OUTF
		done
		expect_eq "$B: dax/write_cache after bad writes" "$(cat $f)" 0
		echo "$N $B write 1: $(wc_write $f 1), now $(cat $f)" >> $OUTF
		expect_eq "$B: dax/write_cache after writing 1" "$(cat $f)" 1
		wc_write $f "$v0" > /dev/null
		expect_eq "$B: dax/write_cache restored" "$(cat $f)" "$v0"
	done
done
[ $n -gt 0 ] && ok "$n namespace disk(s) recorded" || nok "no namespace disk"
sed 's/^/#   /' $OUTF
[ -d "$NVT_OUT" ] && cp $OUTF "$NVT_OUT/write-cache.txt"
exit 0
