// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-labels: decode and patch a copy of a DIMM's label storage area
 * (as `nd-label-ioctl read` saves it), per media-formats.md §2-3.
 *
 *   nvt-labels show FILE
 *       index I sig=0|1 seq=S myoff=.. mysize=.. otheroff=.. labeloff=..
 *             nslot=N ver=M.m lsize=L csum=ok|bad valid=0|1
 *       current I|none          the index block in force (best_seq)
 *       free N                  free slots among nslot of the current index
 *       label SLOT uuid=U name=NAME flags=0xF nlabel=N position=P
 *             cookie=0xC lbasize=B dpa=0xD rawsize=0xR slotok=0|1
 *             csum=ok|bad|-     one line per slot in use in the current
 *                               index (NAME with spaces as '_', '-' empty)
 *   nvt-labels set FILE SLOT FIELD VALUE
 *       FIELD: dpa rawsize slot flags cookie nlabel position lbasize;
 *       writes the field of the label in SLOT (of the current index's
 *       layout), then refreshes the label's checksum when labels are
 *       256 bytes (v1.2) so only the field changes its meaning
 *   nvt-labels current FILE     print the offset of the current index
 *                               block ("none" and exit 1 without one)
 *   nvt-labels other FILE       offset of the other (older) index block
 *   nvt-labels cxl FILE         rewrite FILE (its size kept) as a CXL 2.0
 *                               label area (CXL 2.0 §9.13.2, tables 210-
 *                               212): index blocks v2.1 (seq 3 and 2),
 *                               slot 0 a region label, slot 1 a namespace
 *                               label of that region (dpa 0, 32 MiB, name
 *                               "cxl-foreign"), Fletcher-64 checksums: the
 *                               labels a CXL-label-aware writer leaves
 *
 * Index blocks are validated like the 6.1 kernel (signature, version and
 * labelsize, checksum over the index size I, seq, myoff/otheroff/
 * labeloff, mysize, nslot fits).  I follows the modern formula for the
 * area size and label size (for 128 KiB areas the v4.x formula gives the
 * same 256).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *area;
static size_t area_size;

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put_le(unsigned char *p, int n, uint64_t v)
{
	int i;

	for (i = 0; i < n; i++, v >>= 8)
		p[i] = v & 0xff;
}

/* fletcher64 over little-endian u32 words, with [skip, skip+8) as zero */
static uint64_t fletcher64(const unsigned char *p, size_t len, size_t skip)
{
	uint32_t lo = 0;
	uint64_t hi = 0;
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t w = (uint32_t)le(p + i, 4);

		if (i >= skip && i < skip + 8)
			w = 0;
		lo += w;
		hi += lo;
	}
	return hi << 32 | lo;
}

/* index block size for label size L (modern formula, media-formats §2.3) */
static size_t index_size(size_t lsize)
{
	size_t t = area_size / lsize;
	size_t need = 72 + (t + 7) / 8;

	return (need + 255) / 256 * 256;
}

struct idx {
	int sig, valid, csum_ok;
	unsigned seq, major, minor, lsize;
	uint64_t myoff, mysize, otheroff, labeloff;
	uint32_t nslot;
	size_t isize;
};

/* validate block i for label size lsize */
static void read_index(int i, size_t lsize, struct idx *x)
{
	size_t isize = index_size(lsize);
	const unsigned char *p;

	memset(x, 0, sizeof(*x));
	x->isize = isize;
	if ((size_t)(i + 1) * isize > area_size)
		return;
	p = area + i * isize;
	x->sig = !memcmp(p, "NAMESPACE_INDEX\0", 16);
	x->seq = (unsigned)le(p + 20, 4);
	x->myoff = le(p + 24, 8);
	x->mysize = le(p + 32, 8);
	x->otheroff = le(p + 40, 8);
	x->labeloff = le(p + 48, 8);
	x->nslot = (uint32_t)le(p + 56, 4);
	x->major = (unsigned)le(p + 60, 2);
	x->minor = (unsigned)le(p + 62, 2);
	x->lsize = 128;
	if (x->major * 100 + x->minor >= 102)
		x->lsize = 1u << (7 + p[19]);
	x->csum_ok = fletcher64(p, isize, 64) == le(p + 64, 8);
	x->valid = x->sig && x->lsize == lsize && x->csum_ok &&
		(x->seq & 3) && x->myoff == i * isize &&
		x->otheroff == (1 - i) * isize && x->labeloff == 2 * isize &&
		x->mysize >= 72 && x->mysize <= isize &&
		(uint64_t)x->nslot * lsize + 2 * isize <= area_size;
	if (x->major * 100 + x->minor >= 102 && p[19] > 1)
		x->valid = 0;
}

static const unsigned next_seq[4] = { 0, 2, 3, 1 };

