# btt-soak: btt-powercut with at least 10,000 enumerated cuts of each model
# (program order, reordered within a fence epoch) (make soak)
PASSES_4K=60 PASSES_512=30 RPASSES_4K=70 RPASSES_512=40
. "$(dirname "$0")/btt-powercut.sh"
