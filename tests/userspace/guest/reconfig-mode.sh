# reconfig-mode: `create-namespace -e NS -f -s SIZE` without -m keeps the
# namespace's mode and carries its sector size forward, as 76.1 does.
# Needs a btt (the stock modules); label-less DIMM labelled here, zeroed
# again at the end.
# usage: sh reconfig-mode.sh OUR_NDCTL [DEBIAN_NDCTL]
. "$(dirname "$0")/common.sh"

settle
dimm=$(label_dimm) || { nok "reconfigure keeps mode: no DIMM with label commands (QEMU's nvdimm1 has them)"; exit 0; }
region=$(region_of_dimm $dimm) || { nok "no region on $dimm"; exit 1; }
R=/sys/bus/nd/devices/$region
relabel() {	# relabel init|zero, with Debian's ndctl
	relabel_with "$THEIRS" $region $dimm $([ "$1" = zero ] && echo zero || echo default)
}
relabel init || { nok "labelling $dimm failed"; sed 's/^/#   /' /tmp/r.out; exit 1; }
settle
# both module sets have BTT: a region without a btt seed is a regression
[ -n "$(attr $R/btt_seed)" ] || { nok "reconfigure keeps mode: $region has no btt_seed"; relabel zero; exit 0; }

if "$THEIRS" create-namespace -r $region -m sector -l 512 -s 64M > /tmp/c.json 2> /tmp/c.err; then
	ns=$(jfield dev /tmp/c.json)
	ok "Debian ndctl: sector namespace $ns, sector size $(jfield sector_size /tmp/c.json)"
else
	nok "Debian ndctl create-namespace -m sector failed"; sed 's/^/#   /' /tmp/c.err; relabel zero; exit 1
fi
if "$OURS" create-namespace -e $ns -f -s 32M > /tmp/e.json 2> /tmp/e.err; then
	ok "ours: create-namespace -e $ns -f -s 32M"
else
	nok "ours: create-namespace -e $ns -f -s 32M failed"; sed 's/^/#   /' /tmp/e.err
fi
ns2=$(jfield dev /tmp/e.json)
"$THEIRS" list -r $region -N -n ${ns2:-$ns} > /tmp/l.json 2>/dev/null
mode=$(jfield mode /tmp/l.json); ss=$(jfield sector_size /tmp/l.json); size=$(jfield size /tmp/l.json)
[ "$mode" = sector ] && ok "mode kept: $mode" || nok "mode after -e: '$mode' (want sector)"
[ "$ss" = 512 ] && ok "sector size carried forward: $ss" || nok "sector size after -e: '$ss' (want 512: our sector-mode default is 4096)"
diag "after -e: $(tr -d '\n' < /tmp/l.json | head -c 300)"

"$THEIRS" destroy-namespace -f all -r $region > /dev/null 2>&1
relabel zero && ok "labels of $dimm zeroed again" || nok "final zero-labels failed"
