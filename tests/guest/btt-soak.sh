# btt-soak: btt-powercut with at least 10,000 enumerated cuts (make soak)
PASSES_4K=60 PASSES_512=30
. "$(dirname "$0")/btt-powercut.sh"
