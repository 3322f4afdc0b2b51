# Shared helpers for the userspace guest tests (busybox sh).
#   OURS=$1   path of our ndctl (build/bin/ndctl, copied into the guest)
#   THEIRS=$2 path of Debian's ndctl 76.1 (default: ndctl in PATH)
# Under the guest harness, /nvt/lib.sh provides ok/nok/skip/diag and
# NVT_OUT; standalone, minimal versions are defined here.
OURS=${1:-}
THEIRS=${2:-ndctl}
if [ -z "$OURS" ] || [ ! -x "$OURS" ]; then
	echo "usage: $0 OUR_NDCTL [DEBIAN_NDCTL]" >&2
	exit 2
fi
if [ -f /nvt/lib.sh ]; then
	. /nvt/lib.sh
else
	_n=0
	ok()   { _n=$((_n + 1)); echo "ok $_n - ${NVT_TEST:-userspace}: $*"; }
	nok()  { _n=$((_n + 1)); echo "not ok $_n - ${NVT_TEST:-userspace}: $*"; }
	skip() { _n=$((_n + 1)); echo "ok $_n - ${NVT_TEST:-userspace}: $1 # SKIP $2"; }
	diag() { echo "# $*"; }
	expect_eq() { [ "$2" = "$3" ] && ok "$1" || nok "$1: got '$2', want '$3'"; }
fi
OUT=${NVT_OUT:-/tmp/ndctl-userspace}
mkdir -p "$OUT"

# relabel_with NDCTL REGION DIMM VERSION|default|zero: NDCTL disables
# REGION, writes DIMM's labels (init-labels -f [-V VERSION], or
# zero-labels) and enables REGION again; output in /tmp/r.out
relabel_with() {
	"$1" disable-region $2 > /tmp/r.out 2>&1 || return 1
	case $4 in
	zero) "$1" zero-labels $3 >> /tmp/r.out 2>&1 || return 1 ;;
	default) "$1" init-labels -f $3 >> /tmp/r.out 2>&1 || return 1 ;;
	*) "$1" init-labels -f -V $4 $3 >> /tmp/r.out 2>&1 || return 1 ;;
	esac
	"$1" enable-region $2 >> /tmp/r.out 2>&1
}

settle() {
	for b in /sys/class/nd/ndctl*/device/wait_probe; do
		[ -e "$b" ] && cat "$b" > /dev/null 2>&1
	done
	return 0
}

