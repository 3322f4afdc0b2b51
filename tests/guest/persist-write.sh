# persist-write: boot 1 of the power-cycle test (see persist.inc).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/persist.inc"

for dev in $PERSIST_DEVS; do
	if [ ! -b /dev/$dev ]; then
		nok "/dev/$dev missing"
		continue
	fi
	i=0
	hdr="NVT-PERSIST v1 dev=$dev seed=$PERSIST_SEED"
	fail=
	for e in $PERSIST_EXTENTS; do
		i=$((i + 1))
		off=${e%%:*} len=${e#*:}
		if ! nvt-pattern write /dev/$dev $off $len $((PERSIST_SEED + i)) > /tmp/pw.out 2>&1; then
			fail="$fail write $e: $(cat /tmp/pw.out);"
			continue
		fi
		sum=$(nvt-pattern sum /dev/$dev $off $len) || fail="$fail sum $e;"
		hdr="$hdr $e=$sum"
	done
	persist_header_write $dev "$hdr"
	echo "$hdr" >> $NVT_OUT/persist.txt
	got=$(persist_header_read $dev)
	if [ -n "$fail" ]; then
		nok "$dev: pattern write failed:$fail"
	elif [ "$got" != "$hdr" ]; then
		nok "$dev: header read back differs: '$got'"
	else
		ok "$dev: wrote 8 MiB pattern + last sector + header, read back"
	fi
done
sync
