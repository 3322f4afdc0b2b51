# reload-modes: reload.sh's unload/reload cycles with a namespace of every
# mode on QEMU's NVDIMMs (issue 14 item 3).  After dax-write and dax-mem
# the DIMMs hold fsdax (the label-less DIMM's namespace, and xfs on the
# labelled one) and devdax; a 16 MiB raw and a 32 MiB sector namespace are
# made in the labelled region's free space, so that all four modes are
# there when the modules go; reload.sh checks each comes back in its mode;
# both are destroyed afterwards, the region's free space as before.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/label.inc"
. "$(dirname "$0")/dax.inc"

nd_settle
dax_regions || exit 0
R=/sys/bus/nd/devices/$L_REGION
avail0=$(cat $R/available_size)
made=
for m in raw:16M sector:32M; do
	if ndctl create-namespace -r $L_REGION -m ${m%:*} -s ${m#*:} -n nvt-rl-${m%:*} > /tmp/rm.json 2> /tmp/rm.err; then
		# the namespace's own uuid (ndctl prints a btt's for sector)
		made="$made $(cat /sys/bus/nd/devices/$(jget dev /tmp/rm.json)/uuid)"
	else
		nok "ndctl create-namespace -r $L_REGION -m ${m%:*} -s ${m#*:}: $(tr '\n' ' ' < /tmp/rm.err)"
	fi
done
nd_settle
expect_eq "modes of the namespaces with a size" \
	"$(for n in /sys/bus/nd/devices/namespace*; do
		[ "$(cat $n/size)" != 0 ] && cat $n/mode; done | sort -u | tr '\n' ' ')" \
	"dax memory raw safe "

sh /nvt/reload.sh

nd_settle
# the reloads numbered the namespaces anew: found by uuid
for u in $made; do
	n=$(grep -l "^$u\$" /sys/bus/nd/devices/namespace*/uuid 2>/dev/null | head -n 1)
	n=${n%/uuid}
	ndctl destroy-namespace -f ${n##*/} > /tmp/rm.err 2>&1 ||
		nok "destroy-namespace -f ${n##*/} (uuid $u): $(cat /tmp/rm.err)"
done
nd_settle
expect_eq "$L_REGION: free space as before" "$(cat $R/available_size)" "$avail0"
