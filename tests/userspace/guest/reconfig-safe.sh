# reconfig-safe: commands that would lose a namespace are refused before
# anything is written, by Debian's ndctl 76.1 and by ours alike (issue 26,
# items 7-10).  Each case runs with 76.1 first, then with ours, on a
# freshly made namespace holding a 64 KiB pattern at offset 0 (the info
# block area a reconfigure wipes):
#   7  create-namespace -e with a configuration the kernel would refuse
#      (-s 24M on a 16 MiB-aligned region (or any size the region's
#      alignment does not divide), -m sector -s 8M, -m fsdax -a 1G
#      on 256 MiB, -s larger than the region): refused, namespace as it
#      was (uuid, size, holder, enabled) and its data too; -s larger than
#      the largest free extent (the kernel refuses it only after the old
#      namespace is deleted): ours lays the old one out again.  76.1
#      loses the namespace in these last two (KNOWN76)
#   8  -e -f -s 64M on the label-less DIMM's io namespace: refused, the
#      data (a filesystem superblock would sit there) untouched
#   9  -e of namespaceR.N, N > 0, repeated: succeeds every time and the
#      namespace it prints exists with its size (the kernel deletes the
#      idle non-seed namespace asynchronously)
#  10  a devdax namespace onlined as system RAM (daxctl reconfigure-device
#      --mode=system-ram): destroy-namespace -f, create-namespace -e -f,
#      disable-namespace, disable-region, check-namespace -f refused, the
#      memory still online, the namespace still claimed and enabled
# Results: $OUT/reconfig-safe.txt, one line per case and ndctl:
#   CASE WHO exit=N refused|done intact|changed
# usage: sh reconfig-safe.sh OUR_NDCTL [DEBIAN_NDCTL]
. "$(dirname "$0")/common.sh"

settle
dimm=$(label_dimm) || { nok "reconfig-safe: no DIMM with label commands (QEMU's nvdimm1 has them)"; exit 0; }
region=$(region_of_dimm $dimm) || { nok "no region on $dimm"; exit 1; }
R=/sys/bus/nd/devices/$region
RES=$OUT/reconfig-safe.txt
: > $RES
relabel() {	# relabel init|zero, with Debian's ndctl
	relabel_with "$THEIRS" $region $dimm $([ "$1" = zero ] && echo zero || echo default)
}
"$THEIRS" destroy-namespace -f all -r $region > /dev/null 2>&1
relabel init || { nok "labelling $dimm failed"; sed 's/^/#   /' /tmp/r.out; exit 1; }
settle
diag "$region: align $(attr $R/align), size $(attr $R/size), pfn alignments: $(attr $R/$(attr $R/pfn_seed)/supported_alignments)"

who() { [ "$1" = "$THEIRS" ] && echo 76.1 || echo ours; }
# state NS: what must not change
state() {
	local N=/sys/bus/nd/devices/$1
	[ -d $N ] || { echo gone; return; }
	echo "uuid=$(attr $N/uuid) size=$(attr $N/size) holder=$(attr $N/holder) name=$(attr $N/alt_name)" \
		"$([ -e $N/driver ] && echo bound || echo unbound)"
}
# mkns ARGS...: Debian's ndctl creates a namespace in $region, NS is its name
mkns() {
	NS=
	"$THEIRS" create-namespace -r $region "$@" > /tmp/c.json 2> /tmp/c.err \
		|| { nok "setup: create-namespace $* failed"; sed 's/^/#   /' /tmp/c.err; return 1; }
	settle
	NS=$(jfield dev /tmp/c.json)
}
clean() { "$THEIRS" destroy-namespace -f all -r $region > /dev/null 2>&1; settle; }
# 76.1 releases the old namespace before the kernel refuses these (exit
# 228, ENOSPC): a new uuid, unbound; reported, not counted against it
KNOWN76="7-size1G 7-grow-frag"
# record CASE WHO RC INTACT: one result line; ok when refused and intact
record() {
	local r=done i=changed
	[ $3 -ne 0 ] && r=refused
	[ "$4" = yes ] && i=intact
	# 76.1 refuses disable-region of a busy region but exits 0
	# ("disabled 0 regions"; us-safe): its state is the answer there
	case $1 in *disable-region) [ $i = intact ] && r=refused ;; esac
	echo "$1 $2 exit=$3 $r $i" >> $RES
	if [ $r = refused ] && [ $i = intact ]; then
		ok "$2: $1: refused (exit $3), namespace and data intact"
		diag "  $(head -n 2 /tmp/rs.err | tr '\n' '|')"
	elif [ $2 = 76.1 ] && echo " $KNOWN76 " | grep -q " $1 "; then
		diag "76.1: $1: exit $3, $r, $i (known: it deletes first)"
		diag "  $(head -n 2 /tmp/rs.err | tr '\n' '|')"
	else
		nok "$2: $1: exit $3, $r, $i"
		sed 's/^/#   /' /tmp/rs.err /tmp/rs.out | head -n 8
		diag "  before: $BEFORE"
		diag "  after:  $(state $NS)"
	fi
}
# refuse CASE NDCTL CMD ARGS...: on $NS with a pattern at offset 0
refuse() {
	local c=$1 nd=$2 disk rc data
	shift 2
	disk=$(ns_disk $NS)
	pat_write $disk $c 0
	BEFORE=$(state $NS)
	"$nd" "$@" > /tmp/rs.out 2> /tmp/rs.err
	rc=$?
	settle
	data=$(pat_check $(ns_disk $NS) $c 0)
	[ "$(state $NS)" = "$BEFORE" ] && [ $data = same ] \
		&& record $c $(who $nd) $rc yes || record $c $(who $nd) $rc no
}

