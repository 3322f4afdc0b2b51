# doc-examples: the v4.2 document's libndctl examples, as written, on the
# nfit_test platform (tests/userspace/doc-examples.c, in the guest as
# /usr/local/bin/ndctl-doc-examples, linked against our libndctl in
# /opt/ours/lib).  It configures the document's picture (pm0.0, pm1.0,
# blk2.0 .. blk5.0, each enabled: /dev/pmemR, /dev/ndblkR.N), checks every
# namespace, block device, label and available_size, puts the Summary
# diagram's BTT on blk5.0 (/dev/ndblk5.0s), and re-reads it all from
# labels and media after disabling the bus.  Here, afterwards:
# data written through the PMEM namespaces lands at the DPA their labels
# give (nfit_test's media in debugfs).  Leaves the configuration in place
# for the tests after it.
# usage: sh doc-examples.sh OUR_NDCTL [DEBIAN_NDCTL]
. "$(dirname "$0")/common.sh"

PROG=${DOC_EXAMPLES:-/usr/local/bin/ndctl-doc-examples}
if [ "${NVT_PLATFORM:-nfit_test}" != nfit_test ] || [ ! -d /sys/devices/platform/nfit_test.0 ]; then
	skip "v4.2 document examples" "needs the nfit_test platform"
	exit 0
fi
[ -x "$PROG" ] || { nok "$PROG missing (built by make -C userspace)"; exit 1; }
settle

# run the program; its TAP lines become ours
"$PROG" > /tmp/doc.tap 2> /tmp/doc.err
rc=$?
cp /tmp/doc.tap "$OUT/doc-examples.tap"
SK=' # SKIP '
while IFS= read -r line; do
	case "$line" in
	"ok "*"$SK"*)
		d=${line#ok * - }
		skip "doc: ${d%%$SK*}" "${d#*$SK}" ;;
	"ok "*) ok "doc: ${line#ok * - }" ;;
	"not ok "*) nok "doc: ${line#not ok * - }" ;;
	"#"*) echo "$line" ;;
	esac
done < /tmp/doc.tap
if [ $rc -gt 1 ] || [ -s /tmp/doc.err ]; then
	nok "ndctl-doc-examples exited $rc"
	sed 's/^/#   /' /tmp/doc.err | head -n 20
fi

# PMEM data placement: SPA line k of a w-way set is DIMM (k mod w) at DPA
# mapping start + namespace offset / w + (k div w) * 4 KiB
. /nvt/nfit_test.inc
nt_debugfs
# media_line DIMM DPA: md5 of 4 KiB of a DIMM's media
media_line() {
	dd if=$NT_DBG/nfit_test.0/dimm$1/media bs=4096 skip=$(($2 / 4096)) count=1 2> /dev/null | md5sum | cut -d' ' -f1
}
placement() {	# placement NAMESPACE WAYS DPA_START
	local ns=$1 ways=$2 dpa=$3 bdev k want got bad=0 d
	bdev=$(ls /sys/bus/nd/devices/$ns/block 2> /dev/null | head -n 1)
	[ -n "$bdev" ] && [ -b /dev/$bdev ] || { nok "$ns: no block device for the placement check"; return; }
	k=0
	while [ $k -lt $((2 * ways)) ]; do
		dd if=/dev/urandom of=/tmp/line bs=4096 count=1 2> /dev/null
		dd if=/tmp/line of=/dev/$bdev bs=4096 seek=$k count=1 conv=notrunc,fsync 2> /dev/null
		want=$(md5sum < /tmp/line | cut -d' ' -f1)
		d=$((k % ways))
		got=$(media_line $d $((dpa + k / ways * 4096)))
		if [ "$got" != "$want" ]; then
			bad=$((bad + 1))
			diag "$ns line $k: not at DIMM $d DPA $(printf %#x $((dpa + k / ways * 4096)))"
		fi
		k=$((k + 1))
	done
	sync
	[ $bad = 0 ] && ok "$ns (/dev/$bdev): 4 KiB lines written at offsets 0..$((2 * ways - 1)) land on DIMM k mod $ways at DPA $(printf %#x $dpa) + (k div $ways) x 4 KiB" \
		|| nok "$ns (/dev/$bdev): $bad of $((2 * ways)) lines not at their DPA"
}
if [ -d $NT_DBG/nfit_test.0/dimm0 ]; then
	placement namespace0.0 2 0
	placement namespace1.0 4 $((16 << 20))
else
	nok "PMEM data placement: no $NT_DBG/nfit_test.0/dimm0 (nfit_test publishes its media in debugfs)"
fi
# the picture left in place for the next tests: its eight namespaces,
# enabled (list -N without -i shows no idle seed)
if "$OURS" list -RNu -b nfit_test.0 > $OUT/doc-examples.list.json 2> /tmp/dl.err; then
	expect_eq "ours: list -RNu: the picture's namespaces, nothing else" \
		"$(sed -n 's/^ *"dev":"\(namespace[0-9.]*\)",*$/\1/p' $OUT/doc-examples.list.json | sort | tr '\n' ' ')" \
		"namespace0.0 namespace1.0 namespace2.0 namespace2.1 namespace3.0 namespace3.1 namespace4.0 namespace5.0 "
else
	nok "ours: list -RNu after the examples failed: $(cat /tmp/dl.err)"
fi
