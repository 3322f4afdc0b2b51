# nt-security: DIMM passphrase security (issue 29, docs/security.md) with
# Debian's ndctl 76.1 and keyctl, on an nfit_test.0 DIMM: setup, update
# and remove the passphrase (the master one: 6.1 cannot), bad sysfs
# writes (unknown syntax, a key of
# the wrong type or size, no key, the wrong passphrase: errno and state
# unchanged), unlock at bind of a DIMM locked as by a reboot (the right
# key in the keyring: unlocked; a wrong one: still locked, its regions
# not enabled, nothing written), crypto erase (the media changed),
# erase and overwrite refused while a region is enabled (EBUSY),
# overwrite of the enabled DIMM + wait-overwrite (the media zeroed, no
# region enabled meanwhile), and freeze (every
# command refused) undone by a reboot of the DIMM.  It runs unchanged on
# upstream's 6.1 mock (module set `upstream`): records go to
# /out/nt-security.txt ("KEY = VALUE"), compared by
# compare-security-oracle.py; the checks that need our mock's knobs
# (media through debugfs) are ours only.  The DIMM is left as found:
# security disabled, its regions enabled.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"

NDCTL=/usr/bin/ndctl
OURS=/opt/ours/bin/ndctl
OUTF=/tmp/nt-security.txt
: > $OUTF
# records: Debian's ndctl's run only (the oracle compares those)
rec() { [ "$NDCTL" != /usr/bin/ndctl ] || echo "$1 = $2" >> $OUTF; }
flush_out() { [ -d "$NVT_OUT" ] && cp $OUTF "$NVT_OUT/nt-security.txt"; }
MASTER=nvdimm-master

command -v keyctl > /dev/null || { skip "security" "no keyctl in the image"; exit 0; }
# 6.1 builds passphrase security only with the kernel's keys
# (CONFIG_NVDIMM_KEYS: Debian's flavours; the debug tier's kernel has none)
[ -e /proc/keys ] || { skip "security" "the kernel has no keys (CONFIG_KEYS)"; exit 0; }
nt_debugfs

# --- the DIMM: the first nfit_test.0 DIMM with a security attribute -------
nt_security_dimm || exit 0
MEDIA=$NT_DBG/$DEV/media
[ -f $MEDIA ] || MEDIA=
diag "DIMM $DEV id $ID handle $HANDLE knobs ${TD##*/} media ${MEDIA:-none}"

state() { cat $S/security 2> /dev/null || echo none; }
frozen() { cat $S/frozen 2> /dev/null || echo none; }
# sec_write CMD...: the errno name of writing CMD to "security" (0: ok)
sec_write() {
	local e
	e=$( (echo "$*" > $S/security) 2>&1 )
	case $e in
	"") echo 0 ;;
	*"Invalid argument"*) echo EINVAL ;;
	*"Required key not available"*) echo ENOKEY ;;
	*"Input/output error"*) echo EIO ;;
	*"resource busy"*) echo EBUSY ;;
	*"No such device or address"*) echo ENXIO ;;
	*"not supported"*) echo EOPNOTSUPP ;;
	*"Numerical result out of range"*) echo ERANGE ;;
	*) echo "other($e)" ;;
	esac
}
# step NAME CMD...: run CMD, record its exit code and the state after it
step() {
	local name=$1 rc
	shift
	"$@" > /tmp/sec.out 2>&1
	rc=$?
	rec "$name.rc" $rc
	rec "$name.state" "$(state)"
	rec "$name.frozen" "$(frozen)"
	diag "$name: rc $rc, $(state) frozen $(frozen): $(tr '\n' ' ' < /tmp/sec.out | cut -c1-160)"
	return $rc
}
# ours_eq DESC GOT WANT REASON: expect_eq, but on upstream's mock (the
# oracle boot) a skip: there 6.1 or its mock differs, for REASON (named in
# compare-security-oracle.py too)
ours_eq() {
	if [ "$NVT_SET" = upstream ]; then
		skip "$1" "$4"
	else
		expect_eq "$1" "$2" "$3"
	fi
}
keyid() { keyctl search @u encrypted "nvdimm:$ID" 2> /dev/null; }
media_sum() { [ -n "$MEDIA" ] && md5sum < $MEDIA | cut -d' ' -f1; }
# key_from_blob: "nvdimm:<id>" again from the blob setup-passphrase wrote
key_from_blob() {
	keyctl purge -s encrypted "nvdimm:$ID" > /dev/null 2>&1
	keyctl add encrypted "nvdimm:$ID" \
		"load $(cat /etc/ndctl/keys/nvdimm_"$ID"_*.blob)" @u > /dev/null
}
# regions_enabled: how many enabled regions map $DEV
regions_enabled() {
	local r m n=0
	for r in $B/region*; do
		for m in $r/mapping*; do
			case $(cat $m 2> /dev/null) in "$DEV,"*)
				[ -n "$(readlink $r/driver 2> /dev/null)" ] && n=$((n + 1)) ;;
			esac
		done
	done
	echo $n
}
regions_off() { $NDCTL disable-region -b "$BUSNAME" all > /dev/null 2>&1; }
regions_on() { $NDCTL enable-region -b "$BUSNAME" all > /dev/null 2>&1; }