# ---- 7: -e with a configuration the kernel refuses
case7() {	# case7 CASE SIZE ARGS...: raw namespace of SIZE, -e NS -f ARGS
	local c=$1 size=$2 nd
	shift 2
	for nd in "$THEIRS" "$OURS"; do
		clean
		mkns -m raw -s $size || return
		refuse $c "$nd" create-namespace -e $NS -f "$@"
	done
}
# a size the region's alignment does not divide: 24M at QEMU's 16 MiB
# (an earlier test may have left the region at another alignment)
RALIGN=$(($(attr $R/align)))
case7 7-size-misaligned 32M -s $((16 * MiB + (RALIGN > 8 * MiB ? 8 * MiB : RALIGN / 2)))
case7 7-sector8M 32M -m sector -s 8M
case7 7-fsdax-a1G 256M -m fsdax -a 1G
case7 7-size1G 32M -s 1G
# more than the largest free extent once the old one is released: only
# the kernel can tell, after the delete; ours lays the old namespace out
# again (uuid, size, info block) and enables it.  Not on the stock
# modules: their size_store WARNs ("allocation underrun") when the
# allocation fails, which fails the boot's dmesg check
[ "${NVT_SET:-}" = stock ] && skip "7-grow-frag" "the stock libnvdimm WARNs on a failed allocation"
for nd in $([ "${NVT_SET:-}" = stock ] || echo "$THEIRS $OURS"); do
	clean
	mkns -m raw -s 32M -n first || break
	first=$NS
	mkns -m raw -s 32M -n second || break
	NS=$first
	refuse 7-grow-frag "$nd" create-namespace -e $NS -f -s $(( $(attr $R/size) - 32 * MiB ))
done
clean

# ---- 8: the io namespace of the label-less DIMM
io=
for N in /sys/bus/nd/devices/region*/namespace*; do
	[ "$(attr $(dirname $N)/nstype)" = 4 ] && { io=$(basename $N); break; }
done
if [ -n "$io" ]; then
	"$THEIRS" create-namespace -e $io -f -m raw > /dev/null 2> /tmp/rs.err \
		|| { nok "setup: $io to raw"; sed 's/^/#   /' /tmp/rs.err; }
	settle
	NS=$io
	for nd in "$THEIRS" "$OURS"; do
		refuse 8-io-size64M "$nd" create-namespace -e $io -f -s 64M
	done
else
	skip "8: io namespace" "no label-less region"
fi

# ---- 9: -e of namespaceR.N, N > 0
for nd in "$THEIRS" "$OURS"; do
	clean
	mkns -m raw -s 32M -n first || continue
	mkns -m raw -s 32M -n second || continue
	fails=0 i=0
	while [ $i -lt 4 ]; do
		i=$((i + 1))
		"$nd" create-namespace -e $NS -f -m raw > /tmp/rs.out 2> /tmp/rs.err
		rc=$?
		settle
		new=$(jfield dev /tmp/rs.out)
		st=$(state ${new:-none})
		case "$rc $st" in
		"0 uuid="*" size=33554432 "*" name=second bound") NS=$new ;;
		*)	fails=$((fails + 1))
			diag "  $(who $nd) round $i: -e $NS: exit $rc, ${new:-no namespace printed}: $st"
			sed 's/^/#     /' /tmp/rs.err | head -n 3
			# the namespace, if any, named second
			NS=$(grep -l '^second$' /sys/bus/nd/devices/$region/namespace*/alt_name 2>/dev/null \
				| head -n 1 | xargs -r dirname | xargs -r basename)
			[ -n "$NS" ] || break ;;
		esac
	done
	echo "9-reconfig-nonzero $(who $nd) rounds=$i fails=$fails" >> $RES
	[ $fails = 0 ] && ok "$(who $nd): 9: -e of a namespace other than .0, $i times: each configured and enabled" \
		|| nok "$(who $nd): 9: -e of a namespace other than .0: $fails of $i rounds failed"
