# blk-create: create-namespace on BLK regions (nfit_test.0, after blk.sh
# freed 8 MiB on region2 and region3 and 24 MiB on region4 and region5).
# Ours makes raw namespaces with the default (4096) and every BLK sector
# size (512 520 528 4096 4104 4160 4224): each is enabled by nd_blk at once,
# /dev/ndblkR.N with its format's capacity and block size carries data,
# and Debian's ndctl lists it alike.  Sector mode (the default for -t blk
# without -m, as 76.1) gives /dev/ndblkR.Ns.  The same requests made by
# Debian's ndctl 76.1 give the same answers (each creates, the other
# destroys); unsupported sector sizes, too small sector-mode sizes and dax
# modes are refused in one line with nothing changed.  At the end
# ndctl-doc-examples --destroy deletes everything through libndctl.
# usage: sh blk-create.sh OUR_NDCTL [DEBIAN_NDCTL]
. "$(dirname "$0")/common.sh"

nfit_test0 "create-namespace on BLK regions"
# the disk of a BLK format: logical blocks of 512 or 4096 bytes, each
# taking its format rounded up to 64 bytes
blk_ss() { [ $1 -lt 4096 ] && echo 512 || echo 4096; }
blk_bytes() { echo $(($1 / (($2 + 63) / 64 * 64) * $(blk_ss $2))); }

