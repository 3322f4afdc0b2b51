# dax: fsdax (pfn) and devdax (dax) namespaces made by our ndctl on the
# modules this boot loaded, checked against Debian's ndctl 76.1 and against
# sizes computed here.
#
#   a) fsdax: a 64M namespace (-M dev -a 2M) on the labelled DIMM's region,
#      and the label-less DIMM's io namespace reconfigured (-f -e, 76.1's
#      defaults); `list -N -n NS` of both binaries equal field by field,
#      each field as computed; /dev/pmemX with queue/dax 1, a pattern
#      written through it reads back, also after disable/enable
#   b) devdax (-a 2M): list parity, chardev daxR.N for namespaceR.N (6.1's
#      dax_pmem names the device-dax instance after the namespace), the
#      listed /dev node, `daxctl list` size/align
#   c) Debian's ndctl creates fsdax + devdax, ours lists them identically
#      and destroys them; ours creates, Debian's lists and destroys
#   d) bad input through ours (-a 3M, -M bogus, -a 1G on 64M and 16M,
#      8M): refused with one error line naming the problem, the region's
#      namespaces, seeds and available_size unchanged
#   e) v1.2 labels: holder_class pfn / dax written by create-namespace
#      (the kernel refuses holder_class once a namespace is claimed), the
#      labels' abstraction GUID, the same after the region re-reads them
#
# They run in the order a, b, d (a's and b's namespaces still there), c, e.
# The labelled DIMM starts label-less (fresh backing files) and is zeroed
# again at the end; the io namespace is put back to raw.
# usage: sh dax.sh OUR_NDCTL [DEBIAN_NDCTL]
. "$(dirname "$0")/common.sh"

# QEMU platform (vm/nvt.py PLATFORMS): each DIMM is 512 MiB
IO_RAW=$((512 * MiB))
M2=$((2 * MiB))
# v1.2 label abstraction GUIDs as 76.1's read-labels prints them (raw
# bytes of NVDIMM_PFN_GUID 266400ba-fb9f-4677-bcb0-968f11d0d225 and
# NVDIMM_DAX_GUID 97a86d9c-3cdd-4eda-986f-5068b4f80088)
PFN_GUID=ba006426-9ffb-7746-bcb0-968f11d0d225
DAX_GUID=9c6da897-dd3c-da4e-986f-5068b4f80088
# the fields `list -N` prints for each mode (76.1), with -n NAME "name"
FS_KEYS="align blockdev dev map mode name sector_size size uuid"
DEV_KEYS="align chardev dev map mode name size uuid"
FS_IO_KEYS="align blockdev dev map mode sector_size size uuid"