done
clean

# ---- 10: devdax onlined as system RAM
memblocks() {	# memblocks DAXDEV: "online/total" whole memory blocks in its range
	local d=/sys/bus/dax/devices/$1 bs start size n last on=0 tot=0
	bs=$((0x$(cat /sys/devices/system/memory/block_size_bytes)))
	start=$(($(attr $d/resource))); size=$(attr $d/size)
	[ -n "$size" ] && [ $size -gt 0 ] || { echo 0/0; return; }
	n=$(((start + bs - 1) / bs)); last=$(((start + size) / bs - 1))
	while [ $n -le $last ]; do
		if [ -e /sys/devices/system/memory/memory$n/state ]; then
			tot=$((tot + 1))
			[ "$(cat /sys/devices/system/memory/memory$n/state)" = online ] && on=$((on + 1))
		fi
		n=$((n + 1))
	done
	echo $on/$tot
}
dax_mode() { l=$(readlink /sys/bus/dax/devices/$1/driver 2>/dev/null) && basename $l || echo none; }
if ! command -v daxctl > /dev/null; then
	skip "10: system-ram" "no daxctl"
elif ! modprobe kmem 2> /tmp/rs.err; then
	skip "10: system-ram" "no kmem module: $(cat /tmp/rs.err)"
elif mkns -m devdax -a 2M -s 256M; then
	ddev=$(attr $R/$NS/holder); ddev=${ddev:-none}
	cdev=$(ls /sys/bus/nd/devices/$ddev 2>/dev/null | grep '^dax[0-9]*\.[0-9]*$' | head -n 1)
	if daxctl reconfigure-device --mode=system-ram ${cdev:-none} > /tmp/rs.out 2> /tmp/rs.err; then
		mb=$(memblocks $cdev)
		diag "$NS: $ddev/$cdev onlined as system-ram: $mb memory blocks online, driver $(dax_mode $cdev)"
	else
		nok "setup: daxctl reconfigure-device --mode=system-ram $cdev"; sed 's/^/#   /' /tmp/rs.err
		mb=0/0
	fi
	case $mb in
	0/*) skip "10: system-ram" "no memory block of $cdev online" ;;
	*)
		ram() {	# ram CASE NDCTL ARGS...
			local c=$1 nd=$2 rc
			shift 2
			BEFORE="$(state $NS) $(dax_mode $cdev) $(memblocks $cdev)"
			"$nd" "$@" > /tmp/rs.out 2> /tmp/rs.err
			rc=$?
			settle
			[ "$(state $NS) $(dax_mode $cdev) $(memblocks $cdev)" = "$BEFORE" ] \
				&& record $c $(who $nd) $rc yes || record $c $(who $nd) $rc no
		}
		for nd in "$THEIRS" "$OURS"; do
			ram 10-destroy "$nd" destroy-namespace -f $NS
			ram 10-reconfig "$nd" create-namespace -e $NS -f -m raw
			ram 10-disable-ns "$nd" disable-namespace $NS
			ram 10-disable-region "$nd" disable-region $region
			ram 10-check "$nd" check-namespace -f $NS
		done
		daxctl offline-memory $cdev > /dev/null 2>&1
		daxctl reconfigure-device --mode=devdax -f $cdev > /tmp/rs.out 2>&1 \
			|| diag "back to devdax: $(tr '\n' ' ' < /tmp/rs.out)"
		;;
	esac
fi

clean
relabel zero || nok "final zero-labels failed"

# 76.1 and ours: the same class of result in every case
awk '{ c = $1; w = $2; r[c, w] = $4 " " $5; cs[c] = 1 }
	END { for (c in cs) print c, (r[c, "76.1"] == r[c, "ours"] ? "same" : "differ"), \
		"76.1:", r[c, "76.1"], "ours:", r[c, "ours"] }' $RES | sort > /tmp/rs.cmp
while read c s rest; do
	case " $KNOWN76 " in *" $c "*)
		grep -q "^$c ours .* refused intact" $RES && ok "$c: ours refused with the namespace intact ($rest)"
		continue ;;
	esac
	case $c in 9-*) continue ;; esac
	[ $s = same ] && ok "$c: 76.1 and ours agree ($rest)" || nok "$c: 76.1 and ours differ ($rest)"
done < /tmp/rs.cmp
