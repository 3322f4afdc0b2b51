# nt-smart: DIMM health (the Intel family's SMART functions through
# ND_CMD_CALL) on nfit_test, driven by Debian's ndctl 76.1: list -H,
# inject-smart (thresholds, injection and un-injection of media
# temperature, spares, fatal health, unsafe shutdown), bad input, the
# fail_cmd knobs of /sys/class/nfit_test_dimm making SMART fail, and
# ndctl monitor woken by an injected event within a bounded time.
#
# Topology-agnostic: the DIMM is the first of nfit_test.0 whose
# nfit/dsm_mask offers Intel SMART (bit 1) and inject (bit 18), so the
# same script runs on upstream's 6.1 mock (module set `upstream`) and on
# ours (set `test`, reloaded without parameters: as in 6.1's mock, every
# DIMM of nfit_test.0 has its health firmware); compare-smart-oracle.py
# compares the records (/out/nt-smart.txt, "KEY = VALUE").  With our
# ndctl in the image (/opt/ours/bin/ndctl) and when it has list -H,
# its health JSON must equal Debian's on the same DIMM.  Leaves the
# DIMMs with their load-time health (nfit_test reloaded on ours).
. "$(dirname "$0")/lib.sh"
OURS=/opt/ours/bin/ndctl
OUTF=/tmp/nt-smart.txt
: > $OUTF
rec() { echo "$1 = $2" >> $OUTF; }
flush_out() { [ -d "$NVT_OUT" ] && cp $OUTF "$NVT_OUT/nt-smart.txt"; }
trap flush_out EXIT

reload() {	# modprobe arguments (nfit_test loaded or not)
	: > /tmp/ns.unload
	if [ -d /sys/module/nfit_test ]; then
		rmmod nfit_test > /tmp/ns.unload 2>&1 || return 1
	fi
	modprobe nfit_test "$@" >> /tmp/ns.unload 2>&1 || return 1
	nd_settle
	wait_pmem 1 30
}
if [ "$NVT_SET" != upstream ]; then
	reload || { nok "modprobe nfit_test: $(cat /tmp/ns.unload)"; exit 0; }
	ok "nfit_test reloaded without parameters"
fi

# health: the "health" object of ndctl list -H (NDCTL=binary), one line
health() {
	${NDCTL:-ndctl} list -H -d $D 2> /tmp/ns.err | tr -d ' \t\n' |
		sed -n 's/.*"health":\({[^}]*}\).*/\1/p'
}
# the DIMM: nmemN on nfit_test.0, Intel family, dsm_mask bits 1 and 18
D= ND=
for n in /sys/bus/nd/devices/nmem*; do
	[ "$(cat $n/../provider 2> /dev/null)" = nfit_test.0 ] || continue
	m=$(cat $n/nfit/dsm_mask 2> /dev/null) || continue
	[ "$(cat $n/nfit/family)" = 0 ] || continue
	[ $((m >> 1 & 1)) = 1 ] && [ $((m >> 18 & 1)) = 1 ] || continue
	D=$(basename $n) ND=$n
	break
done
if [ -z "$D" ]; then
	nok "no DIMM of nfit_test.0 offers Intel SMART and inject"
	exit 0
fi
ok "DIMM $D: Intel family, dsm_mask $(cat $ND/nfit/dsm_mask)"
rec commands "$(cat $ND/commands)"
# its test_dimmN: same handle, child of nfit_test.0
TD=
h=$(cat $ND/nfit/handle)
for t in /sys/class/nfit_test_dimm/test_dimm*; do
	[ "$(basename $(readlink -f $t/device))" = nfit_test.0 ] || continue
	[ $(($(cat $t/handle))) = $((h)) ] && { TD=$t; break; }
done
[ -n "$TD" ] && ok "$D's knobs: $TD" || nok "no test_dimm with handle $h"

# --- list -H and thresholds ---------------------------------------------------
rec health.default "$(health)"

# --- nfit/dirty_shutdown: the SMART shutdown count read at registration -------
dsc() { cat "$1/nfit/dirty_shutdown" 2> /dev/null || echo absent; }
rec dirty.sysfs "$(dsc $ND)"
expect_eq "$D: nfit/dirty_shutdown = the shutdown count of its SMART at load" \
	"$(dsc $ND)" "$(health | sed -n 's/.*"shutdown_count":\([0-9]*\).*/\1/p')"
