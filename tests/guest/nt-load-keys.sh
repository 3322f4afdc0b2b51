# nt-load-keys: ndctl load-keys (issue 29, docs/security.md "load-keys"),
# Debian's ndctl 76.1 and ours on the same states, with keyctl: the key-
# encryption key and the DIMM keys from /etc/ndctl/keys into the user
# keyring, what an initrd does before a DIMM locked by a reboot binds:
# after it, binding unlocks the DIMM (an nfit_test.0 DIMM, lock_dimm).
# Then bad input in a scratch key directory (blobs made here by keyctl,
# no DIMM needed): no directory, no kek blob (with and without the kek in
# the keyring), an empty kek blob, a corrupt and a truncated DIMM blob,
# one sealed by another kek, everything loaded already, a TPM handle (no
# trusted keys in Debian's kernel), a relative -p, bad options.  For
# each: the two ndctls' exit status, stdout and the nvdimm keys in @u
# after (type, description, payload = the blob's) equal, but where ours
# deliberately differs (DIFFERS below).  Leaves the DIMM as found:
# security disabled, no nvdimm key in @u.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfit_test.inc"

D76=/usr/bin/ndctl
OURS=/opt/ours/bin/ndctl
KEYS=/etc/ndctl/keys
LK=/tmp/lk
command -v keyctl > /dev/null || { skip "load-keys" "no keyctl in the image"; exit 0; }
[ -e /proc/keys ] || { skip "load-keys" "the kernel has no keys (CONFIG_KEYS)"; exit 0; }
[ -x $OURS ] || { skip "load-keys" "no $OURS"; exit 0; }
nt_security_dimm || exit 0
diag "DIMM $DEV id $ID knobs ${TD##*/}"

# the nvdimm keys of @u, "type:description" sorted (other tests' keys
# are not ours to judge)
nvkeys() {
	local id
	for id in $(keyctl rlist @u 2> /dev/null); do
		keyctl rdescribe $id 2> /dev/null | awk -F';' '$5 ~ /^nvdimm/ { print $1 ":" $5 }'
	done | sort | tr '\n' ' ' | sed 's/ $//'
}
nvkey_ids() {
	local id
	for id in $(keyctl rlist @u 2> /dev/null); do
		keyctl rdescribe $id 2> /dev/null | grep -q ';nvdimm' && echo $id
	done
}
clear_keys() { for id in $(nvkey_ids); do keyctl unlink $id @u > /dev/null; done; }
# same_payload TYPE DESC FILE: the key's payload is FILE's bytes
same_payload() {
	local id
	id=$(keyctl search @u $1 "$2" 2> /dev/null) || return 1
	[ "$(keyctl pipe $id | md5sum)" = "$(md5sum < "$3")" ]
}
state() { cat $S/security 2> /dev/null || echo none; }
regions_off() { $D76 disable-region -b "$BUSNAME" all > /dev/null 2>&1; }
regions_on() { $D76 enable-region -b "$BUSNAME" all > /dev/null 2>&1; }
# lk TAG ARGS...: load-keys of 76.1 (TAG 76) or ours; rc, stdout, keys
lk() {
	local tag=$1 nd=$D76
	shift
	[ $tag = ours ] && nd=$OURS
	$nd load-keys "$@" > /tmp/lk.out 2> /tmp/lk.err
	eval "RC_$tag=$?"
	eval "OUT_$tag=\"\$(tr '\\n' '|' < /tmp/lk.out)\""
	eval "KEYS_$tag=\"\$(nvkeys)\""
	diag "$tag load-keys $*: rc $(eval echo \$RC_$tag), '$(eval echo \$OUT_$tag)', stderr '$(tr '\n' '|' < /tmp/lk.err | cut -c1-200)', keys $(eval echo \$KEYS_$tag)"
}
# where ours deliberately differs from 76.1 (docs/security.md): CASE WHAT
# 76.1's ours ("-": not compared) WHY
DIFFERS="
nokek-file rc 244 254 76.1 returns ENOMEM for a missing kek blob, ours its open's ENOENT
empty-kek rc 244 234 76.1 returns ENOMEM for a kek blob of 0 bytes, ours EINVAL
relative rc 254 0 76.1 chdir()s into the -p directory, then opens the relative path again
relative out - - as above: ours loads
relative keys - - as above: ours loads
"
# same CASE: the two runs (lk 76, lk ours) give the same, or what DIFFERS
# names for CASE
same() {
	local c=$1 what v76 vo d
	for what in rc out keys; do
		case $what in
		rc) v76=$RC_76 vo=$RC_ours ;;
		out) v76=$OUT_76 vo=$OUT_ours ;;
		keys) v76=$KEYS_76 vo=$KEYS_ours ;;
		esac
		d=$(echo "$DIFFERS" | awk -v c=$c -v w=$what '$1 == c && $2 == w { print $3 " " $4 }')
		if [ -z "$d" ]; then
			expect_eq "$c: ours' $what as 76.1's" "$vo" "$v76"
		elif [ "$d" != "- -" ]; then
			expect_eq "$c: $what 76.1 ${d% *}, ours ${d#* } (a deliberate difference)" \
				"$v76 $vo" "$d"
		fi
	done
}