/* fills both blocks (for the label size that validates), returns current */
static int current_index(struct idx x[2])
{
	size_t lsizes[2] = { 128, 256 };
	int k, a, b;

	for (k = 0; k < 2; k++) {
		read_index(0, lsizes[k], &x[0]);
		read_index(1, lsizes[k], &x[1]);
		if (x[0].valid || x[1].valid)
			break;
	}
	if (!x[0].valid && !x[1].valid) {
		read_index(0, 128, &x[0]);
		read_index(1, 128, &x[1]);
		return -1;
	}
	if (!x[0].valid)
		return 1;
	if (!x[1].valid)
		return 0;
	a = x[0].seq & 3;
	b = x[1].seq & 3;
	if (a == 0 || a == b)
		return 1;
	if (b == 0)
		return 0;
	return next_seq[a] == (unsigned)b ? 1 : 0;
}

static void print_uuid(const unsigned char *u)
{
	int i;

	for (i = 0; i < 16; i++)
		printf("%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "",
		       u[i]);
}

static int show(void)
{
	struct idx x[2];
	const unsigned char *bm;
	uint32_t s, nfree = 0;
	int cur, i;

	cur = current_index(x);
	for (i = 0; i < 2; i++)
		printf("index %d sig=%d seq=%u myoff=%" PRIu64 " mysize=%" PRIu64
		       " otheroff=%" PRIu64 " labeloff=%" PRIu64 " nslot=%u ver=%u.%u lsize=%u csum=%s valid=%d\n",
		       i, x[i].sig, x[i].seq, x[i].myoff, x[i].mysize,
		       x[i].otheroff, x[i].labeloff, x[i].nslot, x[i].major,
		       x[i].minor, x[i].lsize, x[i].csum_ok ? "ok" : "bad",
		       x[i].valid);
	if (cur < 0) {
		printf("current none\n");
		return 0;
	}
	printf("current %d\n", cur);
	bm = area + cur * x[cur].isize + 72;
	for (s = 0; s < x[cur].nslot; s++)
		if (bm[s / 8] & (1u << (s % 8)))
			nfree++;
	printf("free %u\n", nfree);
	for (s = 0; s < x[cur].nslot; s++) {
		const unsigned char *l;
		char name[65];
		int k;

		if (bm[s / 8] & (1u << (s % 8)))
			continue;
		l = area + x[cur].labeloff + (size_t)s * x[cur].lsize;
		if (l + x[cur].lsize > area + area_size)
			break;
		memcpy(name, l + 16, 64);
		name[64] = 0;
		for (k = 0; name[k]; k++)
			if (isspace((unsigned char)name[k]) ||
			    !isprint((unsigned char)name[k]))
				name[k] = '_';
		printf("label %u uuid=", s);
		print_uuid(l);
		printf(" name=%s flags=%#x nlabel=%u position=%u cookie=%#" PRIx64
		       " lbasize=%" PRIu64 " dpa=%#" PRIx64 " rawsize=%#" PRIx64
		       " slotok=%d csum=%s\n",
		       name[0] ? name : "-", (unsigned)le(l + 80, 4),
		       (unsigned)le(l + 84, 2), (unsigned)le(l + 86, 2),
		       le(l + 88, 8), le(l + 96, 8), le(l + 104, 8),
		       le(l + 112, 8), le(l + 120, 4) == s,
		       x[cur].lsize < 256 ? "-" :
		       fletcher64(l, 256, 248) == le(l + 248, 8) ? "ok" : "bad");
	}
	return 0;
}

static int set_field(uint32_t slot, const char *field, uint64_t v)
{
	static const struct { const char *name; int off, len; } f[] = {
		{ "flags", 80, 4 }, { "nlabel", 84, 2 }, { "position", 86, 2 },
		{ "cookie", 88, 8 }, { "lbasize", 96, 8 }, { "dpa", 104, 8 },
		{ "rawsize", 112, 8 }, { "slot", 120, 4 },
	};
	struct idx x[2];
	unsigned char *l;
	unsigned i;
	int cur;

	cur = current_index(x);
	if (cur < 0) {
		fprintf(stderr, "nvt-labels: no valid index\n");
		return 1;
	}
	l = area + x[cur].labeloff + (size_t)slot * x[cur].lsize;
	if (slot >= x[cur].nslot || l + x[cur].lsize > area + area_size) {
		fprintf(stderr, "nvt-labels: slot %u out of range\n", slot);
		return 1;
	}
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!strcmp(f[i].name, field))
			break;
	if (i == sizeof(f) / sizeof(f[0])) {
		fprintf(stderr, "nvt-labels: unknown field %s\n", field);
		return 1;
	}
	put_le(l + f[i].off, f[i].len, v);
	if (x[cur].lsize >= 256)
		put_le(l + 248, 8, fletcher64(l, 256, 248));
	return 0;
}