# what Debian's ndctl list -D makes of it (76.1's JSON has no such key)
rec dirty.list "$(ndctl list -D -d $D | tr -d ' \t\n' | sed -n 's/.*"dirty_shutdown":\([0-9-]*\).*/\1/p')"
echo 7 > $ND/nfit/dirty_shutdown 2> /dev/null
rec dirty.write-rc $?
expect_eq "nfit/dirty_shutdown is read-only" "$(sed -n 's/^dirty.write-rc = //p' $OUTF)" 1
# ndctl_dimm_get_dirty_shutdown() (76.1's LIBNDCTL_18, PMDK's reader of the
# count): ours and Debian's libndctl, the same program dlopen()ing each,
# give every DIMM's nfit/dirty_shutdown, -ENOENT (-2) where it is absent
DS=/usr/local/bin/ndctl-dirty-shutdown
if [ -x $DS ] && [ -e /opt/ours/lib/libndctl.so.1 ]; then
	dso=$($DS /opt/ours/lib/libndctl.so.1 2>&1)
	rc=$?
	expect_eq "ours: ndctl_dimm_get_dirty_shutdown@LIBNDCTL_18 ($(echo $dso | head -c 80))" $rc 0
	dsd=$($DS libndctl.so.6 2>&1)
	expect_eq "ours ndctl_dimm_get_dirty_shutdown = Debian's, every DIMM" \
		"$(echo "$dso" | sort)" "$(echo "$dsd" | sort)"
	got= want=
	for n in /sys/bus/nd/devices/nmem*; do
		got="$got $(echo "$dso" | sed -n "s/^$(basename $n) //p")"
		v=$(dsc $n)
		want="$want $([ "$v" = absent ] && echo -2 || echo $v)"
	done
	expect_eq "ndctl_dimm_get_dirty_shutdown: nfit/dirty_shutdown, -ENOENT without" \
		"$got" "$want"
else
	skip "ndctl_dimm_get_dirty_shutdown" "no $DS or our libndctl"
fi
HAVE_OURS=
if [ -x $OURS ] && $OURS list -H -d $D > /dev/null 2>&1; then
	HAVE_OURS=1
	expect_eq "ours list -H = Debian's (default)" "$(NDCTL=$OURS health)" "$(health)"
	for n in /sys/bus/nd/devices/nmem*; do
		n=$(basename $n)
		expect_eq "ours list -H -d $n = Debian's" "$($OURS list -H -d $n 2>&1)" \
			"$(ndctl list -H -d $n 2>&1)"
	done
else
	skip "ours list -H" "our ndctl has no list -H"
fi

step() {	# KEY inject-smart options...
	local k=$1 rc
	shift
	ndctl inject-smart "$@" $D > /tmp/ns.out 2>&1
	rc=$?
	rec "$k.rc" $rc
	rec "$k" "$(health)"
}
# KEY|inject-smart options: thresholds, each injection, each un-injection
STEPS='thresh.set|-M 30 --spares-threshold=10 -C 40 --media-temperature-alarm=on
inject.mtemp|-m 52
inject.spares|-s 8
inject.fatal|--fatal
inject.unsafe|--unsafe-shutdown
uninject.mtemp|--media-temperature-uninject
uninject.spares|--spares-uninject
uninject.fatal|--fatal-uninject
uninject.unsafe|--unsafe-shutdown-uninject
thresh.restore|-M 40 --spares-threshold=5 -C 30'
steps() {	# FUNCTION: FUNCTION KEY OPTIONS... for each step
	local k a
	while IFS='|' read -r k a; do
		# shellcheck disable=SC2086
		$1 $k $a
	done <<-EOS
	$STEPS
	EOS
}
steps step
expect_eq "un-injected: health as loaded (but the shutdown count)" \
	"$(health | sed 's/"shutdown_count":[0-9]*//')" \
	"$(sed -n 's/^health.default = //p' $OUTF | sed 's/"shutdown_count":[0-9]*//')"
c0=$(sed -n 's/^health.default = .*"shutdown_count":\([0-9]*\).*/\1/p' $OUTF)
c1=$(health | sed -n 's/.*"shutdown_count":\([0-9]*\).*/\1/p')
expect_eq "an injected unsafe shutdown counts" "$c1" "$((c0 + 1))"
rec dirty.after-unsafe "$(dsc $ND)"
expect_eq "nfit/dirty_shutdown stays the count read at registration ($c0)" \
	"$(dsc $ND)" "$c0"

