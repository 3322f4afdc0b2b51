# persist-verify: boot 2 of the power-cycle test (see persist.inc).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/persist.inc"

for dev in $PERSIST_DEVS; do
	if [ ! -b /dev/$dev ]; then
		nok "/dev/$dev missing"
		continue
	fi
	hdr=$(persist_header_read $dev)
	echo "$hdr" >> $NVT_OUT/persist.txt
	case $hdr in
	"NVT-PERSIST v1 dev=$dev seed=$PERSIST_SEED "*) ;;
	*)
		nok "$dev: no header from the previous boot (got '$(echo "$hdr" | head -c 80)')"
		continue ;;
	esac
	i=0
	fail=
	for e in $PERSIST_EXTENTS; do
		i=$((i + 1))
		off=${e%%:*} len=${e#*:}
		want=$(echo " $hdr " | sed -n "s/.* $e=\([0-9a-f]*\) .*/\1/p")
		sum=$(nvt-pattern sum /dev/$dev $off $len)
		[ "$sum" = "$want" ] || fail="$fail $e checksum $sum != $want;"
		nvt-pattern verify /dev/$dev $off $len $((PERSIST_SEED + i)) > /tmp/pv.out 2>&1 ||
			fail="$fail $e: $(cat /tmp/pv.out);"
	done
	if [ -n "$fail" ]; then
		nok "$dev: data lost across the power cycle:$fail"
	else
		ok "$dev: 8 MiB pattern, last sector and checksums intact after power cycle"
	fi
done
