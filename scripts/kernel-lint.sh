#!/bin/bash
# Kernel habits as tests: our modules build warning-free with W=1, sparse
# (C=2: every file) has nothing to say, and checkpatch.pl --strict (from
# Debian's linux-source-6.1) is clean on every kernel source.
# usage: scripts/kernel-lint.sh KDIR      (TAP, then "N passed, N failed")
set -uo pipefail
KDIR=$1
TOP=$(cd "$(dirname "$0")/.." && pwd)
LINT=$TOP/build/kbuild/lint
CACHE=${LIBNVDIMM_CACHE:-$HOME/.cache/libnvdimm}
pass=0 fail=0 n=0

t() {	# t STATUS DESC
	n=$((n + 1))
	if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok $n - lint: $2"
	else fail=$((fail + 1)); echo "not ok $n - lint: $2"; fi
}

echo "lint: W=1 + sparse build of kernel/ (build/kbuild/lint)"
rm -rf "$LINT" "$LINT-test"
make -s -C "$TOP/kernel" KDIR="$KDIR" OBJ="$LINT" OUT="$LINT/out" W=1 C=2 \
	> "$LINT.log" 2>&1
rc=$?
echo "lint: W=1 + sparse build of the test build (build/kbuild/lint-test)"
make -s -C "$TOP/kernel" test KDIR="$KDIR" TEST_OBJ="$LINT-test" \
	TEST_OUT="$LINT-test/out" W=1 C=2 >> "$LINT.log" 2>&1 || rc=1
warn=$(grep -E 'warning:|error:' "$LINT.log" | grep -v '^  CHECK' | sort -u)
t $rc "W=1 builds succeed (production and test)"
[ -z "$warn" ]; t $? "no compiler or sparse warnings (W=1, C=2)"
[ -n "$warn" ] && echo "$warn" | head -20 | sed 's/^/#   /'

src=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -1)
cp=$CACHE/checkpatch/scripts/checkpatch.pl
if [ ! -f "$cp" ] && [ -n "$src" ]; then
	mkdir -p "$CACHE/checkpatch"
	tar -xf "$src" -C "$CACHE/checkpatch" --strip-components=1 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' 2>/dev/null
fi
if [ -f "$cp" ]; then
	files=$(cd "$TOP" && find kernel -name '*.[ch]' | sort)
	out=$(cd "$TOP" && perl "$cp" --no-tree --strict --terse -f $files 2>&1 |
		grep -E 'ERROR|WARNING|CHECK')
	[ -z "$out" ]; t $? "checkpatch --strict clean on $(echo $files | wc -w) files"
	[ -n "$out" ] && echo "$out" | head -20 | sed 's/^/#   /'
else
	t 1 "checkpatch.pl not found (linux-source-6.1 missing)"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