settle
LDIMM=$(label_dimm) || { nok "no DIMM with label commands (QEMU's nvdimm1 has a label area)"; exit 1; }
L=$(region_of_dimm $LDIMM) || { nok "no region on $LDIMM"; exit 1; }
LL= ; IO=
for r in /sys/bus/nd/devices/region*; do
	[ "${r##*/}" = "$L" ] && continue
	for n in $r/namespace*; do
		[ "$(attr $n/size)" = $IO_RAW ] && [ "$(attr $n/nstype)" = 4 ] || continue
		LL=${r##*/} IO=${n##*/}
		break 2
	done
done
LR=/sys/bus/nd/devices/$L
diag "labelled DIMM $LDIMM: $L (nstype $(attr $LR/nstype)); io namespace $IO of $LL"
[ -n "$IO" ] || nok "no io namespace of $IO_RAW bytes outside $L (QEMU's label-less nvdimm0)"
# both module sets offer pfn and dax devices (stock 6.1; ours since
# issue 13): a region without the seeds is a regression
if [ -z "$(attr $LR/pfn_seed)" ]; then
	nok "fsdax/devdax: $L has no pfn_seed"
	exit 0
fi
HAVE_DAX=$([ -n "$(attr $LR/dax_seed)" ] && echo 1)

# ---------------------------------------------------------------- helpers
# pfn_usable RAW START MAP ALIGN: bytes a pfn/dax device offers on a
# namespace of RAW bytes at physical address START, as 6.1's nd_pfn_init
# lays it out (docs/pfn.md): A = max(ALIGN, 2M); the data starts past the
# 8 KiB reserve and, map dev, 64 bytes of struct page per 4 KiB page of
# (RAW - 8K), rounded up to A; the end is truncated to A
pfn_usable() {
	local raw=$1 start=$2 map=$3 a=$4 off trunc
	[ $a -lt $M2 ] && a=$M2
	trunc=$(( (start + raw) % a ))
	off=$((start + 8192))
	[ $map = dev ] && off=$((off + 64 * ((raw - 8192) / 4096)))
	off=$(( (off + a - 1) / a * a - start ))
	echo $(( (raw - off - trunc) / 4096 * 4096 ))
}
# pmem_name NS: the disk 6.1 names for namespaceR.N: pmemR (N = 0), pmemR.N
pmem_name() {
	local r=${1#namespace} n=${1##*.}
	r=${r%.*}
	[ "$n" = 0 ] && echo pmem$r || echo pmem$r.$n
}
# dax_name NS: device-dax instance of namespaceR.N: daxR.N (dax_pmem)
dax_name() { echo dax${1#namespace}; }
# holder_uuid NS: uuid of the pfn/dax device claiming NS (kernel sysfs)
holder_uuid() { attr /sys/bus/nd/devices/$(attr /sys/bus/nd/devices/$1/holder)/uuid; }
ns_start() { attr /sys/bus/nd/devices/$1/resource; }

# what `modprobe` does for udev: dax_pmem binds the dax device, device_dax
# its daxR.N instance (/dev/daxR.N); wait for the node
coldplug() {
	local i=0
	modprobe -q dax_pmem 2>/dev/null
	modprobe -q device_dax 2>/dev/null
	settle
	[ -n "$1" ] || return 0
	while [ ! -c /dev/$1 ] && [ $i -lt 30 ]; do usleep 100000; i=$((i + 1)); done
}

# rstate R: available_size and every configured namespace (size, holder,
# uuid); rstate_full adds the seeds and which pfn/dax device claims what
rstate() {
	local R=/sys/bus/nd/devices/$1 n s
	printf 'available_size=%s' "$(attr $R/available_size)"
	for n in $R/namespace*; do
		s=$(attr $n/size)
		[ "${s:-0}" = 0 ] && continue
		printf ' %s:%s:%s:%s' ${n##*/} $s "$(attr $n/holder)" "$(attr $n/uuid)"
	done
	echo
}
rstate_full() {
	local R=/sys/bus/nd/devices/$1 p
	printf '%s seeds=%s,%s,%s,%s' "$(rstate $1)" "$(attr $R/namespace_seed)" \
		"$(attr $R/pfn_seed)" "$(attr $R/dax_seed)" "$(attr $R/btt_seed)"
	for p in $R/pfn* $R/dax*; do
		[ -e $p/namespace ] || continue
		printf ' %s=%s/%s' ${p##*/} "$(attr $p/namespace)" "$([ -e $p/driver ] && echo bound)"
	done
	echo
}

# relabel VERSION|zero: region L disabled, labels of LDIMM, re-enabled (ours)
relabel() {
	relabel_with "$OURS" $L $LDIMM $1 || return 1
	settle
}

# keys FILE NS: the field names of NS's object (sorted, one line)
keys() {
	canon "$1" | sed -n "s|^/$2: \"\([^\"]*\)\":.*|\1|p" | sort | tr '\n' ' ' | sed 's/ $//'
}

# ns_check DESC NS KEYS KEY=WANT...: `list -N -n NS` of ours and of
# Debian's: both print the object, the same text for the same paths
# (canon: every value under its object's path), both print exactly KEYS,
# and each KEY=WANT field is WANT in both.  NSJ: ours' listing
ns_check() {
	local desc=$1 ns=$2 want_keys=$3 o t kv k w vo vt bad= tag
	shift 3
	tag=$(echo "$desc" | tr -c 'a-zA-Z0-9\n' '-')
	o=$OUT/$tag.ours.json t=$OUT/$tag.theirs.json
	NSJ=$o
	if ! "$OURS" list -N -n $ns > $o 2> /tmp/l.err; then
		nok "$desc: ours list -N -n $ns failed"; sed 's/^/#   /' /tmp/l.err; return 1
	fi
	"$THEIRS" list -N -n $ns > $t 2> /dev/null
	canon $o > /tmp/c.o; canon $t > /tmp/c.t
	if [ -s /tmp/c.t ] && cmp -s /tmp/c.o /tmp/c.t && [ "$(head -c 1 $o)" = "$(head -c 1 $t)" ]; then
		ok "$desc: list -N -n $ns: ours equals Debian's ndctl ($(wc -l < /tmp/c.t) fields)"
	else
		nok "$desc: list -N -n $ns: ours differs from Debian's ndctl (- Debian, + ours)"
		diff /tmp/c.t /tmp/c.o | grep '^[-+][^-+]' | head -n 20 | sed 's/^/#   /'
	fi
	vo=$(keys $o $ns); vt=$(keys $t $ns)
	[ "$vo" = "$want_keys" ] && [ "$vt" = "$want_keys" ] \
		&& ok "$desc: both print exactly: $want_keys" \
		|| nok "$desc: fields: ours '$vo', Debian '$vt', want '$want_keys'"
	for kv; do
		k=${kv%%=*} w=${kv#*=}
		vo=$(jns $o $ns $k); vt=$(jns $t $ns $k)
		[ "$vo" = "$w" ] && [ "$vt" = "$w" ] || bad="$bad $k: ours '$vo' Debian '$vt' want '$w';"
	done
	if [ -z "$bad" ]; then
		ok "$desc: $(for kv; do printf '%s ' "$kv"; done)(ours and Debian's)"
	else
		nok "$desc:$bad"
	fi
}

# fs_io_check DESC NS: /dev/pmemX of NS exists, has DAX, a pattern
# written through it reads back (caches dropped)
fs_io_check() {
	local desc=$1 bd=$(pmem_name $2)
	if [ -b /dev/$bd ] && [ -e /sys/bus/nd/devices/$(attr /sys/bus/nd/devices/$2/holder)/block/$bd ]; then
		ok "$desc: /dev/$bd is the pfn device's disk"
	else
		nok "$desc: no /dev/$bd under $(attr /sys/bus/nd/devices/$2/holder) (block: $(ls /sys/bus/nd/devices/$(attr /sys/bus/nd/devices/$2/holder)/block 2>&1))"
		return 1
	fi
	expect_eq "$desc: /sys/block/$bd/queue/dax" "$(attr /sys/block/$bd/queue/dax)" 1
	pat_write $bd $bd 768 && [ "$(pat_check $bd $bd 768)" = same ] \
		&& ok "$desc: 64 KiB pattern written through /dev/$bd at 3 MiB reads back" \
		|| nok "$desc: pattern through /dev/$bd does not read back"
}

# dev_check DESC CHARDEV SIZE ALIGN: /dev/CHARDEV (the instance the
# listing names; ns_check checks that name), `daxctl list -d CHARDEV`
dev_check() {
	local desc=$1 c=$2 s a
	[ -n "$c" ] || { nok "$desc: no chardev listed"; return 1; }
	coldplug $c
	[ -c /dev/$c ] && ok "$desc: /dev/$c is a character device" \
		|| { nok "$desc: no /dev/$c after modprobe dax_pmem device_dax"; ls /sys/bus/dax/devices 2>&1 | sed 's/^/#   /'; }
	daxctl list -d $c > /tmp/dx.json 2> /tmp/dx.err
	s=$(tr ',{}[]' '\n\n\n\n\n' < /tmp/dx.json | sed -n 's/^ *"size": *\([0-9]*\)$/\1/p' | head -n 1)
	a=$(tr ',{}[]' '\n\n\n\n\n' < /tmp/dx.json | sed -n 's/^ *"align": *\([0-9]*\)$/\1/p' | head -n 1)
	if [ "$s" = "$3" ] && [ "$a" = "$4" ]; then
		ok "$desc: daxctl list -d $c: size $s, align $a"
	else
		nok "$desc: daxctl list -d $c: size '$s' align '$a', want $3 $4"
		sed 's/^/#   /' /tmp/dx.json /tmp/dx.err | head -n 10
	fi
}

# create WHO DESC ARGS...: WHO (ours|Debian) create-namespace ARGS;
# sets NS (the new namespace) or returns 1 after a nok
create() {
	local who=$1 desc=$2 nd=$OURS
	shift 2
	[ $who = Debian ] && nd=$THEIRS
	NS=
	if "$nd" create-namespace "$@" > /tmp/c.json 2> /tmp/c.err; then
		NS=$(jfield dev /tmp/c.json)
		ok "$desc: $who create-namespace $* -> $NS"
		return 0
	fi
	nok "$desc: $who create-namespace $* failed"; sed 's/^/#   /' /tmp/c.err | head -n 10
	return 1
}

# gone NAME NODE: neither binary lists NAME in L, no /dev/NODE (the
# namespace's block or dax device)
gone() {
	local lo lt
	"$OURS" list -N -r $L > /tmp/g.o 2>/dev/null; lo=$?
	"$THEIRS" list -N -r $L > /tmp/g.t 2>/dev/null; lt=$?
	[ $lo = 0 ] && [ $lt = 0 ] && ! grep -q "\"name\":\"$1\"" /tmp/g.o /tmp/g.t \
		&& [ -n "$2" ] && [ ! -e /dev/$2 ]
}

# ---------------------------------------------------------------- a) fsdax
if relabel 1.1 && [ "$(attr $LR/nstype)" = 5 ]; then
	ok "ours: init-labels $LDIMM (v1.1), $L label-backed"
else
	nok "labelling $LDIMM failed (nstype $(attr $LR/nstype))"; sed 's/^/#   /' /tmp/r.out; exit 1
fi
avail0=$(attr $LR/available_size)
diag "$L available_size $avail0"

if create ours "fsdax 64M" -r $L -m fsdax -M dev -a 2M -s 64M -n usdax-fs; then
	FS=$NS
	ns_check "fsdax 64M" $FS "$FS_KEYS" dev=$FS mode=fsdax map=dev \
		size=$(pfn_usable $((64 * MiB)) $(ns_start $FS) dev $M2) \
		uuid=$(holder_uuid $FS) sector_size=512 align=$M2 \
		blockdev=$(pmem_name $FS) name=usdax-fs
	expect_eq "fsdax 64M: usable size at a 2M-aligned start (struct pages 1M + 8K, rounded to 2M)" \
		"$(pfn_usable $((64 * MiB)) 0 dev $M2)" $((62 * MiB))
	fs_io_check "fsdax 64M" $FS
	uu=$(holder_uuid $FS)
	if "$OURS" disable-namespace $FS > /tmp/d.out 2>&1 && "$OURS" enable-namespace $FS >> /tmp/d.out 2>&1; then
		settle
		"$OURS" list -N -n $FS > /tmp/re.json 2>/dev/null
		[ "$(holder_uuid $FS)" = "$uu" ] && [ "$(jns /tmp/re.json $FS mode)" = fsdax ] \
			&& [ "$(pat_check $(pmem_name $FS) $(pmem_name $FS) 768)" = same ] \
			&& ok "fsdax 64M: ours disable/enable-namespace: fsdax again, pfn uuid kept, pattern intact" \
			|| nok "fsdax 64M after disable/enable: holder uuid '$(holder_uuid $FS)' (was $uu), pattern $(pat_check $(pmem_name $FS) $(pmem_name $FS) 768)"
	else
		nok "fsdax 64M: ours disable/enable-namespace failed"; sed 's/^/#   /' /tmp/d.out
	fi
fi

if [ -n "$IO" ]; then
	# 76.1's defaults: map dev, align 2M
	if create ours "io fsdax" -f -e $IO -m fsdax; then
		ns_check "io fsdax" $IO "$FS_IO_KEYS" dev=$IO mode=fsdax map=dev \
			size=$(pfn_usable $IO_RAW $(ns_start $IO) dev $M2) \
			uuid=$(holder_uuid $IO) sector_size=512 align=$M2 blockdev=$(pmem_name $IO)
		fs_io_check "io fsdax" $IO
	fi
fi

# ---------------------------------------------------------------- b) devdax
if [ -z "$HAVE_DAX" ]; then
	nok "devdax: not run, $L has no dax_seed"
elif create ours "devdax 64M" -r $L -m devdax -a 2M -s 64M -n usdax-dev; then
	DEV=$NS
	coldplug
	want=$(pfn_usable $((64 * MiB)) $(ns_start $DEV) dev $M2)
	ns_check "devdax 64M" $DEV "$DEV_KEYS" dev=$DEV mode=devdax map=dev size=$want \
		uuid=$(holder_uuid $DEV) align=$M2 chardev=$(dax_name $DEV) name=usdax-dev
	DEVNODE=$(jns $NSJ $DEV chardev)
	dev_check "devdax 64M" "$DEVNODE" $want $M2
fi

# ---------------------------------------------------------------- d) bad input
# (with the fsdax and devdax namespaces above in place)
bad() {	# bad DESC PATTERN ARGS...: refused, one error line matching PATTERN
	local desc=$1 pat=$2 before after rc
	shift 2
	before=$(rstate_full $L)
	"$OURS" create-namespace -r $L "$@" > /tmp/b.out 2> /tmp/b.err
	rc=$?
	settle
	after=$(rstate_full $L)
	if [ $rc != 0 ] && [ "$(grep -c 'error:' /tmp/b.err)" = 1 ] && grep -qiE "$pat" /tmp/b.err \
			&& [ "$before" = "$after" ]; then
		ok "bad input $desc: ours refuses (exit $rc) with '$(grep 'error:' /tmp/b.err)', $L unchanged"
	else
		nok "bad input $desc: exit $rc, message matching '$pat'?"
		sed 's/^/#   stderr: /' /tmp/b.err | head -n 5
		[ "$before" = "$after" ] || { diag "  before: $before"; diag "  after:  $after"; }
		# what ours made must not spoil the checks after this one
		[ $rc = 0 ] && "$OURS" destroy-namespace -f -r $L $(jfield dev /tmp/b.out) > /dev/null 2>&1
		before=$(rstate_full $L)
	fi
	# the oracle refuses it too (exit status only)
	"$THEIRS" create-namespace -r $L "$@" > /tmp/bt.out 2>&1
	rc=$?
	settle
	if [ $rc != 0 ]; then
		[ "$(rstate_full $L)" = "$before" ] || diag "  Debian's ndctl changed $L: $(rstate_full $L)"
	else
		diag "  Debian's ndctl accepted $*: $(rstate_full $L)"
		"$THEIRS" destroy-namespace -f -r $L $(jfield dev /tmp/bt.out) > /dev/null 2>&1
	fi
}
bad "-a 3M (not a power of 2)" "align.*3M" -m fsdax -s 64M -a 3M
bad "-M bogus" "map.*bogus" -m fsdax -s 64M -M bogus
bad "fsdax -a 1G on 64M" "align" -m fsdax -s 64M -a 1G
bad "fsdax 8M (below 16M)" "16M|16 MiB|size" -m fsdax -s 8M
if [ -n "$HAVE_DAX" ]; then
	bad "devdax -a 1G on 16M" "align" -m devdax -s 16M -a 1G
	bad "devdax -a 3M" "align.*3M" -m devdax -s 64M -a 3M
fi

# ours destroys its own namespaces of a) and b)
for e in ${FS:+$FS:$(pmem_name $FS)} ${DEV:+$DEV:$DEVNODE}; do
	n=${e%%:*} node=${e#*:}
	name=$(attr /sys/bus/nd/devices/$n/alt_name)
	if "$OURS" destroy-namespace -f $n > /tmp/d.out 2>&1 && gone $name $node; then
		ok "ours: destroy-namespace -f $n ($name): gone from both listings, no /dev/$node"
	else
		nok "ours: destroy-namespace -f $n ($name, /dev/$node $([ -e /dev/$node ] && echo exists || echo gone))"
		sed 's/^/#   /' /tmp/d.out
	fi
done
expect_eq "$L available_size back to the whole region" "$(attr $LR/available_size)" "$avail0"

# ---------------------------------------------------------------- c) both ways
# cross MAKER OTHER MODE NAME ARGS...: MAKER creates, OTHER lists it as
# MAKER does and destroys it; the region is as before
cross() {
	local mk=$1 other=$2 mode=$3 name=$4 before nd map=dev al=$M2 raw=$((64 * MiB)) a node
	shift 4
	before=$(rstate $L)
	create $mk "cross $mode" -r $L -m $mode -s 64M -n $name "$@" || return
	for a; do [ "$a" = mem ] && map=mem; done
	[ $mode = devdax ] && coldplug
	if [ $mode = fsdax ]; then
		ns_check "$mk's $mode" $NS "$FS_KEYS" dev=$NS mode=fsdax map=$map \
			size=$(pfn_usable $raw $(ns_start $NS) $map $al) uuid=$(holder_uuid $NS) \
			sector_size=512 align=$al blockdev=$(pmem_name $NS) name=$name
		node=$(pmem_name $NS)
		[ -b /dev/$node ] && ok "$mk's $mode: /dev/$node exists" || nok "$mk's $mode: no /dev/$node"
	else
		ns_check "$mk's $mode" $NS "$DEV_KEYS" dev=$NS mode=devdax map=$map \
			size=$(pfn_usable $raw $(ns_start $NS) $map $al) uuid=$(holder_uuid $NS) \
			align=$al chardev=$(dax_name $NS) name=$name
		# the node the listing names (ns_check checked the name)
		node=$(jns $NSJ $NS chardev)
		[ -n "$node" ] && [ -c /dev/$node ] && ok "$mk's $mode: /dev/$node (listed chardev) exists" \
			|| nok "$mk's $mode: no /dev/$node (listed chardev '$node')"
	fi
	nd=$OURS; [ $other = Debian ] && nd=$THEIRS
	if "$nd" destroy-namespace -f $NS > /tmp/d.out 2>&1 && gone $name $node \
			&& [ "$(rstate $L)" = "$before" ]; then
		ok "$other destroys $mk's $mode $NS: gone from both listings, $L as before"
	else
		nok "$other: destroy-namespace -f $NS ($mk's $mode)"; sed 's/^/#   /' /tmp/d.out
		diag "  before: $before"; diag "  after:  $(rstate $L)"
	fi
}
cross Debian ours fsdax usdax-d-fs
cross ours Debian fsdax usdax-o-fs -M mem
if [ -n "$HAVE_DAX" ]; then
	cross Debian ours devdax usdax-d-dev -a 2M
	cross ours Debian devdax usdax-o-dev -a 2M
else
	nok "devdax both ways: not run, $L has no dax_seed"
fi

# ---------------------------------------------------------------- e) holder_class
# label_guid NAME: abstraction_guid of the label named NAME (76.1's read-labels)
label_guid() {
	"$THEIRS" read-labels -j $LDIMM 2>/dev/null > /tmp/rl.json
	canon /tmp/rl.json | awk -v n="$1" '
		{ p = $1; kv = substr($0, length(p) + 2) }
		kv == "\"name\":\"" n "\"" { want[p] = 1 }
		kv ~ /^"abstraction_guid":/ { g[p] = kv }
		END { for (p in want) { v = g[p]; sub(/^[^:]*:/, "", v); gsub(/"/, "", v); print v } }' | sort -u
}
# hc WHO MODE CLASS GUID NAME: WHO creates a MODE namespace; its
# holder_class is CLASS (written before the claim: the kernel refuses it
# after) and its label carries GUID; both survive the region re-reading
# the labels
hc() {
	local who=$1 mode=$2 class=$3 guid=$4 name=$5 ns
	create $who "v1.2 $mode" -r $L -m $mode -s 64M -a 2M -n $name || return
	ns=$NS
	expect_eq "v1.2: $who's $mode $ns holder_class" "$(attr /sys/bus/nd/devices/$ns/holder_class)" $class
	expect_eq "v1.2: $who's $mode label abstraction_guid" "$(label_guid $name)" $guid
	HC="$HC $ns:$class:$mode"
}
if relabel 1.2 && [ "$(attr $LR/nstype)" = 5 ]; then
	ok "ours: init-labels -V 1.2 $LDIMM"
	HC=
	hc ours fsdax pfn $PFN_GUID usdax-hc-ofs
	hc Debian fsdax pfn $PFN_GUID usdax-hc-dfs
	if [ -n "$HAVE_DAX" ]; then
		coldplug
		hc ours devdax dax $DAX_GUID usdax-hc-odev
		hc Debian devdax dax $DAX_GUID usdax-hc-ddev
	else
		nok "v1.2 devdax holder_class: not run, $L has no dax_seed"
	fi
	# the region re-reads its labels: class and mode come back
	if "$OURS" disable-region $L > /tmp/r.out 2>&1 && "$OURS" enable-region $L >> /tmp/r.out 2>&1; then
		coldplug
		bad_hc=
		for e in $HC; do
			ns=${e%%:*} rest=${e#*:}
			cl=${rest%%:*} mode=${rest#*:}
			"$OURS" list -N -n $ns > /tmp/h.json 2>/dev/null
			[ "$(attr /sys/bus/nd/devices/$ns/holder_class)" = $cl ] && [ "$(jns /tmp/h.json $ns mode)" = $mode ] \
				|| bad_hc="$bad_hc $ns: holder_class '$(attr /sys/bus/nd/devices/$ns/holder_class)' mode '$(jns /tmp/h.json $ns mode)' (want $cl $mode);"
		done
		[ -n "$HC" ] && [ -z "$bad_hc" ] && ok "v1.2: after disable/enable-region:$HC" \
			|| nok "v1.2 after disable/enable-region:${bad_hc:- nothing created}"
	else
		nok "v1.2: ours disable/enable-region $L"; sed 's/^/#   /' /tmp/r.out
	fi
	"$OURS" destroy-namespace -f all -r $L > /tmp/d.out 2>&1 \
		&& [ "$(attr $LR/available_size)" = "$avail0" ] \
		&& ok "ours: destroy-namespace -f all -r $L, available_size $avail0 again" \
		|| { nok "ours: destroy-namespace -f all -r $L (available_size $(attr $LR/available_size))"; sed 's/^/#   /' /tmp/d.out; }
else
	nok "init-labels -V 1.2 failed (nstype $(attr $LR/nstype))"; sed 's/^/#   /' /tmp/r.out
fi

# ---------------------------------------------------------------- cleanup
relabel zero && ok "labels of $LDIMM zeroed again" || nok "final zero-labels failed"
if [ -n "$IO" ]; then
	# back to raw; the info block must be gone (a re-enable finds none)
	if "$OURS" create-namespace -f -e $IO -m raw > /tmp/c.json 2> /tmp/c.err \
			&& "$OURS" disable-namespace $IO > /dev/null 2>&1 && "$OURS" enable-namespace $IO > /dev/null 2>&1; then
		settle
		"$THEIRS" list -N -n $IO > /tmp/l.json 2>/dev/null
		[ "$(jns /tmp/l.json $IO mode)" = raw ] && [ "$(jns /tmp/l.json $IO size)" = $IO_RAW ] \
			&& [ -z "$(attr /sys/bus/nd/devices/$IO/holder)" ] \
			&& ok "ours: $IO back to raw ($IO_RAW bytes), still raw after disable/enable (Debian's list)" \
			|| nok "$IO after -e -m raw and disable/enable: mode '$(jns /tmp/l.json $IO mode)' size '$(jns /tmp/l.json $IO size)' holder '$(attr /sys/bus/nd/devices/$IO/holder)'"
	else
		nok "ours: create-namespace -f -e $IO -m raw"; sed 's/^/#   /' /tmp/c.err
	fi
fi
