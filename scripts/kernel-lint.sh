#!/bin/bash
# Kernel habits as tests: our modules build warning-free with W=1, sparse
# (C=2: every file) has nothing to say, and checkpatch.pl --strict (from
# Debian's linux-source-6.1) is clean on every kernel source.
# usage: scripts/kernel-lint.sh KDIR      (TAP, then "N passed, N failed")
#
# A clean result is remembered (build/kbuild/lint.pass) under a key made of
# everything it depends on: this script, every file under kernel/, the
# kernel tree it built against, the compiler, sparse and checkpatch.pl.
# The next run with the same key prints the same lines, marked cached,
# instead of the two W=1 builds and checkpatch (70 s of a warm make check).
# A failing run is never remembered; LINT_CACHE=0 forces a full run (a
# fresh clone, as CI's, has no cache).
set -uo pipefail
KDIR=$1
TOP=$(cd "$(dirname "$0")/.." && pwd)
LINT=$TOP/build/kbuild/lint
CACHE=${LIBNVDIMM_CACHE:-$HOME/.cache/libnvdimm}
PASSFILE=$TOP/build/kbuild/lint.pass
pass=0 fail=0 n=0 tap=

t() {	# t STATUS DESC
	n=$((n + 1))
	if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok $n - lint: $2"
	else fail=$((fail + 1)); echo "not ok $n - lint: $2"; fi
	tap="$tap${tap:+
}ok $n - lint: $2 (cached)"
}

src=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -1)
cp=$CACHE/checkpatch/scripts/checkpatch.pl

lint_key() {
	{
		sha256sum "$0"
		(cd "$TOP" && find kernel -type f -print0 | sort -z |
			xargs -0 sha256sum)
		echo "KDIR $(readlink -f "$KDIR")"
		sha256sum "$KDIR/Module.symvers" "$KDIR/.config" 2>&1
		${CC:-gcc} --version | head -n 1
		sparse --version 2>&1
		sha256sum "$cp" 2>&1
	} | sha256sum | cut -d' ' -f1
}
key=$(lint_key)
if [ "${LINT_CACHE:-1}" != 0 ] && [ -f "$PASSFILE" ] &&
   [ "$(head -n 1 "$PASSFILE")" = "$key" ]; then
	echo "lint: cached: kernel/, the tools and $KDIR unchanged since the clean run of $(sed -n 2p "$PASSFILE") (LINT_CACHE=0 reruns)"
	sed -n '3,$p' "$PASSFILE"
	exit 0
fi

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
if [ $fail = 0 ]; then
	# the key of the inputs as they were before the run: a file edited
	# meanwhile gives another key next time
	mkdir -p "$(dirname "$PASSFILE")"
	{ echo "$key"; date -u '+%F %T UTC'; echo "$tap"
	  echo "$pass passed, 0 failed"; } > "$PASSFILE.tmp" &&
		mv "$PASSFILE.tmp" "$PASSFILE"
fi
[ $fail = 0 ]