# --- the master passphrase (once: the mocks cannot set it back to zeros) -----
# Debian's ndctl sets it (from the mocks' zeros), changes it and erases the
# DIMM with it; then ours changes it again and erases with it.  76.1 keeps
# the master key as "nvdimm-master:<id>" with its blob beside the user's.
mkey() { keyctl search @u encrypted "nvdimm-master:$ID" 2> /dev/null; }
master() {
	local MK1 MK2 M0
	keyctl purge -s encrypted "nvdimm-master:$ID" > /dev/null 2>&1
	rm -f /etc/ndctl/keys/nvdimm-master_"$ID"_*.blob
	regions_off
	step m-setup $NDCTL setup-passphrase -m $DEV -k user:$MASTER
	MK1=$(mkey)
	check "setup-passphrase -m: key nvdimm-master:$ID in @u, user security still disabled" \
		test -n "$MK1" -a "$(state)" = disabled
	step m-update $NDCTL update-passphrase -m $DEV -k user:$MASTER
	MK2=$(mkey)
	check "update-passphrase -m: a new master key" test -n "$MK2" -a "$MK2" != "$MK1"
	# bad input: update replaced the old key (ENOKEY); a wrong master
	# passphrase (the bad-input section's key) is refused, nothing changed
	got=$(sec_write master_erase $MK1)
	rec "m-bad.erase-old-key" "$got"
	expect_eq "master_erase with the replaced key: ENOKEY, state unchanged" \
		"$got $(state)" "ENOKEY disabled"
	M0=$(media_sum)
	got=$(sec_write master_erase $WRONGK)
	rec "m-bad.erase-wrong-master" "$got"
	expect_eq "master_erase with a wrong master passphrase: EINVAL, state unchanged" \
		"$got $(state)" "EINVAL disabled"
	[ -n "$MEDIA" ] && check "a refused master erase leaves the media" \
		test "$(media_sum)" = "$M0"
	got=$(sec_write master_update $WRONGK $MK2)
	rec "m-bad.update-wrong-master" "$got"
	expect_eq "master_update from a wrong master passphrase: EINVAL" "$got" EINVAL
	check "the master key still works: update-passphrase -m" \
		$NDCTL update-passphrase -m $DEV -k user:$MASTER
	MK2=$(mkey)
	# remove-passphrase -m: 76.1 writes "disable_master", which 6.1 does
	# not have (a later kernel's): EINVAL, the passphrase and its key kept
	# (the master erase below still works with it)
	got=$(sec_write disable_master $MK2)
	rec "m-bad.disable-master" "$got"
	expect_eq "disable_master (not in 6.1): EINVAL, state unchanged" \
		"$got $(state)" "EINVAL disabled"
	step m-remove $NDCTL remove-passphrase -m $DEV
	MRC=$?
	check "remove-passphrase -m fails on a 6.1 kernel (exit $MRC)" [ $MRC != 0 ]
	expect_eq "remove-passphrase -m: the master key kept" "$(mkey)" "$MK2"
	check "remove-passphrase -m: its blob kept" ls /etc/ndctl/keys/nvdimm-master_"$ID"_*.blob
	if [ -x $OURS ]; then
		$OURS remove-passphrase -m $DEV > /tmp/sec.out 2>&1
		expect_eq "ours: remove-passphrase -m: Debian's exit status" "$?" $MRC
		check "ours: ... says why ($(head -n 1 /tmp/sec.out))" \
			grep -q "^Failed remove master passphrase for $DEV: Invalid argument (the kernel refused 'disable_master'" /tmp/sec.out
		check "ours: ... and its summary" grep -q "^passphrase removed for 0 nmem.$" /tmp/sec.out
		expect_eq "ours: remove-passphrase -m: state, master key kept" \
			"$(state) $(mkey)" "disabled $MK2"
		check "ours: ... its blob kept" ls /etc/ndctl/keys/nvdimm-master_"$ID"_*.blob
	fi
	# a user passphrase, then a crypto erase by the master one
	step m-user-setup $NDCTL setup-passphrase $DEV -k user:$MASTER
	M0=$(media_sum)
	step m-erase $NDCTL sanitize-dimm --crypto-erase --master-passphrase $DEV
	expect_eq "master erase: user security disabled" "$(state)" disabled
	[ -n "$MEDIA" ] && check "master erase: the media reads back changed" \
		test "$(media_sum)" != "$M0"
	keyctl purge -s encrypted "nvdimm:$ID" > /dev/null 2>&1
	rm -f /etc/ndctl/keys/nvdimm_"$ID"_*.blob
	if [ -x $OURS ] && [ "$NVT_SET" != upstream ]; then
		NDCTL=$OURS
		step m-update-ours $OURS update-passphrase -m $DEV -k user:$MASTER
		check "ours: update-passphrase -m: a new master key" \
			test -n "$(mkey)" -a "$(mkey)" != "$MK2"
		M0=$(media_sum)
		step m-erase-ours $OURS sanitize-dimm --crypto-erase --master-passphrase $DEV
		expect_eq "ours: master erase: user security disabled" "$(state)" disabled
		[ -n "$MEDIA" ] && check "ours: master erase: the media reads back changed" \
			test "$(media_sum)" != "$M0"
		NDCTL=/usr/bin/ndctl
	fi
	keyctl purge -s encrypted "nvdimm-master:$ID" > /dev/null 2>&1
	rm -f /etc/ndctl/keys/nvdimm-master_"$ID"_*.blob
}