# canonical form of pretty JSON for an order-free comparison in busybox:
# one key:value per line, each prefixed with the path of the object it is
# in (its "dev", or "dimm" for a mapping, else its place in the array,
# under its parent's), sorted; so the order of named objects and of keys
# does not matter, but a value moved from one object to another does
canon() {
	awk '
	function leaf(line,   k, v) {
		k = line; sub(/:.*/, "", k); gsub(/"/, "", k)
		v = line; sub(/^[^:]*:/, "", v); gsub(/"/, "", v)
		return k SUBSEP v
	}
	{
		line = $0
		sub(/^[ \t]*/, "", line); sub(/,$/, "", line)
		if (line ~ /\{$/) {
			c[d]++; d++; pos[d] = c[d - 1]; c[d] = 0
			n[d] = 0; id[d] = ""; alt[d] = ""
			next
		}
		if (line ~ /^\}/) {
			p = ""
			for (j = 1; j <= d; j++)
				p = p "/" (id[j] != "" ? id[j] : (alt[j] != "" ? alt[j] : "#" pos[j]))
			for (i = 1; i <= n[d]; i++)
				print p ": " buf[d, i]
			d--
			next
		}
		if (line ~ /^[][]*$/ || line ~ /\[$/)
			next
		kv = leaf(line); split(kv, f, SUBSEP)
		if (f[1] == "dev") id[d] = f[2]
		if (f[1] == "dimm" && alt[d] == "") alt[d] = f[2]
		n[d]++; buf[d, n[d]] = line
	}' "$1" | sort
}

# sysfs helpers
attr() { cat "$1" 2> /dev/null; }
region_of_dimm() {	# first region whose mapping0 is on DIMM $1
	local r
	for r in /sys/bus/nd/devices/region*; do
		case "$(attr $r/mapping0)" in "$1,"*) basename $r; return 0 ;; esac
	done
	return 1
}
label_dimm() {		# first DIMM with label commands
	local d
	for d in /sys/bus/nd/devices/nmem*; do
		case "$(attr $d/commands)" in *get_size*set_data*) basename $d; return 0 ;; esac
	done
	return 1
}
# json field of the first object: jfield KEY FILE
jfield() {
	sed -n "s/^[ \t]*\"$1\":\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$2" | head -n 1
}
uptime_cs() {		# uptime in centiseconds
	awk '{ split($1, a, "."); print a[1] * 100 + substr(a[2] "00", 1, 2) }' /proc/uptime
}

# BLK namespaces (blk.sh, blk-create.sh); NS is namespaceR.N
MiB=1048576
# nfit_test0 DESC: B is nfit_test.0's bus; off nfit_test, DESC is skipped
# and the test ends
nfit_test0() {
	if [ ! -d /sys/devices/platform/nfit_test.0 ]; then
		skip "$1" "needs the nfit_test platform"
		exit 0
	fi
	settle
	B=$(ls -d /sys/devices/platform/nfit_test.0/ndbus* | head -n 1)
}
avail() { attr $B/region$1/available_size; }	# avail R: regionR's
ns_driver() {		# driver bound to NS (or to a device named so), else -
	local l
	l=$(readlink /sys/bus/nd/devices/$1/driver 2> /dev/null) && basename $l || echo -
}
ns_disk() {		# the disk serving NS now: its btt's (holder) or its own
	local h
	h=$(attr /sys/bus/nd/devices/$1/holder)
	ls /sys/bus/nd/devices/${h:-$1}/block 2> /dev/null | head -n 1
}
# jns FILE NS KEY: KEY's value in NS's object of a pretty JSON listing
jns() {
	canon "$1" | sed -n "s|^/$2: \"$3\":\"\{0,1\}\([^\"]*\)\"\{0,1\}\$|\1|p" | head -n 1
}
# pat_write DISK TAG: 64 KiB of random bytes at 1 MiB into /dev/DISK (kept
# as /tmp/pat.TAG); pat_check DISK TAG: "same" when they read back
# (a third argument: at that many 4 KiB blocks instead of 256)
pat_write() {
	dd if=/dev/urandom of=/tmp/pat.$2 bs=4096 count=16 2> /dev/null &&
		dd if=/tmp/pat.$2 of=/dev/$1 bs=4096 seek=${3:-256} conv=fsync,notrunc 2> /dev/null
}
pat_check() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	if [ -b /dev/$1 ] && [ "$(dd if=/dev/$1 bs=4096 skip=${3:-256} count=16 2> /dev/null | md5sum | cut -d' ' -f1)" \
			= "$(md5sum < /tmp/pat.$2 | cut -d' ' -f1)" ]; then
		echo same
	else
		echo differ
	fi
}
# list_parity TAG OPTS...: `list -b nfit_test.0 OPTS` by both binaries,
# saved as $OUT/TAG.{ours,theirs}.json, equal field for field (canon) and
# at the top level (array or object)
list_parity() {
	local tag=$1 o t
	shift
	o=$OUT/$tag.ours.json t=$OUT/$tag.theirs.json
	if ! "$OURS" list -b nfit_test.0 "$@" > $o 2> /tmp/lp.err; then
		nok "ours: list $* failed"; sed 's/^/#   /' /tmp/lp.err
		return
	fi
	"$THEIRS" list -b nfit_test.0 "$@" > $t 2> /dev/null
	canon $o > /tmp/lp.o
	canon $t > /tmp/lp.t
	if [ -s /tmp/lp.t ] && cmp -s /tmp/lp.o /tmp/lp.t \
			&& [ "$(head -c 1 $o)" = "$(head -c 1 $t)" ]; then
		ok "list $*: ours equals Debian ndctl ($(wc -l < /tmp/lp.t) fields, same top level)"
	else
		nok "list $* differs from Debian ndctl (- Debian, + ours; top level '$(head -c 1 $t)' vs '$(head -c 1 $o)')"
		diff /tmp/lp.t /tmp/lp.o | grep '^[-+][^-+]' | head -n 20 | sed 's/^/#   /'
	fi
}
