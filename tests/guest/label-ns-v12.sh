# label-ns-v12: label-ns.sh with v1.2 labels (ndctl init-labels -V 1.2)
LN_VER=1.2
. "$(dirname "$0")/label-ns.sh"
