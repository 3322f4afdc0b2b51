# list-compare: our `ndctl list` vs Debian's ndctl 76.1 on the same machine.
# usage: sh list-compare.sh OUR_NDCTL [DEBIAN_NDCTL]
# Saves both outputs as $NVT_OUT/list{-opts}.{ours,theirs}.json for a
# host-side `tests/userspace/jsoncmp.py --common` and compares them here
# line-wise (order-free).  Fields only one side produces show up as a
# difference here: today that is only a namespace's badblock_count.
# Then `read-labels -j` of every DIMM with a label area, the same way.
. "$(dirname "$0")/common.sh"

settle
for opts in -BDRN -BDRNi -BDRNu -RNu -RDi -N -Ni -D -R; do
	o=$OUT/list$opts.ours.json
	t=$OUT/list$opts.theirs.json
	if ! "$OURS" list $opts > "$o" 2> /tmp/ours.err; then
		nok "ours: list $opts failed"
		sed 's/^/#   /' /tmp/ours.err
		continue
	fi
	"$THEIRS" list $opts > "$t" 2> /dev/null
	canon "$o" > /tmp/o.canon
	canon "$t" > /tmp/t.canon
	if cmp -s /tmp/o.canon /tmp/t.canon; then
		ok "list $opts: ours equals Debian ndctl ($(wc -l < /tmp/t.canon) fields)"
	else
		nok "list $opts differs from Debian ndctl"
		diff /tmp/t.canon /tmp/o.canon | head -n 20 | sed 's/^/#   /'
	fi
	# the top level (object / array) must agree too
	[ "$(head -c 1 "$o")" = "$(head -c 1 "$t")" ] || nok "list $opts: top-level shape differs"
done

# read-labels -j (issue 16 #7): index blocks, every slot that names itself
for d in /sys/bus/nd/devices/nmem*; do
	dimm=${d##*/}
	grep -qw get_data $d/commands 2> /dev/null || continue
	o=$OUT/read-labels-$dimm.ours.json
	t=$OUT/read-labels-$dimm.theirs.json
	"$OURS" read-labels -j $dimm > "$o" 2> /dev/null
	orc=$?
	"$THEIRS" read-labels -j $dimm > "$t" 2> /dev/null
	trc=$?
	canon "$o" > /tmp/o.canon
	canon "$t" > /tmp/t.canon
	if [ $orc = $trc ] && cmp -s /tmp/o.canon /tmp/t.canon; then
		ok "read-labels -j $dimm: ours equals Debian ndctl ($(wc -l < /tmp/t.canon) fields, exit $trc)"
	else
		nok "read-labels -j $dimm differs from Debian ndctl (exit ours $orc, theirs $trc)"
		diff /tmp/t.canon /tmp/o.canon | head -n 20 | sed 's/^/#   /'
	fi
done