/* a uuid in its string's byte order (how 6.1 parses the CXL type uuids) */
static void put_uuid(unsigned char *p, const char *s)
{
	int i;

	for (i = 0; i < 16 && *s; s++) {
		if (*s == '-')
			continue;
		sscanf(s, "%2hhx", &p[i++]);
		s++;
	}
}

/* the area rewritten as CXL 2.0 labels (see the usage at the top) */
static int make_cxl(void)
{
	const size_t isize = index_size(256);
	uint32_t nslot = (area_size - 2 * isize) / 256;
	unsigned char *l;
	int b;

	if (area_size < 2 * isize + 2 * 256) {
		fprintf(stderr, "nvt-labels: area too small\n");
		return 1;
	}
	memset(area, 0, area_size);
	for (b = 0; b < 2; b++) {
		unsigned char *ix = area + b * isize;
		uint32_t i;

		memcpy(ix, "NAMESPACE_INDEX", 16);
		ix[19] = 1;				/* 256-byte labels */
		put_le(ix + 20, 4, b ? 2 : 3);		/* seq */
		put_le(ix + 24, 8, b * isize);		/* myoff */
		put_le(ix + 32, 8, isize);		/* mysize */
		put_le(ix + 40, 8, (1 - b) * isize);	/* otheroff */
		put_le(ix + 48, 8, 2 * isize);		/* labeloff */
		put_le(ix + 56, 4, nslot);
		put_le(ix + 60, 2, 2);			/* major */
		put_le(ix + 62, 2, 1);			/* minor */
		for (i = 2; i < nslot; i++)		/* slots 0, 1 in use */
			ix[72 + i / 8] |= 1 << (i % 8);
		put_le(ix + 64, 8, fletcher64(ix, isize, 64));
	}
	/* slot 0: region label (table 211) */
	l = area + 2 * isize;
	put_uuid(l, "529d7c61-da07-47c4-a93f-ecdf2c06f444");
	put_uuid(l + 16, "5eed0031-c0de-4c31-8d1a-0000000000f0");
	put_le(l + 36, 2, 1);				/* nlabel */
	put_le(l + 48, 8, 256ULL << 20);		/* rawsize */
	put_le(l + 64, 4, 0);				/* slot */
	put_le(l + 68, 4, 256);				/* ig */
	put_le(l + 248, 8, fletcher64(l, 256, 248));
	/* slot 1: namespace label (table 212) */
	l += 256;
	put_uuid(l, "68bb2c0a-5a77-4937-9f85-3caf41a0f93c");
	put_uuid(l + 16, "5eed0031-c0de-4c31-8d1a-0000000000f1");
	memcpy(l + 32, "cxl-foreign", 11);
	put_le(l + 100, 2, 1);				/* nrange */
	put_le(l + 112, 8, 32ULL << 20);		/* rawsize */
	put_le(l + 120, 4, 1);				/* slot */
	put_uuid(l + 128, "5eed0031-c0de-4c31-8d1a-0000000000f0");
	put_le(l + 160, 2, 512);			/* lbasize */
	put_le(l + 248, 8, fletcher64(l, 256, 248));
	return 0;
}

int main(int argc, char **argv)
{
	FILE *f;
	long n;
	int rc;

	if (argc < 3)
		goto usage;
	f = fopen(argv[2], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0) {
		fprintf(stderr, "nvt-labels: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	area_size = n;
	area = malloc(area_size);
	rewind(f);
	if (!area || fread(area, 1, area_size, f) != area_size) {
		fprintf(stderr, "nvt-labels: read %s failed\n", argv[2]);
		return 2;
	}
	fclose(f);
	if (!strcmp(argv[1], "show") && argc == 3)
		return show();
	if ((!strcmp(argv[1], "current") || !strcmp(argv[1], "other")) &&
	    argc == 3) {
		struct idx x[2];
		int cur = current_index(x);

		if (cur < 0) {
			printf("none\n");
			return 1;
		}
		if (!strcmp(argv[1], "other"))
			cur = 1 - cur;
		printf("%zu\n", cur * x[0].isize);
		return 0;
	}
	if ((!strcmp(argv[1], "set") && argc == 6) ||
	    (!strcmp(argv[1], "cxl") && argc == 3)) {
		rc = argc == 3 ? make_cxl() :
		     set_field(strtoul(argv[3], NULL, 0), argv[4],
			       strtoull(argv[5], NULL, 0));
		if (rc)
			return rc;
		f = fopen(argv[2], "r+b");
		if (!f || fwrite(area, 1, area_size, f) != area_size ||
		    fclose(f)) {
			fprintf(stderr, "nvt-labels: write %s failed\n", argv[2]);
			return 2;
		}
		return 0;
	}
usage:
	fprintf(stderr, "usage: nvt-labels show|current|other|cxl FILE | set FILE SLOT FIELD VALUE\n");
	return 2;
}