# create WHO REGION ARGS...: create-namespace -b nfit_test.0 -r REGION ARGS
# by ours or theirs; JSON in /tmp/c.json, stderr in /tmp/c.err, status in
# $rc, the new namespace in $dev, its disk in $disk
create() {
	local who=$1 r=$2 bin
	shift 2
	[ $who = ours ] && bin=$OURS || bin=$THEIRS
	"$bin" create-namespace -b nfit_test.0 -r $r "$@" > /tmp/c.json 2> /tmp/c.err
	rc=$?
	dev=$(jfield dev /tmp/c.json)
	disk=$(jfield blockdev /tmp/c.json)
}
# created WHO DESC MODE SECTOR_SIZE NAME: the JSON says so, the disk is
# /dev/ndblkR.N[s] of the new namespace, served by nd_blk
created() {
	local who=$1 desc=$2 mode=$3 ss=$4 name=$5 sfx= id served
	id=${dev#namespace}
	# raw: the namespace is bound; sector: its btt (holder) is, it is not
	served=$(ns_driver $dev)
	if [ $mode = sector ]; then
		sfx=s
		served="$served $(ns_driver $(attr /sys/bus/nd/devices/$dev/holder))"
	fi
	if [ $rc = 0 ] && [ "$(jfield mode /tmp/c.json)" = $mode ] \
			&& [ "$(jfield sector_size /tmp/c.json)" = $ss ] \
			&& [ "$(jfield name /tmp/c.json)" = "$name" ] \
			&& [ "$disk" = "ndblk$id$sfx" ] && [ -b /dev/$disk ] \
			&& [ "$served" = "$([ $mode = raw ] && echo nd_blk || echo '- nd_blk')" ]; then
		ok "$who: create-namespace $desc: $dev, $mode, sector_size $ss, /dev/$disk (nd_blk)"
		return 0
	fi
	nok "$who: create-namespace $desc: exit $rc, dev '$dev', blockdev '$disk'"
	sed 's/^/#   /' /tmp/c.json /tmp/c.err | head -n 20
	return 1
}
# refused WHO DESC REGION ARGS...: fails, one error line (ours), nothing
# changed on the region
refused() {
	local who=$1 desc=$2 r=$3 a0 s0 n0
	shift 3
	a0=$(avail $r) s0=$(attr $B/region$r/namespace_seed)
	n0=$(ls -d $B/region$r/namespace* | wc -l)
	create $who region$r "$@"
	if [ $rc != 0 ] && [ "$(avail $r)" = $a0 ] && [ "$(attr $B/region$r/namespace_seed)" = $s0 ] \
			&& [ "$(attr $B/region$r/$s0/size)" = 0 ] \
			&& [ "$(ls -d $B/region$r/namespace* | wc -l)" = $n0 ] \
			&& { [ $who = theirs ] || [ "$(grep -c error: /tmp/c.err)" = 1 ]; }; then
		ok "$who: create-namespace $desc refused (exit $rc), region$r unchanged: $(grep -i -m 1 error /tmp/c.err | sed 's/^ *//' | head -c 150)"
	else
		nok "$who: create-namespace $desc: exit $rc, available $a0 -> $(avail $r), seed $s0 -> $(attr $B/region$r/namespace_seed)"
		sed 's/^/#   /' /tmp/c.json /tmp/c.err | head -n 10
	fi
}
# theirs_sees NS: Debian's listing of NS has ours' fields (mode,
# sector_size, blockdev, size, uuid, name)
theirs_sees() {
	local f k bad=
	"$THEIRS" list -N -n $1 > /tmp/tl.json 2> /dev/null
	for k in mode sector_size blockdev size uuid name; do
		[ "$(jns /tmp/tl.json $1 $k)" = "$(jfield $k /tmp/c.json)" ] || bad="$bad $k"
	done
	[ -z "$bad" ] && ok "Debian ndctl lists $1 with our create's mode, sector_size, blockdev, size, uuid, name" ||
		{ nok "Debian ndctl lists $1 differently:$bad"; sed 's/^/#   /' /tmp/tl.json; }
}

expect_eq "free BLK capacity of region2..5 after blk.sh (MiB)" \
	"$(($(avail 2) / MiB)) $(($(avail 3) / MiB)) $(($(avail 4) / MiB)) $(($(avail 5) / MiB))" "8 8 24 24"

# --- raw, default sector size (region2) -------------------------------------
a0=$(avail 2)
create ours region2 -t blk -m raw -s 4M -n blk-raw
if created ours "-t blk -m raw -s 4M" raw 4096 blk-raw; then
	expect_eq "/dev/$disk: bytes, logical block size" \
		"$(blockdev --getsize64 /dev/$disk) $(blockdev --getss /dev/$disk)" "$((4 * MiB)) 4096"
	expect_eq "region2 available_size: 4 MiB less" "$(avail 2)" $((a0 - 4 * MiB))
	pat_write $disk $disk 0
	expect_eq "/dev/$disk: 64 KiB written read back" "$(pat_check $disk $disk 0)" same
	theirs_sees $dev
fi

# --- refusals: nothing changes (region2 has 4 MiB left) ---------------------
for who in ours theirs; do
	refused $who "-t blk -m raw -s 1M -l 1000 (no such BLK format)" 2 -t blk -m raw -s 1M -l 1000
	refused $who "-t blk -s 4M (sector mode by default: a BTT needs 16 MiB)" 2 -t blk -s 4M
	refused $who "-t blk -m sector -s 4M -l 520" 2 -t blk -m sector -s 4M -l 520
	refused $who "-t blk -m fsdax (dax needs pmem)" 2 -t blk -m fsdax
done
create ours region2 -t blk -m raw -s 1M -l 4097
grep -q "4097 not supported (supported: 512 520 528 4096 4104 4160 4224)" /tmp/c.err &&
	ok "ours: -l 4097 refused naming the supported BLK sector sizes" ||
	{ nok "ours: -l 4097: exit $rc"; sed 's/^/#   /' /tmp/c.err; }

# --- -l: every BLK format (region3, 1 MiB each) -----------------------------
for l in 512 520 528 4096 4104 4160 4224; do
	create ours region3 -t blk -m raw -s 1M -l $l -n blk-$l
	created ours "-t blk -m raw -s 1M -l $l" raw $l blk-$l || continue
	expect_eq "/dev/$disk ($l): bytes, logical block size" \
		"$(blockdev --getsize64 /dev/$disk) $(blockdev --getss /dev/$disk)" \
		"$(blk_bytes $MiB $l) $(blk_ss $l)"
	pat_write $disk $disk 0
	expect_eq "/dev/$disk ($l): 64 KiB written read back" "$(pat_check $disk $disk 0)" same
	theirs_sees $dev
done
expect_eq "region3: 7 MiB used by the seven formats" "$(avail 3)" $MiB

# --- the same requests from both binaries -----------------------------------
# pair REGION NAME ARGS...: Debian's ndctl creates, ours destroys it; ours
# creates the same; both JSON answers agree but for the uuid (random) and
# the device names (whichever seed each took); ours' namespace stays
pair() {
	local r=$1 name=$2 a0 k bad=
	shift 2
	a0=$(avail ${r#region})
	create theirs $r "$@" -n $name
	cp /tmp/c.json /tmp/pair.theirs.json
	local tdev=$dev tdisk=$disk trc=$rc
	if [ $trc = 0 ] && [ -b /dev/$tdisk ] && "$OURS" destroy-namespace -f $tdev > /tmp/d.out 2>&1 \
			&& [ ! -b /dev/$tdisk ] && [ "$(avail ${r#region})" = $a0 ]; then
		ok "Debian ndctl: create-namespace $* -> $tdev (/dev/$tdisk); ours destroys it"
	else
		nok "Debian ndctl: create-namespace $* (exit $trc, '$tdev', '$tdisk'), or ours' destroy of it"
		sed 's/^/#   /' /tmp/pair.theirs.json /tmp/c.err /tmp/d.out 2> /dev/null | head -n 20
	fi
	create ours $r "$@" -n $name
	for k in mode size sector_size name; do
		[ "$(jfield $k /tmp/c.json)" = "$(jfield $k /tmp/pair.theirs.json)" ] || bad="$bad $k"
	done
	if [ $rc = 0 ] && [ -z "$bad" ] && [ -b /dev/$disk ]; then
		ok "ours: create-namespace $* answers as Debian's (mode $(jfield mode /tmp/c.json), size $(jfield size /tmp/c.json), sector_size $(jfield sector_size /tmp/c.json)), /dev/$disk"
	else
		nok "ours: create-namespace $*: exit $rc, differs from Debian's in:$bad"
		sed 's/^/#   /' /tmp/c.json /tmp/c.err | head -n 12
	fi
}
pair region2 p-raw -t blk -m raw -s 2M -l 520
created ours "-t blk -m raw -s 2M -l 520" raw 520 p-raw
pair region4 p-sector -t blk -s 20M
if created ours "-t blk -s 20M (sector mode by default)" sector 4096 p-sector; then
	expect_eq "/dev/$disk: logical block size" "$(blockdev --getss /dev/$disk)" 4096
	expect_eq "/dev/$disk: bytes as the btt says" "$(blockdev --getsize64 /dev/$disk)" \
		"$(attr /sys/bus/nd/devices/$(attr /sys/bus/nd/devices/$dev/holder)/size)"
	pat_write $disk $disk
	expect_eq "/dev/$disk: 64 KiB written through the BTT read back" "$(pat_check $disk $disk)" same
	theirs_sees $dev
fi

# --- sector mode with a BLK format (region5: all of it) ---------------------
create ours region5 -t blk -m sector -l 520 -n blk-sector
if created ours "-t blk -m sector -l 520" sector 520 blk-sector; then
	expect_eq "/dev/$disk: logical block size (520-byte BTT sectors)" "$(blockdev --getss /dev/$disk)" 512
	expect_eq "region5 fully used" "$(avail 5)" 0
	pat_write $disk $disk
	expect_eq "/dev/$disk: 64 KiB written through the BTT read back" "$(pat_check $disk $disk)" same
	theirs_sees $dev
	# disabled and enabled again: the BTT on the media is found
	"$OURS" disable-namespace $dev > /dev/null 2>&1 && "$THEIRS" enable-namespace $dev > /dev/null 2>&1
	expect_eq "$dev after a disable (ours) and enable (Debian's): /dev/$disk, the data" \
		"$(ns_disk $dev) $(pat_check $disk $disk)" "$disk same"
fi

for opts in "-N -t blk" "-RNi -t blk" "-Nv -t blk"; do
	list_parity blkc$(echo "$opts" | tr -d ' ') $opts
done

# everything back: delete through libndctl, all capacity and labels gone
if [ ! -x /usr/local/bin/ndctl-doc-examples ]; then
	nok "cleanup: /usr/local/bin/ndctl-doc-examples missing (built by make -C userspace): the picture is not destroyed"
else
	/usr/local/bin/ndctl-doc-examples --destroy > /tmp/destroy.tap 2> /tmp/destroy.err
	while IFS= read -r line; do
		case "$line" in
		"ok "*) ok "${line#ok * - }" ;;
		"not ok "*) nok "${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done < /tmp/destroy.tap
	[ -s /tmp/destroy.err ] && { nok "ndctl-doc-examples --destroy wrote to stderr"; sed 's/^/#   /' /tmp/destroy.err; }
	ls /dev | grep -q '^ndblk' && nok "block devices left after --destroy: $(ls /dev | grep '^ndblk' | tr '\n' ' ')" ||
		ok "no /dev/ndblk* left after --destroy"
fi
# the final listing was written and never looked at: after --destroy it
# must list no namespace (only idle seeds, which -N without -i hides)
if "$OURS" list -RN -b nfit_test.0 > $OUT/blk-final.json 2> /tmp/bf.err; then
	expect_eq "ours: list -RN after --destroy: namespaces listed" \
		"$(grep -c '"dev":"namespace' $OUT/blk-final.json)" 0
else
	nok "ours: list -RN after --destroy failed: $(cat /tmp/bf.err)"
fi