# the same steps by our ndctl: the same health after each (the shutdown
# count one higher: Debian's pass injected one unsafe shutdown already)
nocount() { sed 's/"shutdown_count":[0-9]*//'; }
ostep() {	# KEY inject-smart options...
	local k=$1 rc want
	shift
	$OURS inject-smart "$@" $D > /tmp/ns.out 2>&1
	rc=$?
	want=$(sed -n "s/^$k = //p" $OUTF | nocount)
	expect_eq "ours inject-smart $*: rc" $rc "$(sed -n "s/^$k.rc = //p" $OUTF)"
	expect_eq "ours inject-smart $*: health as Debian's" "$(health | nocount)" "$want"
}
if [ -n "$HAVE_OURS" ]; then
	steps ostep
	# Debian's again, so that the record ends as on a mock without ours
	ndctl inject-smart -m 23 $D > /dev/null 2>&1
	ndctl inject-smart --media-temperature-uninject $D > /dev/null 2>&1
fi
rec health.base "$(health)"

# --- bad input ------------------------------------------------------------------
bad() {	# KEY inject-smart options...
	local k=$1 rc
	shift
	ndctl inject-smart "$@" > /tmp/ns.out 2>&1
	rc=$?
	rec "bad.$k.rc" $rc
	[ $rc != 0 ] && ok "inject-smart $*: refused ($rc)" || nok "inject-smart $*: accepted"
	if [ -n "$HAVE_OURS" ]; then
		$OURS inject-smart "$@" > /tmp/ns.out 2>&1
		expect_eq "ours inject-smart $*: exit status as Debian's" $? $rc
	fi
}
bad mtemp-huge -m 1e999 $D
bad mtemp-threshold-huge -M -1e999 $D
bad spares-threshold-big -S 4294967296 $D
bad inject-and-uninject -m 40 --media-temperature-uninject $D
bad no-operation $D
bad no-dimm -m 40 nmem999
# the payloads as the firmware checks them (nd-label-ioctl call: input
# bytes 0x30 + i): SMART with too little room, inject of the wrong size,
# latch shutdown status with enable 0x30 (firmware status 3, invalid input)
rec call.smart "$(nd-label-ioctl call /dev/$D 0 1 0 132)"
rec call.smart-short "$(nd-label-ioctl call /dev/$D 0 1 0 16)"
rec call.inject-short "$(nd-label-ioctl call /dev/$D 0 18 8 4)"
rec call.threshold-short "$(nd-label-ioctl call /dev/$D 0 2 0 8)"
rec call.lss-bad "$(nd-label-ioctl call /dev/$D 0 10 1 4)"
for k in smart-short inject-short threshold-short; do
	case $(sed -n "s/^call.$k = //p" $OUTF) in
	"rc=-22 "*) ok "Intel call $k: EINVAL" ;;
	*) nok "Intel call $k: $(sed -n "s/^call.$k = //p" $OUTF)" ;;
	esac
done
rec bad.unchanged "$(health)"
expect_eq "bad input left the health as it was" "$(health)" \
	"$(sed -n 's/^health.base = //p' $OUTF)"
# a DIMM without the health functions (ours: nfit_test.1's)
X=
for n in /sys/bus/nd/devices/nmem*; do
	m=$(cat $n/nfit/dsm_mask 2> /dev/null || echo 0)
	[ $((m >> 18 & 1)) = 0 ] && { X=$(basename $n); break; }
done
if [ -n "$X" ]; then
	ndctl inject-smart -m 40 $X > /tmp/ns.out 2>&1
	rc=$?
	if [ -n "$HAVE_OURS" ]; then
		$OURS inject-smart -m 40 $X > /tmp/ns.out 2>&1
		expect_eq "ours inject-smart on $X: exit status as Debian's" $? $rc
	fi
	[ $rc != 0 ] && ok "inject-smart on $X (no health functions): refused ($rc)" ||
		nok "inject-smart on $X (no health functions): accepted"
	rec dirty.nosmart "$(dsc /sys/bus/nd/devices/$X)"
	[ "$NVT_SET" != upstream ] && expect_eq "$X (no SMART function): no nfit/dirty_shutdown" \
		"$(dsc /sys/bus/nd/devices/$X)" absent
	xh=$(ndctl list -H -d $X | tr -d ' \t\n')
	case $xh in *'"health"'*) nok "$X: list -H shows health: $xh" ;; *) ok "$X: list -H has no health" ;; esac
fi