# --- the use: a DIMM locked by a reboot, unlocked at bind -------------------
mkdir -p $KEYS
rm -f $KEYS/nvdimm_"$ID"_*.blob $KEYS/nvdimm-master.blob $KEYS/tpm.handle
for tag in 76 ours; do
	clear_keys
	regions_off
	# the kek as an administrator makes it (76.1's documentation), saved
	# where load-keys finds it
	head -c 32 /dev/urandom | keyctl padd user nvdimm-master @u > /dev/null
	keyctl pipe $(keyctl search @u user nvdimm-master) > $KEYS/nvdimm-master.blob
	$D76 setup-passphrase $DEV -k user:nvdimm-master > /dev/null 2>&1
	check "$tag: setup-passphrase (76.1): $DEV unlocked, its blob saved" \
		test "$(state)" = unlocked -a -f $KEYS/nvdimm_"$ID"_$(hostname).blob
	# the reboot: the DIMM locked, the keyring empty
	$D76 disable-dimm $DEV > /dev/null 2>&1
	echo 1 > $TD/lock_dimm
	clear_keys
	check "$tag: $DEV locked, no nvdimm key in @u" test "$(state)" = locked -a -z "$(nvkeys)"
	lk $tag
	expect_eq "$tag load-keys: the kek and $DEV's key loaded, exit 0" \
		"$(eval echo \$RC_$tag) $(eval echo \$OUT_$tag) $(eval echo \$KEYS_$tag)" \
		"0 nvdimm master key loaded.|1 nvdimm keys loaded| encrypted:nvdimm:$ID user:nvdimm-master"
	check "$tag load-keys: the kek's payload is nvdimm-master.blob's bytes" \
		same_payload user nvdimm-master $KEYS/nvdimm-master.blob
	check "$tag load-keys: nvdimm:$ID is its blob" \
		same_payload encrypted "nvdimm:$ID" $KEYS/nvdimm_"$ID"_$(hostname).blob
	$D76 enable-dimm $DEV > /dev/null 2>&1
	expect_eq "$tag: bind after load-keys: $DEV unlocked" "$(state)" unlocked
	check "$tag: its regions enable" regions_on
	regions_off
	$D76 remove-passphrase $DEV > /dev/null 2>&1
	expect_eq "$tag: passphrase removed" "$(state)" disabled
	rm -f $KEYS/nvdimm_"$ID"_*.blob
done
same use

# --- bad input, in a scratch key directory ---------------------------------
# two DIMM blobs (ids lkA, lkB) sealed by the kek, one by another kek
clear_keys
rm -rf $LK $KEYS/nvdimm-master.blob
mkdir -p $LK/keys
head -c 32 /dev/urandom | keyctl padd user nvdimm-master @u > /dev/null
keyctl pipe $(keyctl search @u user nvdimm-master) > $LK/kek.bin
cp $LK/kek.bin $LK/keys/nvdimm-master.blob
head -c 32 /dev/urandom | keyctl padd user nvdimm-other @u > /dev/null
for k in lkA:nvdimm-master lkB:nvdimm-master lkC:nvdimm-other; do
	id=$(keyctl add encrypted nvdimm:${k%:*} "new enc32 user:${k#*:} 32" @u)
	keyctl pipe $id > $LK/keys/nvdimm_${k%:*}_$(hostname).blob
