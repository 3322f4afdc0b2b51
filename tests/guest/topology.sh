# topology: save `ndctl list -BDRN` and `ndctl list -BDRNi` (Debian ndctl
# 76.1) for the host-side comparison against the oracle
# (tests/guest/compare-topology.py compares both files, every field).
. "$(dirname "$0")/lib.sh"

nd_settle
if ndctl list -BDRN > $NVT_OUT/topology.json 2> /tmp/topology.err; then
	ok "ndctl list -BDRN -> topology.json ($(wc -c < $NVT_OUT/topology.json) bytes)"
	sed 's/^/#   /' $NVT_OUT/topology.json
else
	nok "ndctl list -BDRN failed"
	sed 's/^/#   /' /tmp/topology.err
fi
if ndctl list -BDRNi > $NVT_OUT/topology-all.json 2> /tmp/topology.err; then
	ok "ndctl list -BDRNi -> topology-all.json ($(wc -c < $NVT_OUT/topology-all.json) bytes)"
else
	nok "ndctl list -BDRNi failed"
	sed 's/^/#   /' /tmp/topology.err
fi