suite() {
# the kek of the DIMM keys (76.1: -k user:NAME), 32 random bytes
keyctl purge -s encrypted "nvdimm:$ID" > /dev/null 2>&1
keyctl purge -s user $MASTER > /dev/null 2>&1
rm -f /etc/ndctl/keys/nvdimm_"$ID"_*.blob
head -c 32 /dev/urandom | keyctl padd user $MASTER @u > /dev/null ||
	{ nok "cannot add the master key"; return; }
mkdir -p /etc/ndctl/keys

rec start.state "$(state)"
rec start.frozen "$(frozen)"
expect_eq "$DEV starts with security disabled" "$(state) $(frozen)" "disabled 0"
$NDCTL list -D -d $DEV > /tmp/sec.json 2>&1
expect_eq "ndctl list shows the security state" "$(jget security /tmp/sec.json)" disabled
# 76.1 changes passphrases only with the DIMM's regions disabled
regions_off

# --- setup / update ----------------------------------------------------------
step setup $NDCTL setup-passphrase $DEV -k user:$MASTER
expect_eq "setup-passphrase: unlocked" "$(state)" unlocked
K1=$(keyid)
check "setup-passphrase: key nvdimm:$ID in @u" test -n "$K1"
check "setup-passphrase: key blob written" ls /etc/ndctl/keys/nvdimm_"$ID"_*.blob
step update $NDCTL update-passphrase $DEV -k user:$MASTER
K2=$(keyid)
expect_eq "update-passphrase: unlocked" "$(state)" unlocked
check "update-passphrase: a new key" test -n "$K2" -a "$K2" != "$K1"

# --- bad input: errno, state unchanged --------------------------------------
USERK=$(keyctl add user nvdimm-test-user 0123456789abcdef0123456789abcdef @u)
BIGK=$(keyctl add encrypted nvdimm-test-big "new user:$MASTER 64" @u)
WRONGK=$(keyctl add encrypted nvdimm-test-wrong "new enc32 user:$MASTER 32" @u)
bad() {
	local name=$1 want=$2 got
	shift 2
	got=$(sec_write "$@")
	rec "bad.$name" "$got"
	expect_eq "security '$name': $want, state unchanged" \
		"$got $(state) $(frozen)" "$want unlocked 0"
}
bad unknown-cmd EINVAL bogus $K2
bad missing-arg EINVAL update $K2
# words past a command's arguments are ignored (6.1's parser)
bad extra-arg-ignored 0 update $K2 $K2 junk
bad not-a-number EINVAL disable key
bad empty EINVAL ""
bad user-key-type ENOKEY disable $USERK
bad key-size-64 ENOKEY disable $BIGK
bad no-such-key ENOKEY disable 123456789
bad wrong-passphrase EINVAL disable $WRONGK
bad wrong-old-passphrase EINVAL update $WRONGK $K2
bad zero-old-passphrase EINVAL update 0 $K2
# the mocks start with a master passphrase of zeros (6.1's mock)
bad master-erase-wrong EINVAL master_erase $K2

# --- unlock at bind ----------------------------------------------------------
# lock_dimm: the DIMM restarts, locked (6.1's mock knob, ndctl's tests)
regions_off
step lock-disable-dimm $NDCTL disable-dimm $DEV
echo 1 > $TD/lock_dimm
rec lock.state "$(state)"
expect_eq "lock_dimm: locked" "$(state)" locked
step unlock-right-key $NDCTL enable-dimm $DEV
expect_eq "bind with the right key: unlocked" "$(state)" unlocked
check "regions enable on the unlocked DIMM" regions_on

# a wrong key "nvdimm:<id>" in the keyring: stays locked, nothing written
regions_off
$NDCTL disable-dimm $DEV > /dev/null 2>&1
echo 1 > $TD/lock_dimm
keyctl unlink $K2 @u > /dev/null
keyctl add encrypted "nvdimm:$ID" "new enc32 user:$MASTER 32" @u > /dev/null
M0=$(media_sum)
L0=$(grep -i set_config $NT_DBG/$DEV/stats 2> /dev/null)
step unlock-wrong-key $NDCTL enable-dimm $DEV
expect_eq "bind with a wrong key: still locked" "$(state)" locked
$NDCTL enable-region -b "$BUSNAME" all > /tmp/sec.out 2>&1
rec unlock-wrong-key.enable-region.rc $?
en=$(regions_enabled)
rec unlock-wrong-key.regions-enabled $en
ours_eq "no region on the locked DIMM enabled" $en 0 \
	"6.1 enables the regions of a locked DIMM (issue 29 does not)"
if [ -n "$MEDIA" ]; then
	expect_eq "nothing written to the locked DIMM's media" "$(media_sum)" "$M0"
	expect_eq "no label written to the locked DIMM" \
		"$(grep -i set_config $NT_DBG/$DEV/stats 2> /dev/null)" "$L0"
fi
# the right key back (from the blob: 76.1 loads it), bind again
key_from_blob
regions_off
$NDCTL disable-dimm $DEV > /dev/null 2>&1
step relock-right-key $NDCTL enable-dimm $DEV
expect_eq "bind with the key loaded from its blob: unlocked" "$(state)" unlocked

# --- remove ------------------------------------------------------------------
step remove $NDCTL remove-passphrase $DEV
expect_eq "remove-passphrase: disabled" "$(state)" disabled
check "remove-passphrase: key gone" test -z "$(keyid)"

# --- crypto erase: the media changes ------------------------------------------
regions_off
step erase-setup $NDCTL setup-passphrase $DEV -k user:$MASTER
M0=$(media_sum)
step erase $NDCTL sanitize-dimm --crypto-erase $DEV
expect_eq "crypto erase: security disabled" "$(state)" disabled
[ -n "$MEDIA" ] && check "crypto erase: the media reads back changed" \
	test "$(media_sum)" != "$M0"

# --- freeze: everything refused until a reboot --------------------------------
step fz-setup $NDCTL setup-passphrase $DEV -k user:$MASTER
K3=$(keyid)
cp /etc/ndctl/keys/nvdimm_"$ID"_*.blob /tmp/sec-k3.blob
step freeze $NDCTL freeze-security $DEV
expect_eq "freeze-security: frozen" "$(frozen)" 1
for c in "update $K3 $K3" "disable $K3" "erase $K3" "master_update 0 $K3" "master_erase $K3"; do
	got=$(sec_write $c)
	rec "frozen.${c%% *}" "$got"
	expect_eq "frozen: '${c%% *}' refused, state unchanged" \
		"$got $(state) $(frozen)" "EIO unlocked 1"
done
step frozen-update $NDCTL update-passphrase $DEV -k user:$MASTER
step frozen-remove $NDCTL remove-passphrase $DEV
step frozen-erase $NDCTL sanitize-dimm --crypto-erase $DEV
expect_eq "frozen: ndctl's commands fail, state unchanged" \
	"$(state) $(frozen)" "unlocked 1"
# a reboot of the DIMM ends the freeze; the key unlocks it (76.1's
# failed update may have moved it: from the blob)
rec frozen.key-kept "$([ "$(keyid)" = "$K3" ] && echo yes || echo no)"
cp /tmp/sec-k3.blob /etc/ndctl/keys/nvdimm_"$ID"_$(hostname).blob
key_from_blob
$NDCTL disable-dimm $DEV > /dev/null 2>&1
echo 1 > $TD/lock_dimm
# read after the reset, as after the first lock_dimm: 6.1 unlocks at bind
# from the state it last read (here it would still be the frozen one)
rec fz-lock.state "$(state) $(frozen)"
step fz-reboot $NDCTL enable-dimm $DEV
expect_eq "after the reboot: unlocked, not frozen" "$(state) $(frozen)" "unlocked 0"
step fz-remove $NDCTL remove-passphrase $DEV
expect_eq "passphrase removed: disabled" "$(state)" disabled

# Debian's pass only (ours is in it): master() cannot be repeated
[ "$NDCTL" = /usr/bin/ndctl ] && master

# --- overwrite + wait-overwrite (last: upstream's mock answers no security
# call after it) ---
step ow-setup $NDCTL setup-passphrase $DEV -k user:$MASTER
# erase and overwrite while a region using the DIMM is enabled: EBUSY
regions_on
for c in erase overwrite; do
	got=$(sec_write $c $(keyid))
	rec "busy.$c" "$got"
	expect_eq "$c while a region using the DIMM is enabled: EBUSY, state unchanged" \
		"$got $(state)" "EBUSY unlocked"
done
regions_off
# the DIMM stays enabled: 6.1 overwrites a bound DIMM, and 76.1 then
# disables and enables it (it binds without labels meanwhile); no region
# enables during the overwrite (ours: made to last until the test ends
# it, overwrite_ms read while it runs; not a time a slow kernel outruns)
[ -f $TD/overwrite_ms ] && echo 60000 > $TD/overwrite_ms
step overwrite $NDCTL sanitize-dimm --overwrite $DEV
rec overwrite.bound "$([ -e $S/driver ] && echo yes || echo no)"
expect_eq "sanitize-dimm --overwrite of an enabled DIMM: issued, the DIMM bound" \
	"$(grep -c 'overwrite issued for 1 nmem' /tmp/sec.out) $([ -e $S/driver ] && echo bound)" "1 bound"
$NDCTL enable-region -b "$BUSNAME" all > /dev/null 2>&1
en=$(regions_enabled)
rec overwrite.regions-enabled $en
regions_off
[ -f $TD/overwrite_ms ] && expect_eq "no region of the DIMM enables during the overwrite (still running)" \
	"$en $(state)" "0 overwrite"
rec overwrite.state-after "$( [ "$(state)" = overwrite ] && echo overwrite || echo done)"
[ -f $TD/overwrite_ms ] && echo 0 > $TD/overwrite_ms
step wait-overwrite $NDCTL wait-overwrite $DEV
ours_eq "overwrite: done, security disabled" "$(state)" disabled \
	"upstream's mock answers no security call after an overwrite"
if [ -n "$MEDIA" ]; then
	Z=$(head -c $NT_DIMM_SIZE /dev/zero | md5sum | cut -d' ' -f1)
	expect_eq "overwrite: the media zeroed" "$(media_sum)" "$Z"
fi
step ow-enable-dimm $NDCTL enable-dimm $DEV
[ -f $TD/overwrite_ms ] && echo 300 > $TD/overwrite_ms
# 76.1 keeps the key of an overwritten DIMM: drop it
keyctl purge -s encrypted "nvdimm:$ID" > /dev/null 2>&1
rm -f /etc/ndctl/keys/nvdimm_"$ID"_*.blob

# --- the DIMM as found --------------------------------------------------------
keyctl purge -s encrypted "nvdimm:$ID" > /dev/null 2>&1
for k in $USERK $BIGK $WRONGK; do keyctl unlink $k @u > /dev/null 2>&1; done
keyctl purge -s encrypted nvdimm-test-big > /dev/null 2>&1
keyctl purge -s user $MASTER > /dev/null 2>&1
rm -f /etc/ndctl/keys/nvdimm_"$ID"_*.blob
$NDCTL enable-dimm $DEV > /dev/null 2>&1
check "regions enabled again" regions_on
rec end.state "$(state)"
}

suite
flush_out
# the same with our ndctl (userspace/ndctl/security.c)
if [ -x $OURS ] && [ "$NVT_SET" != upstream ]; then
	NDCTL=$OURS
	NVT_TEST="$NVT_TEST[ours]"
	suite
fi