# --- fail_cmd: SMART (Intel function 1) fails --------------------------------
if [ -n "$TD" ]; then
	for code in 0 -6 -95; do
		echo 0x2 > $TD/fail_cmd && echo $code > $TD/fail_cmd_code
		rec "fail_cmd.$code" "$(ndctl list -H -d $D 2>&1 | tr -d ' \t\n' | sed 's/"dev":"[^"]*",//;s/"id":"[^"]*",//;s/"handle":[^,]*,//;s/"phys_id":[^,]*,//;s/"security":"[^"]*",//')"
		if [ -x $OURS ] && $OURS list -H -d $D > /dev/null 2>&1; then
			expect_eq "ours list -H = Debian's (fail_cmd_code $code)" \
				"$(NDCTL=$OURS health)" "$(health)"
		fi
	done
	echo 0 > $TD/fail_cmd; echo 0 > $TD/fail_cmd_code
	# ours refuses what is not 0 or a negative errno (6.1's mock takes any int)
	for v in abc 5 -99999; do
		[ "$NVT_SET" = upstream ] && [ $v != abc ] && continue
		echo $v > $TD/fail_cmd_code 2> /dev/null && nok "fail_cmd_code $v accepted" ||
			ok "fail_cmd_code $v refused"
		expect_eq "fail_cmd_code unchanged after '$v'" "$(cat $TD/fail_cmd_code)" 0
	done
	rec fail_cmd.after "$(health)"
	expect_eq "knobs cleared: SMART answers again" "$(health)" \
		"$(sed -n 's/^health.base = //p' $OUTF)"
fi

# --- monitor --daemon and -c, ours (called below, on our mock) ----------------
# daemon_pid LOG: the pid of the "[time] [pid] ndctl monitor daemon started"
# line of LOG, waited for up to 5 s
daemon_pid() {
	local i p
	for i in $(seq 1 50); do
		p=$(sed -n 's/^\[[0-9. ]*\] \[\([0-9]*\)\] ndctl monitor daemon started$/\1/p' "$1" | head -n 1)
		[ -n "$p" ] && { echo $p; return 0; }
		usleep 100000
	done
	return 1
}
# wait_json LOG...: until every LOG has a JSON line (5 s at most)
wait_json() {
	local i f n
	for i in $(seq 1 50); do
		n=0
		for f in "$@"; do grep -q '^{' "$f" && n=$((n + 1)); done
		[ $n = $# ] && return 0
		usleep 100000
	done
	return 1
}
monitor_daemon() {
	local dlog=/tmp/ns.daemon elog=/tmp/ns.daemon76 rc dpid epid i
	: > $dlog; : > $elog
	$OURS monitor --daemon -d $D -D dimm-unclean-shutdown -l $dlog > /tmp/ns.d.out 2>&1
	rc=$?
	expect_eq "ours monitor --daemon returns at once, exit 0 ($(head -c 200 /tmp/ns.d.out))" $rc 0
	dpid=$(daemon_pid $dlog)
	if [ -z "$dpid" ] || [ ! -d /proc/$dpid ]; then
		nok "ours monitor --daemon: no 'daemon started' line (log: $(head -c 300 $dlog))"
		return
	fi
	ok "ours monitor --daemon: pid $dpid, detached ($(cut -d' ' -f6 /proc/$dpid/stat) = its session)"
	# Debian's daemon beside it, with the same filter, for the line
	ndctl monitor --daemon -d $D -D dimm-unclean-shutdown -l $elog > /dev/null 2>&1
	epid=$(daemon_pid $elog)
	expect_eq "ours daemon: nothing logged before the event" "$(grep -c '^{' $dlog)" 0
	ndctl inject-smart --unsafe-shutdown $D > /dev/null 2>&1
	wait_json $dlog $elog
	expect_eq "ours daemon logged the unclean shutdown within 5 s" \
		"$(grep -c '^{' $dlog)" 1
	expect_eq "ours daemon's line = Debian's daemon's (but timestamp, pid, count)" \
		"$(norm $dlog)" "$(norm $elog)"
	expect_eq "ours daemon's line has its pid" \
		"$(grep '^{' $dlog | head -n 1 | sed -n 's/.*"pid":\([0-9]*\).*/\1/p')" "$dpid"
	kill $dpid $epid 2> /dev/null
	for i in $(seq 1 20); do [ -d /proc/$dpid ] || break; usleep 100000; done
	[ -d /proc/$dpid ] && nok "ours daemon $dpid still runs after SIGTERM" ||
		ok "ours daemon ended on SIGTERM"
	ndctl inject-smart --unsafe-shutdown-uninject $D > /dev/null 2>&1
	# standard output is gone once detached
	$OURS monitor --daemon -d $D -l standard > /tmp/ns.d.out 2>&1
	rc=$?
	[ $rc != 0 ] && grep -q "daemon" /tmp/ns.d.out && ok "--daemon -l standard refused ($rc)" ||
		nok "--daemon -l standard: $rc $(cat /tmp/ns.d.out)"
}
monitor_config() {
	local cf=/tmp/ns.conf clog=/tmp/ns.clog n D2= mpid rc
	# a second DIMM of the bus with the health functions
	for n in /sys/bus/nd/devices/nmem*; do
		[ "$(cat $n/../provider 2> /dev/null)" = nfit_test.0 ] || continue
		[ "$(basename $n)" != $D ] || continue
		m=$(cat $n/nfit/dsm_mask 2> /dev/null) || continue
		[ $((m >> 18 & 1)) = 1 ] && { D2=$(basename $n); break; }
	done
	# both in an unclean shutdown: a monitor logs each DIMM it watches at start
	ndctl inject-smart --unsafe-shutdown $D > /dev/null 2>&1
	[ -n "$D2" ] && ndctl inject-smart --unsafe-shutdown $D2 > /dev/null 2>&1
	: > $clog
	printf '[monitor]\n# the DIMM and the log come from here\ndimm = %s\ndimm-event = dimm-unclean-shutdown\nlog = %s\n' \
		$D $clog > $cf
	$OURS monitor -c $cf > /tmp/ns.c.out 2>&1 &
	mpid=$!
	wait_json $clog
	usleep 500000
	kill $mpid 2> /dev/null; wait $mpid 2> /dev/null
	expect_eq "monitor -c (dimm = $D, log = file): one line, $D's (other: ${D2:-none})" \
		"$(grep '^{' $clog | sed -n 's/.*"dev":"\(nmem[0-9]*\)".*/\1/p' | tr '\n' ' ')" "$D "
	ndctl inject-smart --unsafe-shutdown-uninject $D > /dev/null 2>&1
	[ -n "$D2" ] && ndctl inject-smart --unsafe-shutdown-uninject $D2 > /dev/null 2>&1
	# bad configurations: an error naming the problem, exit status not 0
	printf '[monitor]\ndimm = %s\ndimms = %s\n' $D $D > $cf
	$OURS monitor -c $cf > /tmp/ns.c.out 2>&1
	rc=$?
	[ $rc != 0 ] && grep -q "unknown key 'dimms'" /tmp/ns.c.out &&
		ok "monitor -c: unknown key refused ($rc): $(cat /tmp/ns.c.out)" ||
		nok "monitor -c, unknown key: $rc $(cat /tmp/ns.c.out)"
	printf '[monitor]\nnot a key value line\n' > $cf
	$OURS monitor -c $cf > /tmp/ns.c.out 2>&1
	rc=$?
	[ $rc != 0 ] && grep -q "$cf:2" /tmp/ns.c.out && ok "monitor -c: a line without '=' refused ($rc)" ||
		nok "monitor -c, no '=': $rc $(cat /tmp/ns.c.out)"
	for cf in /tmp/ns-no-such.conf /tmp; do
		$OURS monitor --daemon -c $cf -l /tmp/ns.never > /tmp/ns.c.out 2>&1
		rc=$?
		[ $rc != 0 ] && grep -q "$cf: cannot be" /tmp/ns.c.out && [ ! -s /tmp/ns.never ] &&
			ok "monitor --daemon -c $cf: refused ($rc) before detaching: $(cat /tmp/ns.c.out)" ||
			nok "monitor -c $cf: $rc $(cat /tmp/ns.c.out)"
	done
}

# --- monitor to syslog: ours and 76.1's, each alone --------------------------
# The guest runs no syslogd: nvt-syslog listens on /dev/log and writes the
# datagrams as syslog(3) sent them.  Each monitor (--daemon: syslog is its
# default; in the foreground: -l syslog) watches $D, an unsafe shutdown is
# injected, its lines are taken, it is stopped.  Compared: "<PRI>" (facility
# and priority), the tag and the message; dropped: the time stamp, one
# trailing newline, the JSON's timestamp, pid and shutdown count.
SL=/tmp/ns.syslog
sl_norm() {	# FROM: the lines after line FROM, normalized
	tail -n +$(($1 + 1)) $SL |
		sed -E 's/^(<[0-9]+>)[A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} /\1/;s/\\n$//' |
		sed 's/"timestamp":"[^"]*",//;s/"pid":[0-9]*,//;s/"shutdown_count":[0-9]*//'
}
sl_pids() {	# NDCTL: its monitors watching $D (slow under TCG: a fallback)
	local p
	for p in /proc/[0-9]*; do
		tr '\0' ' ' < $p/cmdline 2> /dev/null | grep -q "^$1 monitor .*-d $D " &&
			echo ${p#/proc/}
	done
}
sl_run() {	# NDCTL KEY monitor options...: its lines in /tmp/ns.sl.KEY
	local nd=$1 k=$2 n0 i p=
	shift 2
	n0=$(wc -l < $SL)
	if [ "$1" = --daemon ]; then
		$nd monitor "$@" -d $D -D dimm-unclean-shutdown > /tmp/ns.sl.out 2>&1
		for i in $(seq 1 50); do
			tail -n +$((n0 + 1)) $SL | grep -q "daemon started" && break
			usleep 100000
		done
	else
		$nd monitor "$@" -d $D -D dimm-unclean-shutdown > /tmp/ns.sl.out 2>&1 &
		p=$!
		sleep 1
	fi
	ndctl inject-smart --unsafe-shutdown $D > /dev/null 2>&1
	for i in $(seq 1 50); do
		tail -n +$((n0 + 1)) $SL | grep -q ': {' && break
		usleep 100000
	done
	sl_norm $n0 > /tmp/ns.sl.$k
	# the daemon's pid: its JSON line says it
	[ -n "$p" ] || p=$(tail -n +$((n0 + 1)) $SL | sed -n 's/.*"pid":\([0-9]*\).*/\1/p' | head -n 1)
	[ -n "$p" ] || p=$(sl_pids $nd)
	[ -n "$p" ] && kill $p
	for i in $(seq 1 20); do
		[ -d /proc/$p ] || break
		usleep 100000
	done
	[ -n "$p" ] && [ ! -d /proc/$p ] || nok "$nd monitor $*: '$p' still running after SIGTERM"
	wait $p 2> /dev/null
	usleep 200000
	sl_norm $n0 > /tmp/ns.sl.$k.all
	ndctl inject-smart --unsafe-shutdown-uninject $D > /dev/null 2>&1
}
# --- monitor's messages in the foreground: where 76.1 sends them ------------
# Once the log is chosen 76.1 sends its messages there: -l syslog (errors
# at LOG_ERR, "no dimms to monitor, exiting" at LOG_INFO), -l FILE
# ("[time] [pid] message"), standard (info on stdout, errors on stderr).
# Each client, each log, three cases that end at once: no DIMM matches,
# an unknown event, a DIMM without smart; stdout, stderr, the syslog
# datagrams and the file's lines compared (time stamps and pids dropped),
# and the exit statuses but for the unknown event's (76.1 exits with the
# length of its configuration path, 30: ours EINVAL, 234).
mm_run() {	# NDCTL LOG ARGS...: "rc|stdout|stderr|syslog|file" on one line
	local nd=$1 lg=$2 n0 rc
	shift 2
	n0=$(wc -l < $SL)
	: > /tmp/ns.mm.log
	timeout 10 $nd monitor -l $lg "$@" > /tmp/ns.mm.out 2> /tmp/ns.mm.err
	rc=$?
	usleep 100000
	echo "$rc|$(tr '\n' '~' < /tmp/ns.mm.out)|$(tr '\n' '~' < /tmp/ns.mm.err)|$(sl_norm $n0 | tr '\n' '~')|$(sed -E 's/^\[ *[0-9.]+\] \[[0-9]+\] //' /tmp/ns.mm.log | tr '\n' '~')"
}
monitor_messages() {
	local d ns= lg a deb ours k
	for d in /sys/bus/nd/devices/nmem*; do
		grep -qw smart $d/commands || { ns=${d##*/}; break; }
	done
	for lg in syslog /tmp/ns.mm.log standard; do
		for a in "-d nmem999" "-D dimm-bogus -d $D" ${ns:+"-d $ns"}; do
			deb=$(mm_run ndctl $lg $a)
			ours=$(mm_run $OURS $lg $a)
			k="monitor -l ${lg##*/} $a"
			case $a in
			*bogus*)
				expect_eq "$k: our exit status EINVAL (76.1: ${deb%%|*})" "${ours%%|*}" 234
				deb=${deb#*|} ours=${ours#*|} ;;
			esac
			expect_eq "$k: our messages where 76.1's go (rc|stdout|stderr|syslog|file)" \
				"$ours" "$deb"
		done
	done
	case $(mm_run ndctl syslog -d nmem999) in
	*'|<14>ndctl: no dimms to monitor, exiting~|'*) ok "76.1's -l syslog: 'no dimms' at LOG_INFO in syslog" ;;
	*) nok "76.1's -l syslog: no 'no dimms' line in syslog" ;;
	esac
}
monitor_syslog() {
	local lpid m
	if [ ! -x /usr/local/bin/nvt-syslog ] || [ -e /dev/log ]; then
		skip "monitor to syslog" "no nvt-syslog, or /dev/log exists"
		return
	fi
	: > $SL
	nvt-syslog /dev/log $SL &
	lpid=$!
	for i in $(seq 1 20); do [ -S /dev/log ] && break; usleep 50000; done
	for m in daemon fg; do
		if [ $m = daemon ]; then
			sl_run ndctl deb.$m --daemon
			sl_run $OURS ours.$m --daemon
		else
			sl_run ndctl deb.$m -l syslog
			sl_run $OURS ours.$m -l syslog
		fi
		grep -q '"dimm-unclean-shutdown":true' /tmp/ns.sl.deb.$m &&
			ok "76.1's monitor ($m) logged the event to syslog: $(cut -c1-60 /tmp/ns.sl.deb.$m | tr '\n' '|')" ||
			nok "76.1's monitor ($m): no event in syslog: $(head -c 300 /tmp/ns.sl.deb.$m)"
		expect_eq "ours monitor ($m) to syslog: the lines of 76.1's" \
			"$(cat /tmp/ns.sl.ours.$m)" "$(cat /tmp/ns.sl.deb.$m)"
	done
	# ours also says why the daemon ended (76.1 dies on SIGTERM silently)
	expect_eq "ours daemon's last syslog line" "$(tail -n 1 /tmp/ns.sl.ours.daemon.all)" \
		"<14>ndctl: ndctl monitor daemon stopped (signal 15)"
	monitor_messages
	kill $lpid; wait $lpid
	[ -e /dev/log ] && nok "/dev/log left behind" || ok "syslog listener stopped"
}

# --- monitor: an injected unsafe shutdown wakes it -----------------------------
log=/tmp/ns.monitor
: > $log
ndctl monitor -d $D -D dimm-unclean-shutdown -l $log > /tmp/ns.mon.out 2>&1 &
mpid=$!
sleep 1
rec monitor.before "$(wc -l < $log)"
t0=$(date +%s)
ndctl inject-smart --unsafe-shutdown $D > /dev/null 2>&1
woke=no
for i in $(seq 1 50); do
	[ -s $log ] && { woke=yes; break; }
	usleep 100000
done
t1=$(date +%s)
kill $mpid 2> /dev/null; wait $mpid 2> /dev/null
ndctl inject-smart --unsafe-shutdown-uninject $D > /dev/null 2>&1
rec monitor.woke $woke
ev=$(tr -d ' \t\n' < $log | sed -n 's/.*"event":{\([^}]*\)}.*/\1/p')
rec monitor.event "$ev"
if [ "$NVT_SET" != upstream ]; then
	expect_eq "monitor logged the unclean shutdown within 5 s ($((t1 - t0)) s)" $woke yes
	case $ev in *'"dimm-unclean-shutdown":true'*) ok "monitor event: $ev" ;; *) nok "monitor event: '$ev' (log: $(head -c 300 $log))" ;; esac
	if [ -n "$HAVE_OURS" ]; then
		# ours, the same way: the same line but for timestamp, pid, count
		log2=/tmp/ns.monitor2
		: > $log2
		$OURS monitor -d $D -D dimm-unclean-shutdown -l $log2 > /tmp/ns.mon2.out 2>&1 &
		mpid=$!
		sleep 1
		expect_eq "ours monitor: nothing logged before the event" "$(wc -l < $log2)" 0
		ndctl inject-smart --unsafe-shutdown $D > /dev/null 2>&1
		owoke=no
		for i in $(seq 1 50); do
			[ -s $log2 ] && { owoke=yes; break; }
			usleep 100000
		done
		kill $mpid 2> /dev/null; wait $mpid 2> /dev/null
		ndctl inject-smart --unsafe-shutdown-uninject $D > /dev/null 2>&1
		expect_eq "ours monitor logged the unclean shutdown within 5 s" $owoke yes
		norm() { grep '^{' "$1" | head -n 1 | sed 's/"timestamp":"[^"]*",//;s/"pid":[0-9]*,//;s/"shutdown_count":[0-9]*//'; }
		expect_eq "ours monitor's line = Debian's (but timestamp, pid, count)" \
			"$(norm $log2)" "$(norm $log)"
		monitor_daemon
		monitor_syslog
		monitor_config
	fi
	n=$(cat /sys/kernel/debug/nfit_test/$D/health_notified 2> /dev/null)
	[ -n "$n" ] && [ "$n" -gt 0 ] && ok "the mock raised $n health notifications" ||
		nok "health_notified: '$n'"
fi

# --- a DIMM dirty at registration (ours: nfit_test's smart_dirty) ------------
# 6.1 reads SMART when a DIMM registers; a shutdown state marked valid and
# dirty (the last shutdown was unsafe) adds flush_fail to nfit/flags, which
# ndctl 76.1 lists as flag_failed_flush.  6.1's mock cannot start dirty.
# dimm_of HANDLE: the nmem of nfit_test.0 with that handle
dimm_of() {
	local n
	for n in /sys/bus/nd/devices/nmem*; do
		[ "$(cat $n/../provider 2> /dev/null)" = nfit_test.0 ] || continue
		[ $(($(cat $n/nfit/handle))) = $(($1)) ] && { basename $n; return 0; }
	done
	return 1
}
dirty_at_load() {
	local c0 dd o f
	c0=$(sed -n 's/^health.default = .*"shutdown_count":\([0-9]*\).*/\1/p' $OUTF)
	if ! reload smart_dirty=$h; then
		nok "modprobe nfit_test smart_dirty=$h: $(cat /tmp/ns.unload)"
		return
	fi
	dd=$(dimm_of $h)
	o=$(for n in /sys/bus/nd/devices/nmem*; do
		[ "$(cat $n/../provider 2> /dev/null)" = nfit_test.0 ] &&
			[ "$(basename $n)" != "$dd" ] && basename $n
	done | head -n 1)
	expect_eq "smart_dirty=$h: $dd's nfit/flags (6.1: flush_fail)" \
		"$(cat /sys/bus/nd/devices/$dd/nfit/flags)" "flush_fail "
	[ -n "$o" ] && expect_eq "another DIMM ($o): nfit/flags clean" \
		"$(cat /sys/bus/nd/devices/$o/nfit/flags)" ""
	expect_eq "$dd: dirty_shutdown = the load-time count + 1" \
		"$(dsc /sys/bus/nd/devices/$dd)" $((c0 + 1))
	D=$dd
	f=$(health | sed -n 's/.*"shutdown_state":"\([a-z]*\)".*/\1/p')
	expect_eq "$dd: list -H shutdown_state" "$f" dirty
	f=$(ndctl list -D -d $dd | tr -d ' \t\n' | grep -o '"flag_failed_flush":true')
	expect_eq "$dd: Debian's list -D: flag_failed_flush" "$f" '"flag_failed_flush":true'
	if [ -n "$HAVE_OURS" ]; then
		expect_eq "$dd: ours list -D = Debian's" "$($OURS list -D -d $dd 2>&1)" \
			"$(ndctl list -D -d $dd 2>&1)"
	fi
	dmesg | grep -q "DIMM $h: its last shutdown was unsafe" &&
		ok "$dd: the unsafe last shutdown logged" || nok "$dd: nothing logged"
	# an un-injected shutdown state changes the SMART, not the flag (6.1
	# reads it once)
	ndctl inject-smart --unsafe-shutdown-uninject $dd > /dev/null 2>&1
	expect_eq "$dd: un-injected: nfit/flags still as read at registration" \
		"$(cat /sys/bus/nd/devices/$dd/nfit/flags)" "flush_fail "
	# bad input: not a number, more handles than it takes; a handle that
	# names no DIMM leaves every DIMM clean
	for v in banana 1,2,3,4,5,6,7,8,9; do
		rmmod nfit_test 2> /dev/null
		modprobe nfit_test smart_dirty=$v > /tmp/ns.bad 2>&1 &&
			nok "smart_dirty=$v accepted" || ok "smart_dirty=$v refused: $(head -c 100 /tmp/ns.bad)"
	done
	if reload smart_dirty=0xdead; then
		f=$(cat /sys/bus/nd/devices/nmem*/nfit/flags | grep -c flush_fail)
		# nfit_test.1's DIMM has flush_fail in its memory map (v4.2's)
		expect_eq "smart_dirty=0xdead (no such DIMM): only nfit_test.1's flush_fail" "$f" 1
	else
		nok "modprobe nfit_test smart_dirty=0xdead: $(cat /tmp/ns.unload)"
	fi
}

flush_out
if [ "$NVT_SET" != upstream ]; then
	dirty_at_load
	reload && ok "nfit_test reloaded (load-time health)" || nok "reload: $(cat /tmp/ns.unload)"
fi