done
keyctl purge user nvdimm-other > /dev/null 2>&1
mv $LK/keys/nvdimm_lkC_$(hostname).blob $LK/lkC.blob
clear_keys
AB="encrypted:nvdimm:lkA encrypted:nvdimm:lkB user:nvdimm-master"
# case NAME SETUP ARGS...: both ndctls from the state SETUP makes
case_() {
	local name=$1 setup=$2 tag
	shift 2
	for tag in 76 ours; do
		clear_keys
		eval "$setup"
		lk $tag "$@"
	done
	same $name
}
kek() { keyctl padd user nvdimm-master @u < $LK/kek.bin > /dev/null; }
case_ load "" -p $LK/keys
expect_eq "the two DIMM keys and the kek" "$KEYS_ours" "$AB"
case_ nodir "" -p $LK/none
expect_eq "no key directory: ENOENT, nothing loaded" "$RC_ours|$KEYS_ours" "254|"
mv $LK/keys/nvdimm-master.blob $LK/kek.blob
case_ nokek-file "" -p $LK/keys
expect_eq "no kek blob, no kek: nothing loaded" "$KEYS_76|$KEYS_ours" "|"
case_ nokek-file-kek-loaded "kek" -p $LK/keys
expect_eq "no kek blob, the kek in @u: the DIMM keys loaded" "$RC_ours|$KEYS_ours" "0|$AB"
: > $LK/keys/nvdimm-master.blob
case_ empty-kek "" -p $LK/keys
expect_eq "an empty kek blob: nothing loaded" "$KEYS_76|$KEYS_ours" "|"
mv $LK/kek.blob $LK/keys/nvdimm-master.blob
# a DIMM blob whose last digit changed (its HMAC fails), one cut short,
# one sealed by another kek: each refused and skipped, the rest loaded
b=$LK/keys/nvdimm_lkB_$(hostname).blob
cp $b $LK/lkB.blob
n=$(wc -c < $LK/lkB.blob)
[ "$(tail -c 1 $LK/lkB.blob)" = 0 ] && c=1 || c=0
{ head -c $((n - 1)) $LK/lkB.blob; printf $c; } > $b
head -c $((n - 20)) $LK/lkB.blob > $LK/keys/nvdimm_lkD_$(hostname).blob
cp $LK/lkC.blob $LK/keys/
mv $LK/keys/lkC.blob $LK/keys/nvdimm_lkC_$(hostname).blob
case_ corrupt "" -p $LK/keys
expect_eq "a changed, a truncated and another kek's blob: refused, the good one loaded, exit 0" \
	"$RC_ours|$KEYS_ours" "0|encrypted:nvdimm:lkA user:nvdimm-master"
rm $LK/keys/nvdimm_lkD_* $LK/keys/nvdimm_lkC_*
cp $LK/lkB.blob $b
# everything loaded already: the keys kept as they were
load_all() { kek; $D76 load-keys -p $LK/keys > /dev/null 2>&1; ids0=$(nvkey_ids | sort); }
for tag in 76 ours; do
	clear_keys
	load_all
	lk $tag -p $LK/keys
	expect_eq "$tag: run again: the same keys (serials)" "$(nvkey_ids | sort)" "$ids0"
done
same again
# a TPM handle: Debian's kernel has no trusted keys
case_ tpm-handle "" -p $LK/keys -t 0x81000001
check "-t: the kek cannot be a trusted key here: refused (exit $RC_ours)" test "$RC_ours" != 0
printf '0x81000001\n' > $LK/keys/tpm.handle
case_ tpm-handle-file "" -p $LK/keys
rm $LK/keys/tpm.handle
# a relative key path
cd $LK
case_ relative "" -p keys
cd /
expect_eq "ours -p keys (relative): loaded" "$RC_ours|$KEYS_ours" "0|$AB"
# bad options: usage
case_ opt-k "" -p $LK/keys -k user:nvdimm-master
case_ opt-extra "" -p $LK/keys nmem0
expect_eq "bad options: usage (129), nothing loaded" "$RC_ours|$KEYS_ours" "129|"

clear_keys
rm -rf $LK $KEYS/nvdimm-master.blob
regions_on
