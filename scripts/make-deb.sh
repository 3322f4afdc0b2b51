#!/bin/bash
# make deb: the Debian package libnvdimm-dkms, the production module
# sources (kernel/ without test/) under /usr/src/libnvdimm-VERSION/ with
# their dkms.conf, built with dpkg-deb alone (no debhelper: works offline
# on a bare Debian 12).  VERSION comes from kernel/VERSION, the same file
# that gives the modules their MODULE_VERSION.
#   usage: scripts/make-deb.sh [OUTDIR]     (default build/deb)
# Prints the path of the .deb on its last line.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$TOP/build/deb}
PKG=libnvdimm-dkms

say() { echo "deb: $*" >&2; }
die() { echo "deb: error: $*" >&2; exit 1; }

command -v dpkg-deb >/dev/null || die "dpkg-deb not found (apt-get install dpkg)"
VERSION=$(cat "$TOP/kernel/VERSION")
[[ $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "kernel/VERSION: '$VERSION' is not N.N.N"

STAGE=$OUT/stage
rm -rf "$STAGE"
SRC=$STAGE/usr/src/libnvdimm-$VERSION
mkdir -p "$SRC" "$STAGE/DEBIAN" "$STAGE/usr/share/doc/$PKG"

# The sources Kbuild builds, and nothing of the test build: the module
# directories' .c/.h files, the Kbuilds, VERSION; the script that unpacks
# cxl_pmem's CXL headers from linux-source-6.1 at build time (never
# shipped: they must be those of the kernel DKMS builds for).
( cd "$TOP/kernel" &&
	find acpi cxl dax include nvdimm -type f \( -name '*.c' -o -name '*.h' \) -print0 |
	sort -z | xargs -0 cp --parents -t "$SRC" )
cp "$TOP/kernel/Kbuild" "$TOP/kernel/VERSION" "$SRC/"
cp "$TOP/kernel/cxl/Kbuild" "$SRC/cxl/"
cp "$TOP/packaging/Makefile.dkms" "$SRC/Makefile"
install -m 0755 "$TOP/packaging/cxl-prepare.sh" "$SRC/cxl-prepare.sh"
sed "s/@VERSION@/$VERSION/g" "$TOP/packaging/dkms.conf.in" > "$SRC/dkms.conf"
cp "$TOP/packaging/copyright" "$STAGE/usr/share/doc/$PKG/copyright"

for f in postinst prerm; do
	sed "s/@VERSION@/$VERSION/g" "$TOP/packaging/$f.in" > "$STAGE/DEBIAN/$f"
	chmod 0755 "$STAGE/DEBIAN/$f"
done
size=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
sed -e "s/@VERSION@/$VERSION/g" -e "s/@SIZE@/$size/" \
	"$TOP/packaging/control.in" > "$STAGE/DEBIAN/control"
( cd "$STAGE" && find usr -type f -print0 | sort -z | xargs -0 md5sum ) \
	> "$STAGE/DEBIAN/md5sums"

# the same bytes from the same tree: file times from the last commit
epoch=$(git -C "$TOP" log -1 --format=%ct 2>/dev/null || date +%s)
find "$STAGE" -exec touch -h -d "@$epoch" {} +
chmod -R u=rwX,go=rX "$STAGE/usr"

deb=$OUT/${PKG}_${VERSION}-1_all.deb
rm -f "$deb"
SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$deb" >/dev/null
rm -rf "$STAGE"
say "$(basename "$deb"): $(dpkg-deb -c "$deb" | grep -c '^-') files, $(du -k "$deb" | cut -f1) KiB"
echo "$deb"
