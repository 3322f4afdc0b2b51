# prov-flush: a virtio-pmem write that asks for durability (FUA, a
# flush) completes only after the host synced the backing file, and
# fails when the host cannot (QEMU's fsync failing, as on a full or
# failed disk: the harness's fsync shim, $NVT_OUT/fsync-fail).  Raw
# (nd_pmem) and sector (nd_btt: every fence is a flush request) modes;
# the namespace is left in fsdax.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prov.inc"

prov_modules

ns=$(prov_ns virtio-pmem)
[ -n "$ns" ] || { nok "no virtio-pmem namespace"; exit 0; }

for m in raw sector; do
	if stock_btt_on_virtio $m; then
		skip "$m" "the stock BTT sleeps under a spinlock on virtio-pmem (6.1 bug)"
		continue
	fi
	if ! ndctl create-namespace -f -e $ns -m $m > /tmp/cn.out 2>&1; then
		nok "create-namespace -e $ns -m $m"
		sed 's/^/#   /' /tmp/cn.out
		continue
	fi
	nd_settle
	ndctl list -n $ns > /tmp/f.json
	bd=$(sed -n 's/^[ \t]*"blockdev":"\([^"]*\)".*/\1/p' /tmp/f.json)
	c0=$(fsync_count)
	nvt-pattern wsync /dev/$bd 0 64K 2701 > /tmp/w.out 2>&1
	rc=$?
	c1=$(fsync_count)
	if [ $rc = 0 ] && [ "$c1" -gt "$c0" ]; then
		ok "$m ($bd): an O_DSYNC write returned after $((c1 - c0)) host fsync(s) of the backing file"
	else
		nok "$m ($bd): O_DSYNC write rc $rc, host fsyncs $c0 -> $c1"
		sed 's/^/#   /' /tmp/w.out
	fi
	c0=$(fsync_count)
	nvt-pattern write /dev/$bd 64K 64K 2702 > /tmp/w.out 2>&1	# pwrite + fsync
	rc=$?
	c1=$(fsync_count)
	if [ $rc = 0 ] && [ "$c1" -gt "$c0" ]; then
		ok "$m ($bd): fsync of a buffered write reached the host ($((c1 - c0)) fsyncs)"
	else
		nok "$m ($bd): buffered write + fsync rc $rc, host fsyncs $c0 -> $c1"
	fi

	touch $NVT_OUT/fsync-fail
	nvt-pattern wsync /dev/$bd 128K 64K 2703 > /tmp/w.out 2>&1
	rc=$?
	c1=$(fsync_count)
	rm -f $NVT_OUT/fsync-fail
	if [ $rc != 0 ] && grep -q "Input/output error" /tmp/w.out; then
		ok "$m ($bd): host fsync failing -> the O_DSYNC write fails with EIO"
	else
		nok "$m ($bd): host fsync failing, O_DSYNC write rc $rc (want EIO)"
		sed 's/^/#   /' /tmp/w.out
	fi
	check "$m ($bd): host fsync back -> O_DSYNC writes succeed, earlier data intact" \
		sh -c "nvt-pattern wsync /dev/$bd 128K 64K 2704 && nvt-pattern verify /dev/$bd 0 64K 2701 &&
			nvt-pattern verify /dev/$bd 64K 64K 2702 && nvt-pattern verify /dev/$bd 128K 64K 2704"
done
ndctl create-namespace -f -e $ns -m fsdax > /dev/null 2>&1 && nd_settle
