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
fi
OUT=${NVT_OUT:-/tmp/ndctl-userspace}
mkdir -p "$OUT"

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
