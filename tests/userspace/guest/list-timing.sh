# list-timing: `ndctl list -N` with >= 100 namespaces, ours vs Debian's.
# Labels the DIMM with label-size=128K, lowers the region's align to 4 KiB
# (6.1 `align` attribute) so 100+ namespaces fit, creates them with our
# ndctl, times RUNS listings of each (interleaved), prints the ratio (ours / Debian) and
# fails above MAX_RATIO (default 1.0).  Cleans up with zero-labels.
# usage: sh list-timing.sh OUR_NDCTL [DEBIAN_NDCTL] [COUNT]
. "$(dirname "$0")/common.sh"
COUNT=${3:-110}
RUNS=${RUNS:-10}
MAX_RATIO=${MAX_RATIO:-1.0}

settle
dimm=$(label_dimm) || { nok "list timing: no DIMM with label commands (QEMU's nvdimm1 has them)"; exit 0; }
region=$(region_of_dimm $dimm) || { nok "no region on $dimm"; exit 1; }
R=/sys/bus/nd/devices/$region
# align is written while the region is disabled (6.1 also takes it while
# enabled; a kernel may refuse that with EBUSY)
"$OURS" disable-region $region > /tmp/t.out 2>&1 && "$OURS" init-labels -f $dimm >> /tmp/t.out 2>&1 \
	&& { [ ! -e $R/align ] || echo 0x1000 > $R/align; } 2>> /tmp/t.out \
	&& "$OURS" enable-region $region >> /tmp/t.out 2>&1 || { nok "labelling $dimm, align 4 KiB"; sed 's/^/#   /' /tmp/t.out; exit 1; }
settle
size=$(( $(attr $R/size) / (COUNT + 2) / 4096 * 4096 ))
[ $size -gt $((4 << 20)) ] && size=$((4 << 20))
made=0
while [ $made -lt $COUNT ]; do
	"$OURS" create-namespace -r $region -m raw -s $size > /dev/null 2> /tmp/t.err || break
	made=$((made + 1))
done
if [ $made -lt 100 ]; then
	nok "only $made namespaces of $size bytes created"; sed 's/^/#   /' /tmp/t.err
else
	ok "created $made namespaces of $size bytes on $region"
	"$OURS" list -N > $OUT/timing.ours.json; "$THEIRS" list -N > $OUT/timing.theirs.json
	n=$(grep -c '"dev":"namespace' $OUT/timing.ours.json)
	[ $n -ge 100 ] && ok "ours lists $n namespaces" || nok "ours lists $n namespaces"
	canon $OUT/timing.ours.json > /tmp/o.c; canon $OUT/timing.theirs.json > /tmp/t.c
	cmp -s /tmp/o.c /tmp/t.c && ok "list -N output equals Debian's" || nok "list -N output differs from Debian's"
	for w in 1 2; do "$OURS" list -N > /dev/null; "$THEIRS" list -N > /dev/null; done
	# interleaved, one listing of each in turn: the guest's clock runs
	# on while the host (TCG) is busy with other work, and a change of
	# the host's load falls on both sides alike, not on one block of runs
	ours=0 theirs=0 i=0
	while [ $i -lt $RUNS ]; do
		t0=$(uptime_cs)
		"$OURS" list -N > /dev/null
		t1=$(uptime_cs)
		"$THEIRS" list -N > /dev/null
		t2=$(uptime_cs)
		ours=$((ours + t1 - t0)) theirs=$((theirs + t2 - t1)) i=$((i + 1))
	done
	[ $theirs -gt 0 ] || theirs=1
	ratio=$(awk -v a=$ours -v b=$theirs 'BEGIN { printf "%.2f", a / b }')
	echo "LIST_TIMING namespaces=$made runs=$RUNS ours_cs=$ours theirs_cs=$theirs ratio=$ratio" | tee $OUT/list-timing.txt
	if awk -v r=$ratio -v m=$MAX_RATIO 'BEGIN { exit !(r <= m) }'; then
		ok "list -N x$RUNS: ours ${ours}0 ms, Debian ${theirs}0 ms, ratio $ratio <= $MAX_RATIO"
	else
		nok "list -N x$RUNS: ours ${ours}0 ms, Debian ${theirs}0 ms, ratio $ratio > $MAX_RATIO"
	fi
fi
# clean up: all namespaces, then the labels
"$OURS" destroy-namespace all -r $region -f > /dev/null 2>&1
"$OURS" disable-region $region > /dev/null 2>&1 && "$OURS" zero-labels $dimm > /dev/null 2>&1 \
	&& "$OURS" enable-region $region > /dev/null 2>&1 && ok "cleaned up $region" || nok "cleanup of $region"
