# blk: BLK regions and namespaces (nstype 6) through both ndctl binaries on
# the nfit_test platform, after doc-examples configured the v4.2 document's
# picture: listings (type "blk", sector_size, available_size) ours vs
# Debian's, create-namespace on a BLK region (configured, then refused at
# enable: no nd_blk driver yet, so rolled back), destroy-namespace of a
# configured, disabled BLK namespace by each binary, then everything
# deleted through libndctl (ndctl-doc-examples --destroy).
# usage: sh blk.sh OUR_NDCTL [DEBIAN_NDCTL]
. "$(dirname "$0")/common.sh"

if [ ! -d /sys/devices/platform/nfit_test.0 ]; then
	skip "BLK namespaces" "needs the nfit_test platform"
	exit 0
fi
settle
B=$(ls -d /sys/devices/platform/nfit_test.0/ndbus* | head -n 1)
MiB=1048576
avail() { attr $B/region$1/available_size; }

# listings of the BLK regions and their namespaces, ours vs Debian's (BLK
# namespaces are never active without nd_blk: only -i lists them)
for opts in "-R -t blk" "-Ni -t blk" "-RNi -t blk -u" "-Ni -r region4" "-RN -t blk" "-RNi"; do
	f=$(echo "$opts" | tr -d ' ')
	"$OURS" list -b nfit_test.0 $opts > $OUT/blk$f.ours.json 2> /tmp/o.err ||
		{ nok "ours: list $opts failed"; sed 's/^/#   /' /tmp/o.err; continue; }
	"$THEIRS" list -b nfit_test.0 $opts > $OUT/blk$f.theirs.json 2> /dev/null
	canon $OUT/blk$f.ours.json > /tmp/o.canon
	canon $OUT/blk$f.theirs.json > /tmp/t.canon
	if cmp -s /tmp/o.canon /tmp/t.canon \
			&& [ "$(head -c 1 $OUT/blk$f.ours.json)" = "$(head -c 1 $OUT/blk$f.theirs.json)" ]; then
		ok "list $opts: ours equals Debian ndctl ($(wc -l < /tmp/t.canon) fields, same top level)"
	else
		nok "list $opts differs from Debian ndctl (- Debian, + ours; top level '$(head -c 1 $OUT/blk$f.theirs.json)' vs '$(head -c 1 $OUT/blk$f.ours.json)')"
		diff /tmp/t.canon /tmp/o.canon | grep '^[-+][^-+]' | head -n 20 | sed 's/^/#   /'
	fi
done
n=$(grep -c '"type":"blk"' $OUT/blk-R-tblk.ours.json)
expect_eq "ours: list -R -t blk shows region2..5" "$n" 4
got=$(grep -c '"sector_size"' $OUT/blk-Ni-tblk.ours.json)
[ "$got" -ge 6 ] && ok "ours: list -Ni -t blk: $got BLK namespaces with a sector_size" \
	|| nok "ours: list -Ni -t blk: $got namespaces with a sector_size (want 6 from doc-examples)"
for s in 512 4096 520 528 4160 4224; do
	grep -q "\"sector_size\":$s" $OUT/blk-Ni-tblk.ours.json || nok "ours: no BLK namespace with sector_size $s listed"
done
# an empty listing (list failed) must not pass for "no block device"
if [ -s $OUT/blk-Ni-tblk.ours.json ] && ! grep -q '"blockdev"' $OUT/blk-Ni-tblk.ours.json; then
	ok "ours lists no block device for a BLK namespace (none can exist without nd_blk)"
else
	nok "ours: list -Ni -t blk empty, or it lists a BLK block device"
fi

# create-namespace -t blk: no nd_blk, so the enable fails and the new
# namespace is rolled back.  Free room on region2 first (blk2.1: 8 MiB).
a0=$(avail 2)
if "$OURS" destroy-namespace namespace2.1 > /tmp/d.out 2>&1; then
	ok "ours: destroy-namespace namespace2.1 (configured, disabled BLK namespace, no --force)"
else
	nok "ours: destroy-namespace namespace2.1"; sed 's/^/#   /' /tmp/d.out
fi
a1=$(avail 2)
expect_eq "region2 available_size grows by blk2.1's 8 MiB" "$a1" $((a0 + 8 * MiB))
"$OURS" list -N -r region2 2> /dev/null | grep -q '"name":"namespace2.1"' &&
	nok "namespace2.1 still listed with its name after destroy" || ok "namespace2.1 gone from the listing"
"$OURS" create-namespace -b nfit_test.0 -r region2 -t blk -m raw -s 4M -l 4096 -n blk-new > /tmp/c.json 2> /tmp/c.err
rc=$?
a2=$(avail 2)
if [ $rc -ne 0 ] && [ "$(grep -c error: /tmp/c.err)" = 1 ]; then
	ok "ours: create-namespace -t blk fails in one line: $(cat /tmp/c.err)"
else
	nok "ours: create-namespace -t blk: exit $rc, $(grep -c error: /tmp/c.err) error line(s)"
	sed 's/^/#   /' /tmp/c.json /tmp/c.err | head -n 20
fi
expect_eq "failed create-namespace rolled back (region2 available_size)" "$a2" "$a1"
"$OURS" list -N -r region2 2> /dev/null | grep -q '"name":"blk-new"' &&
	nok "blk-new left configured after the failed create" || ok "no blk-new namespace left behind"
# Debian's ndctl: 76.1 knows no BLK namespaces any more; its answer is recorded
"$THEIRS" create-namespace -b nfit_test.0 -r region2 -t blk -m raw -s 4M > /tmp/t.json 2> /tmp/t.err
diag "Debian ndctl create-namespace -t blk: exit $? $(head -c 300 /tmp/t.err | tr '\n' ' ')"
expect_eq "Debian's attempt left region2 available_size unchanged" "$(avail 2)" "$a1"

# Debian's ndctl destroys a BLK namespace ours configured (doc-examples)
a0=$(avail 3)
if "$THEIRS" destroy-namespace namespace3.1 > /tmp/d.out 2>&1 && [ "$(avail 3)" = $((a0 + 8 * MiB)) ]; then
	ok "Debian ndctl: destroy-namespace namespace3.1 frees its 8 MiB on region3"
else
	nok "Debian ndctl: destroy-namespace namespace3.1 (available $a0 -> $(avail 3))"
	sed 's/^/#   /' /tmp/d.out
fi

# everything back: delete through libndctl, all capacity and labels gone
if [ -x /usr/local/bin/ndctl-doc-examples ]; then
	/usr/local/bin/ndctl-doc-examples --destroy > /tmp/destroy.tap 2> /tmp/destroy.err
	while IFS= read -r line; do
		case "$line" in
		"ok "*) ok "${line#ok * - }" ;;
		"not ok "*) nok "${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done < /tmp/destroy.tap
	[ -s /tmp/destroy.err ] && { nok "ndctl-doc-examples --destroy wrote to stderr"; sed 's/^/#   /' /tmp/destroy.err; }
fi
"$OURS" list -RN -b nfit_test.0 > $OUT/blk-final.json 2>&1
