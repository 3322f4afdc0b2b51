// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The v4.2 document's libndctl examples (doc42.h), run as written on the
 * live nfit_test platform (docs/nfit_test.md), with the results checked
 * against its topology and against the allocation rules of
 * docs/namespaces.md.  TAP on stdout.
 *
 *   ndctl-doc-examples              enumerate, configure the document's
 *                                   picture, check it, re-read it from labels
 *   ndctl-doc-examples --destroy    delete every namespace of nfit_test.0
 *                                   and check that all capacity is back
 *
 * Built by userspace/Makefile into build/guest-tools/ (the guest image
 * copies that directory to /usr/local/bin); libndctl.so.1 is found in
 * /opt/ours/lib in the guest, in ../lib on the host.  Run in the guest by
 * tests/userspace/guest/doc-examples.sh (boot test "us-doc-examples").
 *
 * The configuration, in the order docs/namespaces.md gives for the
 * document's picture:
 *   pm0.0  16 MiB on region0 (spa_index 1)      -> DPA [0, 8M) of DIMM0,1
 *   pm1.0  32 MiB on region1 (spa_index 2)      -> DPA [16M, 24M) of DIMM0-3
 *   blk2.0, blk3.0  8 MiB (DIMM0, DIMM1)        -> [8M, 16M)
 *   blk2.1, blk3.1  8 MiB                       -> [24M, 32M)
 *   blk4.0, blk5.0  24 MiB (DIMM2, DIMM3)       -> [0, 16M) + [24M, 32M)
 * configure_namespace() names each "namespaceR.N" as the document's code
 * does (the picture's "pm0.0", "blk2.0" are the same namespaces).  Every
 * namespace is enabled by it: nd_pmem gives /dev/pmemR, nd_blk
 * /dev/ndblkR.N with its format's capacity; a few sectors written through
 * each block device are read back, here and after the reload.
 *
 * Then the Summary diagram's BTTs, with configure_btt() as written (4096-
 * byte sectors): BTT0 on blk5.0 becomes /dev/ndblk5.0s (nd_blk binds the
 * btt device of a BLK region), I/O through it, and after the reload the
 * namespace is found claimed by its BTT again (autodetect) with the data.
 * BTT1 on blk3.1 and BTT2 on blk2.1 cannot exist on this platform: a BTT
 * needs 16 MiB behind its info block (4 KiB into the namespace for the
 * BTT 1.1 of v1.1 labels) and nfit_test's 32 MiB DIMMs leave those two
 * 8 MiB in the picture (region1's 16 MiB per DIMM minus pm1.0's share);
 * the kernel's refusal is checked, and the namespace stays a raw disk.
 * configure_btt() claims each namespace while it is still enabled, as
 * the document orders it, and disables it before the btt binds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <asm/byteorder.h>
#include <ndctl/libndctl.h>
#include "label-format.h"
#include "doc42.h"

#define MiB (1ULL << 20)
#define NDIMMS 4
/* the smallest namespace a BTT 1.1 fits in: 16 MiB behind a 4 KiB offset */
#define BTT11_MIN (16 * MiB + 4096)
#define NSLABEL_FLAG_LOCAL 0x2
#define NSLABEL_FLAG_UPDATING 0x8

/* ---------------------------------------------------------------- TAP */

static int ntests, nfailed;

static void __attribute__((format(printf, 2, 3)))
tap(bool cond, const char *fmt, ...)
{
	va_list ap;

	ntests++;
	if (!cond)
		nfailed++;
	printf("%s %d - ", cond ? "ok" : "not ok", ntests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void __attribute__((format(printf, 1, 2))) diag(const char *fmt, ...)
{
	va_list ap;

	printf("#   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* the library's log lines, kept until the next flush */
static char logbuf[16384];
static size_t loglen;

static void __attribute__((format(printf, 6, 0)))
log_fn(struct ndctl_ctx *ctx, int prio, const char *file, int line,
		const char *fn, const char *fmt, va_list args)
{
	int n;

	(void)ctx; (void)prio; (void)file; (void)line; (void)fn;
	if (loglen >= sizeof(logbuf) - 2)
		return;
	n = vsnprintf(logbuf + loglen, sizeof(logbuf) - loglen, fmt, args);
	if (n < 0)
		return;
	loglen += n;
	if (loglen >= sizeof(logbuf) - 1)
		loglen = sizeof(logbuf) - 2;
	if (loglen && logbuf[loglen - 1] != '\n')
		logbuf[loglen++] = '\n';
	logbuf[loglen] = '\0';
}

static void log_flush(void)
{
	char *p = logbuf, *nl;

	while (loglen && (nl = strchr(p, '\n'))) {
		*nl = '\0';
		printf("#   libndctl: %s\n", p);
		p = nl + 1;
	}
	loglen = 0;
	logbuf[0] = '\0';
}

static void log_reset(void)
{
	loglen = 0;
	logbuf[0] = '\0';
}

static struct ndctl_ctx *new_ctx(void)
{
	/* LIBNDCTL: instantiate a new library context example */
	struct ndctl_ctx *ctx = doc42_new_ctx();

	if (ctx) {
		ndctl_set_log_fn(ctx, log_fn);
		ndctl_set_log_priority(ctx, LOG_ERR);
	}
	return ctx;
}

/* ------------------------------------------------------------- helpers */

static int read_sysfs(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return 0;
}

/* size of /sys/block/NAME in bytes, 0 if unknown */
static unsigned long long blockdev_bytes(const char *name)
{
	char p[300], buf[64];

	snprintf(p, sizeof(p), "/sys/block/%s/size", name);
	if (read_sysfs(p, buf, sizeof(buf)))
		return 0;
	return strtoull(buf, NULL, 10) * 512;
}

/* logical block size of /sys/block/NAME, 0 if unknown */
static unsigned int blockdev_lbs(const char *name)
{
	char p[300], buf[64];

	snprintf(p, sizeof(p), "/sys/block/%s/queue/logical_block_size", name);
	if (read_sysfs(p, buf, sizeof(buf)))
		return 0;
	return strtoul(buf, NULL, 10);
}

/*
 * A BLK disk's bytes and logical block: sectors of 512 (formats below
 * 4096) or 4096 bytes, each taking its format rounded up to 64 bytes on
 * the namespace (docs/blk-aperture.md, tests/guest/nt-blk.sh)
 */
static unsigned int blk_ss(unsigned int lbasize)
{
	return lbasize < 4096 ? 512 : 4096;
}

static unsigned long long blk_bytes(unsigned long long size, unsigned int lbasize)
{
	return size / ((lbasize + 63) / 64 * 64) * blk_ss(lbasize);
}

#define IO_LEN (4 * 4096)

/* the pattern of @seed at byte @i of an I/O */
static void io_fill(unsigned char *buf, unsigned int seed)
{
	unsigned int i, x = seed * 2654435761u + 1;

	for (i = 0; i < IO_LEN; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = x >> 16;
	}
}

/*
 * Write (@write) or check 16 KiB of pattern @seed at the start and 16 KiB
 * of pattern @seed + 1 near the end of /dev/@bdev, with O_DIRECT so the
 * bytes cross the driver both ways.  Returns NULL or what went wrong.
 */
static const char *blockdev_io(const char *bdev, unsigned int seed, bool write)
{
	static char why[400];
	unsigned long long bytes = blockdev_bytes(bdev), off[2];
	unsigned char *buf = NULL, *want = NULL;
	char path[300];
	int fd, k;

	if (bytes < 2 * IO_LEN)
		return "no capacity";
	off[0] = 0;
	off[1] = (bytes - IO_LEN) / 4096 * 4096;
	snprintf(path, sizeof(path), "/dev/%s", bdev);
	fd = open(path, (write ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, sizeof(why), "open %s: %s", path, strerror(errno));
		return why;
	}
	if (posix_memalign((void **)&buf, 4096, IO_LEN)
			|| posix_memalign((void **)&want, 4096, IO_LEN)) {
		close(fd);
		free(buf);
		return "out of memory";
	}
	why[0] = '\0';
	for (k = 0; k < 2 && !why[0]; k++) {
		io_fill(want, seed + k);
		if (write) {
			if (pwrite(fd, want, IO_LEN, off[k]) != IO_LEN)
				snprintf(why, sizeof(why), "write at %llu: %s", off[k],
						strerror(errno));
		} else if (pread(fd, buf, IO_LEN, off[k]) != IO_LEN) {
			snprintf(why, sizeof(why), "read at %llu: %s", off[k],
					strerror(errno));
		} else if (memcmp(buf, want, IO_LEN)) {
			snprintf(why, sizeof(why), "16 KiB at %llu differ from what was written",
					off[k]);
		}
	}
	if (!why[0] && write && fsync(fd))
		snprintf(why, sizeof(why), "fsync: %s", strerror(errno));
	close(fd);
	free(buf);
	free(want);
	return why[0] ? why : NULL;
}

/* write, then read back; NULL when the bytes came back */
static const char *blockdev_rw(const char *bdev, unsigned int seed)
{
	return blockdev_io(bdev, seed, true) ?: blockdev_io(bdev, seed, false);
}

static const unsigned int dimm_handles[NDIMMS] = {
	DIMM_HANDLE(0, 0, 0, 0, 0), DIMM_HANDLE(0, 0, 0, 0, 1),
	DIMM_HANDLE(0, 0, 1, 0, 0), DIMM_HANDLE(0, 0, 1, 0, 1),
};

/* the document's picture, one entry per namespace */
struct nsplan {
	const char *pic;		/* its name in the document's picture */
	bool pmem;
	unsigned int where;		/* spa_index (pmem) or DIMM number (blk) */
	unsigned int region_id;		/* expected regionN */
	unsigned int id;		/* namespaceN.<id> */
	unsigned long long size;
	unsigned int lbasize;
	int dpa_extents;
	/* per DIMM: expected label extents [dpa, dpa + len) */
	struct { unsigned long long dpa, len; } ext[NDIMMS][2];
	/* region available_size (MiB) of region0..5 after this step */
	unsigned int avail[6];
};

#define E(d, l) { (d) * MiB, (l) * MiB }
static struct nsplan plan[] = {
	{ "pm0.0", true, 1, 0, 0, 16 * MiB, 0, 2,
	  { { E(0, 8) }, { E(0, 8) }, { }, { } },
	  { 16, 64, 24, 24, 32, 32 } },
	{ "pm1.0", true, 2, 1, 0, 32 * MiB, 0, 4,
	  { { E(16, 8) }, { E(16, 8) }, { E(16, 8) }, { E(16, 8) } },
	  { 16, 32, 16, 16, 24, 24 } },
	{ "blk2.0", false, 0, 2, 0, 8 * MiB, 512, 1,
	  { { E(8, 8) }, { }, { }, { } },
	  { 0, 32, 8, 16, 24, 24 } },
	{ "blk3.0", false, 1, 3, 0, 8 * MiB, 4096, 1,
	  { { }, { E(8, 8) }, { }, { } },
	  { 0, 32, 8, 8, 24, 24 } },
	{ "blk2.1", false, 0, 2, 1, 8 * MiB, 520, 1,
	  { { E(24, 8) }, { }, { }, { } },
	  { 0, 0, 0, 8, 24, 24 } },
	{ "blk3.1", false, 1, 3, 1, 8 * MiB, 528, 1,
	  { { }, { E(24, 8) }, { }, { } },
	  { 0, 0, 0, 0, 24, 24 } },
	{ "blk4.0", false, 2, 4, 0, 24 * MiB, 4160, 2,
	  { { }, { }, { E(0, 16), E(24, 8) }, { } },
	  { 0, 0, 0, 0, 0, 24 } },
	{ "blk5.0", false, 3, 5, 0, 24 * MiB, 4224, 2,
	  { { }, { }, { }, { E(0, 16), E(24, 8) } },
	  { 0, 0, 0, 0, 0, 0 } },
};
#define NPLAN (sizeof(plan) / sizeof(plan[0]))
/* the I/O pattern of a namespace's block device */
#define io_seed(p) (0xd0c42u + 16 * (unsigned int)((p) - plan))
/* fixed uuids (set in main), so that runs and logs compare */
static uuid_t plan_uuid[NPLAN];
#define UUID_OF(p) (plan_uuid[(p) - plan])
static const unsigned int avail_initial[6] = { 32, 64, 32, 32, 32, 32 };

static struct ndctl_region *region_of(struct ndctl_bus *bus, const struct nsplan *p)
{
	if (p->pmem)
		return get_pmem_region_by_spa_index(bus, p->where);
	return get_blk_region_by_dimm_handle(bus, dimm_handles[p->where]);
}

static struct ndctl_region *region_by_id(struct ndctl_bus *bus, unsigned int id)
{
	struct ndctl_region *region;

	ndctl_region_foreach(bus, region)
		if (ndctl_region_get_id(region) == id)
			return region;
	return NULL;
}

/* available_size of region0..5 against a row of MiB values */
static void check_available(struct ndctl_bus *bus, const unsigned int want[6],
		const char *when)
{
	char got[128] = "", exp[128] = "";
	bool same = true;
	unsigned int r;

	for (r = 0; r < 6; r++) {
		struct ndctl_region *region = region_by_id(bus, r);
		unsigned long long a = region
			? ndctl_region_get_available_size(region) : ~0ULL;
		size_t l = strlen(got), m = strlen(exp);

		if (a == ~0ULL)
			snprintf(got + l, sizeof(got) - l, "%s?", r ? " " : "");
		else if (a % MiB)
			snprintf(got + l, sizeof(got) - l, "%s%llu", r ? " " : "", a);
		else
			snprintf(got + l, sizeof(got) - l, "%s%llu", r ? " " : "", a / MiB);
		snprintf(exp + m, sizeof(exp) - m, "%s%u", r ? " " : "", want[r]);
		if (a != want[r] * MiB)
			same = false;
	}
	if (same)
		tap(true, "available_size of region0..5 %s: %s MiB", when, got);
	else
		tap(false, "available_size of region0..5 %s: got %s, want %s (MiB)",
				when, got, exp);
}

/* ----------------------------------------------------- enumeration */

static struct ndctl_bus *enumerate(struct ndctl_ctx *ctx)
{
	struct ndctl_bus *bus, *bus1;
	struct ndctl_region *region;
	struct ndctl_namespace *ndns;
	struct ndctl_dimm *dimm;
	int i, n;

	/* LIBNDCTL: bus enumeration example */
	bus = get_bus_by_provider(ctx, "nfit_test.0");
	tap(bus && !strcmp(ndctl_bus_get_devname(bus), "ndbus0"),
			"get_bus_by_provider(ctx, \"nfit_test.0\") is %s (want ndbus0)",
			bus ? ndctl_bus_get_devname(bus) : "NULL");
	if (!bus)
		return NULL;
	bus1 = get_bus_by_provider(ctx, "nfit_test.1");
	tap(bus1 && !strcmp(ndctl_bus_get_devname(bus1), "ndbus1"),
			"get_bus_by_provider(ctx, \"nfit_test.1\") is %s (want ndbus1)",
			bus1 ? ndctl_bus_get_devname(bus1) : "NULL");

	/* LIBNDCTL: DIMM enumeration example */
	for (i = 0; i < NDIMMS; i++) {
		char want[16];
		unsigned int h = dimm_handles[i];

		snprintf(want, sizeof(want), "nmem%d", i);
		dimm = get_dimm_by_handle(bus, h);
		/* the mock's DCR: serial ~handle, vendor 0xabcd, format 0x201,
		 * which 6.1 (and libndctl) show big-endian */
		tap(dimm && !strcmp(ndctl_dimm_get_devname(dimm), want)
				&& ndctl_dimm_get_phys_id(dimm) == i
				&& ndctl_dimm_get_serial(dimm) == __builtin_bswap32(~h)
				&& ndctl_dimm_get_vendor(dimm) == 0xcdab
				&& ndctl_dimm_get_format(dimm) == 0x0201
				&& ndctl_dimm_handle_get_imc(dimm) == (h >> 8 & 0xf)
				&& ndctl_dimm_handle_get_dimm(dimm) == (h & 0xf),
				"get_dimm_by_handle(bus, DIMM_HANDLE(0, 0, %u, 0, %u)) is %s, "
				"phys_id %d, serial %#x, vendor %#x, format %#x "
				"(want %s, %d, %#x, 0xcdab, 0x201)",
				h >> 8 & 0xf, h & 0xf,
				dimm ? ndctl_dimm_get_devname(dimm) : "NULL",
				dimm ? ndctl_dimm_get_phys_id(dimm) : -1,
				dimm ? ndctl_dimm_get_serial(dimm) : 0,
				dimm ? ndctl_dimm_get_vendor(dimm) : 0,
				dimm ? ndctl_dimm_get_format(dimm) : 0,
				want, i, __builtin_bswap32(~h));
		if (dimm)
			tap(ndctl_dimm_has_labels_support(dimm)
					&& ndctl_dimm_is_enabled(dimm)
					&& ndctl_dimm_is_active(dimm),
					"%s: label commands, enabled, active",
					ndctl_dimm_get_devname(dimm));
	}
	n = 0;
	ndctl_dimm_foreach(bus, dimm)
		n++;
	tap(n == NDIMMS, "ndctl_dimm_foreach: %d DIMMs on nfit_test.0 (want 4)", n);

	/* LIBNDCTL: region enumeration example */
	for (i = 1; i <= 2; i++) {
		unsigned int ways = i == 1 ? 2 : 4, want_id = i - 1;
		unsigned long long off = i == 1 ? 0 : 16 * MiB;
		struct ndctl_mapping *map;
		int good = 0, nmap = 0;

		region = get_pmem_region_by_spa_index(bus, i);
		tap(region && ndctl_region_get_id(region) == want_id,
				"get_pmem_region_by_spa_index(bus, %d) is %s (want region%u)",
				i, region ? ndctl_region_get_devname(region) : "NULL", want_id);
		if (!region)
			continue;
		ndctl_mapping_foreach(region, map) {
			struct ndctl_dimm *d = ndctl_mapping_get_dimm(map);

			nmap++;
			if (d && ndctl_dimm_get_handle(d) == dimm_handles[nmap - 1]
					&& ndctl_mapping_get_offset(map) == off
					&& ndctl_mapping_get_length(map) == 16 * MiB)
				good++;
		}
		tap(ndctl_region_get_type(region) == ND_DEVICE_REGION_PMEM
				&& ndctl_region_get_nstype(region) == ND_DEVICE_NAMESPACE_PMEM
				&& ndctl_region_get_interleave_ways(region) == ways
				&& ndctl_region_get_size(region) == ways * 16 * MiB
				&& nmap == (int)ways && good == (int)ways,
				"region%u: pmem, nstype %u, %u-way, %llu MiB, %d/%d mappings at DPA %llu MiB + 16 MiB",
				want_id, ndctl_region_get_nstype(region),
				ndctl_region_get_interleave_ways(region),
				ndctl_region_get_size(region) / MiB, good, nmap, off / MiB);
	}
	tap(get_pmem_region_by_spa_index(bus, 3) == NULL,
			"get_pmem_region_by_spa_index(bus, 3) is NULL (a control region)");
	for (i = 0; i < NDIMMS; i++) {
		struct ndctl_mapping *map;
		unsigned int want_id = 2 + i;

		region = get_blk_region_by_dimm_handle(bus, dimm_handles[i]);
		tap(region && ndctl_region_get_id(region) == want_id,
				"get_blk_region_by_dimm_handle(bus, DIMM_HANDLE(0, 0, %u, 0, %u)) is %s (want region%u)",
				dimm_handles[i] >> 8 & 0xf, dimm_handles[i] & 0xf,
				region ? ndctl_region_get_devname(region) : "NULL", want_id);
		if (!region)
			continue;
		map = ndctl_mapping_get_first(region);
		tap(ndctl_region_get_type(region) == ND_DEVICE_REGION_BLOCK
				&& ndctl_region_get_nstype(region) == ND_DEVICE_NAMESPACE_BLK
				&& !strcmp(ndctl_region_get_type_name(region), "blk")
				&& ndctl_region_get_size(region) == 32 * MiB
				&& ndctl_region_get_mappings(region) == 1
				&& map && ndctl_mapping_get_offset(map) == 0
				&& ndctl_mapping_get_length(map) == 32 * MiB,
				"region%u: blk, nstype %u, %llu MiB, one mapping of DPA [0, 32 MiB)",
				want_id, ndctl_region_get_nstype(region),
				ndctl_region_get_size(region) / MiB);
	}
	n = 0;
	ndctl_region_foreach(bus, region)
		n++;
	tap(n == 6, "ndctl_region_foreach: %d regions on nfit_test.0 (want 6)", n);
	check_available(bus, avail_initial, "before any namespace");

	/* LIBNDCTL: namespace enumeration example: the idle seeds */
	for (i = 0; i < 6; i++) {
		unsigned int want_type = i < 2 ? ND_DEVICE_NAMESPACE_PMEM
			: ND_DEVICE_NAMESPACE_BLK;

		region = region_by_id(bus, i);
		ndns = region ? get_namespace_by_id(region, 0) : NULL;
		tap(ndns && ndctl_namespace_get_type(ndns) == want_type
				&& ndctl_region_get_namespace_seed(region) == ndns
				&& ndctl_namespace_get_size(ndns) == 0
				&& !ndctl_namespace_is_enabled(ndns)
				&& (want_type == ND_DEVICE_NAMESPACE_PMEM
				    || ndctl_namespace_get_num_sector_sizes(ndns) >= 1),
				"get_namespace_by_id(region%d, 0): %s, type %u, idle seed of size 0",
				i, ndns ? ndctl_namespace_get_devname(ndns) : "NULL",
				ndns ? ndctl_namespace_get_type(ndns) : 0);
	}
	if (bus1) {
		region = ndctl_region_get_first(bus1);
		ndns = region ? get_namespace_by_id(region, 0) : NULL;
		tap(ndns && !strcmp(ndctl_namespace_get_devname(ndns), "namespace6.0")
				&& ndctl_namespace_get_type(ndns) == ND_DEVICE_NAMESPACE_IO
				&& ndctl_namespace_is_enabled(ndns)
				&& !strcmp(ndctl_namespace_get_block_device(ndns) ?: "", "pmem6"),
				"get_namespace_by_id(region6, 0): %s, io, enabled, block device %s",
				ndns ? ndctl_namespace_get_devname(ndns) : "NULL",
				ndns ? ndctl_namespace_get_block_device(ndns) ?: "none" : "-");
	}
	log_flush();
	return bus;
}

/* ----------------------------------------------------- configuration */

/* the namespace's state as a fresh library context reads it from sysfs */
static void check_config(const struct nsplan *p, bool after_reload)
{
	struct ndctl_ctx *ctx = new_ctx();
	struct ndctl_bus *bus = ctx ? get_bus_by_provider(ctx, "nfit_test.0") : NULL;
	struct ndctl_region *region = bus ? region_by_id(bus, p->region_id) : NULL;
	struct ndctl_namespace *ndns = region ? get_namespace_by_id(region, p->id) : NULL;
	char want_name[50], us[40], gs[40];
	const char *tag = after_reload ? " after reload" : "";
	uuid_t got;
	int ext;

	snprintf(want_name, sizeof(want_name), "namespace%u.%u", p->region_id, p->id);
	if (!ndns) {
		tap(false, "%s (%s)%s: not found by a fresh context", want_name, p->pic, tag);
		log_flush();
		if (ctx)
			ndctl_unref(ctx);
		return;
	}
	ndctl_namespace_get_uuid(ndns, got);
	uuid_unparse(UUID_OF(p), us);
	uuid_unparse(got, gs);
	ext = ndctl_namespace_get_dpa_extents(ndns);
	tap(!strcmp(ndctl_namespace_get_alt_name(ndns), want_name)
			&& !uuid_compare(got, UUID_OF(p))
			&& ndctl_namespace_get_size(ndns) == p->size
			&& ndctl_namespace_get_type(ndns) == (p->pmem
				? ND_DEVICE_NAMESPACE_PMEM : ND_DEVICE_NAMESPACE_BLK),
			"%s (%s)%s: alt_name '%s', uuid %s, size %llu MiB, type %u",
			want_name, p->pic, tag, ndctl_namespace_get_alt_name(ndns), gs,
			ndctl_namespace_get_size(ndns) / MiB, ndctl_namespace_get_type(ndns));
	if (strcmp(gs, us))
		diag("uuid: got %s, want %s", gs, us);
	if (ndctl_namespace_get_size(ndns) % MiB)
		diag("size: %llu bytes", ndctl_namespace_get_size(ndns));
	if (!p->pmem)
		tap(ndctl_namespace_get_sector_size(ndns) == p->lbasize,
				"%s%s: sector_size %u (want %u)", want_name, tag,
				ndctl_namespace_get_sector_size(ndns), p->lbasize);
	tap(ext == p->dpa_extents, "%s%s: dpa_extents %d (want %d: %s)", want_name,
			tag, ext, p->dpa_extents, p->pmem ? "one per DIMM of the set"
			: p->dpa_extents > 1 ? "discontiguous extents" : "one extent");
	log_flush();
	ndctl_unref(ctx);
}

static void configure_all(struct ndctl_bus *bus)
{
	unsigned int i;

	for (i = 0; i < NPLAN; i++) {
		struct nsplan *p = &plan[i];
		struct ndctl_region *region = region_of(bus, p);
		struct ndctl_namespace *ndns;
		struct namespace_parameters np;
		const char *bdev;
		int rc;

		if (!region || ndctl_region_get_id(region) != p->region_id) {
			tap(false, "%s: region%u not found", p->pic, p->region_id);
			continue;
		}
		ndns = get_namespace_by_id(region, p->id);
		if (!ndns || ndctl_region_get_namespace_seed(region) != ndns) {
			tap(false, "%s: get_namespace_by_id(region%u, %u) is %s, seed %s",
					p->pic, p->region_id, p->id,
					ndns ? ndctl_namespace_get_devname(ndns) : "NULL",
					ndctl_region_get_namespace_seed(region)
					? ndctl_namespace_get_devname(
						ndctl_region_get_namespace_seed(region)) : "none");
			log_flush();
			continue;
		}
		tap(true, "%s: get_namespace_by_id(region%u, %u) is the seed %s",
				p->pic, p->region_id, p->id, ndctl_namespace_get_devname(ndns));
		memset(&np, 0, sizeof(np));
		np.id = p->id;
		uuid_copy(np.uuid, UUID_OF(p));
		np.size = p->size;
		np.lbasize = p->lbasize;
		log_reset();
		rc = configure_namespace(region, ndns, &np);
		if (p->pmem) {
			bdev = ndctl_namespace_get_block_device(ndns);
			tap(rc == 0 && ndctl_namespace_is_enabled(ndns) && bdev
					&& blockdev_bytes(bdev) == p->size,
					"configure_namespace(region%u, %s, {%llu MiB}): rc %d, enabled, /dev/%s of %llu MiB",
					p->region_id, ndctl_namespace_get_devname(ndns),
					p->size / MiB, rc, bdev ?: "(none)",
					bdev ? blockdev_bytes(bdev) / MiB : 0);
		} else {
			/* nd_blk binds it: /dev/ndblkR.N in the namespace's format */
			unsigned long long want = blk_bytes(p->size, p->lbasize);
			char want_bdev[40];

			snprintf(want_bdev, sizeof(want_bdev), "ndblk%u.%u",
					p->region_id, p->id);
			bdev = ndctl_namespace_get_block_device(ndns);
			tap(rc == 0 && ndctl_namespace_is_enabled(ndns) && bdev
					&& !strcmp(bdev, want_bdev)
					&& blockdev_bytes(bdev) == want
					&& blockdev_lbs(bdev) == blk_ss(p->lbasize),
					"configure_namespace(region%u, %s, {%llu MiB, lbasize %u}): "
					"rc %d, enabled, /dev/%s of %llu bytes, %u-byte blocks "
					"(want %s, %llu, %u)",
					p->region_id, ndctl_namespace_get_devname(ndns),
					p->size / MiB, p->lbasize, rc, bdev ?: "(none)",
					bdev ? blockdev_bytes(bdev) : 0,
					bdev ? blockdev_lbs(bdev) : 0, want_bdev, want,
					blk_ss(p->lbasize));
			if (bdev) {
				const char *why = blockdev_rw(bdev, io_seed(p));

				tap(!why, "/dev/%s: 16 KiB written at its start and near its "
						"end read back%s%s", bdev, why ? ": " : "",
						why ?: "");
			}
		}
		log_flush();
		check_config(p, false);
		check_available(bus, p->avail, p->pic);
	}
}

/* ----------------------------------------------------- labels */

struct label {
	uuid_t uuid;
	char name[65];
	unsigned int flags, nlabel, position;
	unsigned long long cookie, lbasize, dpa, rawsize;
};

/* the live labels of a DIMM's current index; -errno or their number */
static int read_labels(struct ndctl_dimm *dimm, struct label *out, int max,
		int *version)
{
	unsigned int size = 0, max_xfer = 0, nslot, k;
	const struct nd_lsa_index *cur;
	struct nd_lsa lsa;
	int rc, n = 0;

	rc = ndctl_dimm_get_config_size(dimm, &size, &max_xfer);
	if (rc)
		return rc;
	lsa.area = malloc(size);
	if (!lsa.area)
		return -ENOMEM;
	lsa.size = size;
	rc = ndctl_dimm_read_label_area(dimm, lsa.area, 0, size);
	if (rc) {
		free(lsa.area);
		return rc;
	}
	if (nd_lsa_validate(&lsa) < 0) {
		*version = 0;
		free(lsa.area);
		return 0;
	}
	cur = nd_lsa_index(&lsa, lsa.cur);
	*version = 10 + le16_to_cpu(cur->minor);
	nslot = nd_lsa_index_nslot(cur);
	for (k = 0; k < nslot && n < max; k++) {
		const struct nd_lsa_label *l = nd_lsa_label(&lsa, k);
		struct label *lb = &out[n];

		if (nd_lsa_slot_is_free(cur, k) || le32_to_cpu(l->slot) != k)
			continue;
		memcpy(lb->uuid, l->uuid, sizeof(lb->uuid));
		memcpy(lb->name, l->name, sizeof(l->name));
		lb->name[sizeof(l->name)] = '\0';
		lb->flags = le32_to_cpu(l->flags);
		lb->nlabel = le16_to_cpu(l->nlabel);
		lb->position = le16_to_cpu(l->position);
		lb->cookie = le64_to_cpu(l->isetcookie);
		lb->lbasize = le64_to_cpu(l->lbasize);
		lb->dpa = le64_to_cpu(l->dpa);
		lb->rawsize = le64_to_cpu(l->rawsize);
		n++;
	}
	free(lsa.area);
	return n;
}

static int dimm_position(struct ndctl_region *region, struct ndctl_dimm *dimm)
{
	struct ndctl_mapping *map;
	int i = 0;

	ndctl_mapping_foreach(region, map) {
		if (ndctl_mapping_get_dimm(map) == dimm) {
			int pos = ndctl_mapping_get_position(map);

			return pos >= 0 ? pos : i;
		}
		i++;
	}
	return -1;
}

static void check_labels(struct ndctl_bus *bus)
{
	int d;

	for (d = 0; d < NDIMMS; d++) {
		struct ndctl_dimm *dimm = get_dimm_by_handle(bus, dimm_handles[d]);
		struct label labels[16];
		bool matched[16] = { false };
		int n, i, version = 0, want = 0, good = 0;
		unsigned int k;

		if (!dimm) {
			tap(false, "DIMM %d not found for the label check", d);
			continue;
		}
		n = read_labels(dimm, labels, 16, &version);
		if (n < 0) {
			tap(false, "%s: label area unreadable: %s",
					ndctl_dimm_get_devname(dimm), strerror(-n));
			log_flush();
			continue;
		}
		for (k = 0; k < NPLAN; k++) {
			const struct nsplan *p = &plan[k];
			struct ndctl_region *region = region_by_id(bus, p->region_id);
			char want_name[50];
			int e;

			snprintf(want_name, sizeof(want_name), "namespace%u.%u",
					p->region_id, p->id);
			for (e = 0; e < 2; e++) {
				unsigned long long dpa = p->ext[d][e].dpa, len = p->ext[d][e].len;
				bool hit = false;

				if (!len)
					continue;
				want++;
				for (i = 0; i < n; i++) {
					struct label *lb = &labels[i];
					bool fields;

					if (matched[i] || uuid_compare(lb->uuid, UUID_OF(p))
							|| lb->dpa != dpa)
						continue;
					matched[i] = hit = true;
					if (p->pmem)
						fields = lb->nlabel == (p->where == 1 ? 2 : 4)
							&& (int)lb->position == dimm_position(region, dimm)
							&& lb->cookie == ndctl_region_get_set_cookie(region)
							&& !(lb->flags & (NSLABEL_FLAG_LOCAL | NSLABEL_FLAG_UPDATING));
					else
						fields = lb->nlabel == 0 && lb->position == 0
							&& lb->cookie == 0
							&& lb->flags == NSLABEL_FLAG_LOCAL
							&& lb->lbasize == p->lbasize;
					if (lb->rawsize == len && fields && !strcmp(lb->name, want_name))
						good++;
					else
						diag("%s: %s label at DPA %#llx: rawsize %#llx (want %#llx), name '%s', "
							"flags %#x, nlabel %u, position %u, cookie %#llx, lbasize %llu",
							ndctl_dimm_get_devname(dimm), p->pic, dpa,
							lb->rawsize, len, lb->name, lb->flags, lb->nlabel,
							lb->position, lb->cookie, lb->lbasize);
					break;
				}
				if (!hit)
					diag("%s: no %s label at DPA %#llx (+%#llx)",
							ndctl_dimm_get_devname(dimm), p->pic, dpa, len);
			}
		}
		for (i = 0; i < n; i++)
			if (!matched[i]) {
				char us[40];

				uuid_unparse(labels[i].uuid, us);
				diag("%s: unexpected label %s '%s' DPA %#llx +%#llx flags %#x",
						ndctl_dimm_get_devname(dimm), us, labels[i].name,
						labels[i].dpa, labels[i].rawsize, labels[i].flags);
			}
		tap(good == want && n == want,
				"%s: %d labels (v1.%d index), %d as the picture wants them (DPA, rawsize, "
				"name, flags, nlabel, position, cookie, lbasize; want %d)",
				ndctl_dimm_get_devname(dimm), n, version % 10, good, want);
		log_flush();
	}
}

/* ----------------------------------------------------- btt */

/* the Summary LIBNDCTL Diagram's BTTs, in its order */
static const struct summary_btt {
	const char *label;		/* the diagram's name */
	unsigned int plan;		/* index in plan[] of its namespace */
} summary_btts[] = {
	{ "BTT0", 7 },			/* blk5.0 */
	{ "BTT1", 5 },			/* blk3.1 */
	{ "BTT2", 4 },			/* blk2.1 */
};
#define NBTT (sizeof(summary_btts) / sizeof(summary_btts[0]))
#define BTT_SECTOR 4096
/* fixed btt uuids (set in main) */
static uuid_t btt_uuid[NBTT];

static unsigned int btt_seed_io(unsigned int i)
{
	return 0xb77u + 16 * i;
}

static void btt_example(struct ndctl_bus *bus)
{
	unsigned int i;

	for (i = 0; i < NBTT; i++) {
		const struct summary_btt *sb = &summary_btts[i];
		const struct nsplan *p = &plan[sb->plan];
		struct ndctl_region *region = region_of(bus, p);
		struct ndctl_namespace *ndns = region ? get_namespace_by_id(region, p->id) : NULL;
		struct ndctl_btt *btt, *seed;
		struct btt_parameters bp;
		const char *devname, *bdev;
		bool fits = p->size >= BTT11_MIN;
		char want_bdev[40];
		int rc;
		bool was_on;

		if (!ndns) {
			tap(false, "%s on %s: region%u or its namespace %u not found",
					sb->label, p->pic, p->region_id, p->id);
			continue;
		}
		devname = ndctl_namespace_get_devname(ndns);
		/* LIBNDCTL: btt creation example */
		btt = get_idle_btt(region);
		seed = ndctl_region_get_btt_seed(region);
		tap(btt && btt == seed,
				"%s on %s: get_idle_btt(region%u) is %s, the region's btt seed %s",
				sb->label, p->pic, p->region_id,
				btt ? ndctl_btt_get_devname(btt) : "NULL",
				seed ? ndctl_btt_get_devname(seed) : "NULL");
		if (!btt)
			continue;
		was_on = ndctl_namespace_is_enabled(ndns);
		memset(&bp, 0, sizeof(bp));
		uuid_copy(bp.uuid, btt_uuid[i]);
		bp.sector_size = BTT_SECTOR;
		bp.ndns = ndns;
		log_reset();
		rc = configure_btt(region, &bp);
		snprintf(want_bdev, sizeof(want_bdev), "ndblk%u.%us", p->region_id, p->id);
		if (fits) {
			const char *why;

			bdev = ndctl_btt_get_block_device(btt);
			tap(was_on && rc == 0 && ndctl_btt_is_enabled(btt)
					&& ndctl_btt_get_namespace(btt) == ndns
					&& ndctl_namespace_get_btt(ndns) == btt
					&& ndctl_namespace_get_mode(ndns) == NDCTL_NS_MODE_SAFE
					&& bdev && !strcmp(bdev, want_bdev)
					&& blockdev_lbs(bdev) == BTT_SECTOR
					&& blockdev_bytes(bdev) == ndctl_btt_get_size(btt)
					&& ndctl_btt_get_size(btt) > p->size - 2 * MiB
					&& ndctl_btt_get_size(btt) < p->size,
					"configure_btt(region%u, {%s, %u}) (%s on %s): rc %d, %s "
					"enabled by nd_blk, /dev/%s of %llu bytes, %u-byte blocks "
					"(want %s)", p->region_id, devname, BTT_SECTOR, sb->label,
					p->pic, rc, ndctl_btt_get_devname(btt), bdev ?: "(none)",
					bdev ? blockdev_bytes(bdev) : 0, bdev ? blockdev_lbs(bdev) : 0,
					want_bdev);
			log_flush();
			if (!bdev)
				continue;
			why = blockdev_rw(bdev, btt_seed_io(i));
			tap(!why, "/dev/%s: 16 KiB written through the BTT at its start "
					"and near its end read back%s%s", bdev,
					why ? ": " : "", why ?: "");
			seed = ndctl_region_get_btt_seed(region);
			tap(seed && seed != btt && !ndctl_btt_is_configured(seed),
					"region%u: a new idle btt seed %s after %s was enabled",
					p->region_id, seed ? ndctl_btt_get_devname(seed) : "(none)",
					ndctl_btt_get_devname(btt));
		} else {
			bool refused = strstr(logbuf, "failed to set namespace: No such device or address");
			int erc;

			/* too small for a BTT: nothing claims it, back to a raw disk */
			tap(was_on && rc < 0 && refused && !ndctl_btt_is_enabled(btt)
					&& !ndctl_namespace_get_btt(ndns),
					"configure_btt(region%u, {%s, %u}) (%s on %s): refused as "
					"the kernel must: %llu MiB holds no BTT (16 MiB + 4 KiB "
					"needed); rc %d", p->region_id, devname, BTT_SECTOR,
					sb->label, p->pic, p->size / MiB, rc);
			if (!refused)
				log_flush();
			log_reset();
			ndctl_btt_delete(btt);
			erc = ndctl_namespace_enable(ndns);
			bdev = ndctl_namespace_get_block_device(ndns);
			seed = ndctl_region_get_btt_seed(region);
			want_bdev[strlen(want_bdev) - 1] = '\0';	/* no "s" */
			tap(erc == 0 && bdev && !strcmp(bdev, want_bdev)
					&& seed && !ndctl_btt_is_enabled(seed)
					&& !ndctl_btt_get_namespace(seed)
					&& !ndctl_namespace_get_btt(ndns),
					"%s: enabled raw again (/dev/%s); %s claims nothing (rc %d)",
					devname, bdev ?: "(none)",
					seed ? ndctl_btt_get_devname(seed) : "no btt seed", erc);
			/*
			 * "" written to namespace (ndctl_btt_delete()) resets an
			 * unclaimed btt too: read the kernel's answer, not the
			 * library's copy
			 */
			{
				char p_uuid[300], p_ss[300], uuid[64] = "?", ss[128] = "?";
				const char *name = seed ? ndctl_btt_get_devname(seed) : "none";

				snprintf(p_uuid, sizeof(p_uuid), "/sys/bus/nd/devices/%s/uuid", name);
				snprintf(p_ss, sizeof(p_ss), "/sys/bus/nd/devices/%s/sector_size", name);
				read_sysfs(p_uuid, uuid, sizeof(uuid));
				read_sysfs(p_ss, ss, sizeof(ss));
				tap(seed && !uuid[0] && !strchr(ss, '['),
						"%s: the uuid and sector size configure_btt() wrote are "
						"reset by ndctl_btt_delete() (uuid '%s', sector_size '%s')",
						name, uuid, ss);
			}
			log_flush();
		}
	}
}

/* ----------------------------------------------------- reload */

/* regions off, DIMMs off (the kernel drops its label copy), all back on */
static int reload_bus(struct ndctl_ctx *ctx)
{
	struct ndctl_bus *bus = get_bus_by_provider(ctx, "nfit_test.0");
	struct ndctl_region *region;
	struct ndctl_dimm *dimm;
	int rc = 0, r;

	if (!bus)
		return -ENXIO;
	ndctl_region_foreach(bus, region) {
		struct ndctl_namespace *ndns;

		ndctl_namespace_foreach(region, ndns)
			ndctl_namespace_disable(ndns);
		r = ndctl_region_disable(region);
		if (r) rc = r;
	}
	ndctl_dimm_foreach(bus, dimm) {
		r = ndctl_dimm_disable(dimm);
		if (r) rc = r;
	}
	ndctl_dimm_foreach(bus, dimm) {
		r = ndctl_dimm_enable(dimm);
		if (r) rc = r;
	}
	ndctl_region_foreach(bus, region) {
		r = ndctl_region_enable(region);
		if (r) rc = r;
	}
	return rc;
}

/* the Summary diagram's BTT on plan entry @p that fits there, or -1 */
static int summary_btt_of(const struct nsplan *p)
{
	unsigned int j;

	for (j = 0; j < NBTT; j++)
		if (&plan[summary_btts[j].plan] == p && p->size >= BTT11_MIN)
			return j;
	return -1;
}

/*
 * A BLK namespace after the reload: nd_blk bound it at region enable as a
 * raw disk, or its BTT claimed it (autodetect: the info block on the
 * media); the bytes written before are still there.
 */
static void check_blk_after_reload(const struct nsplan *p,
		struct ndctl_namespace *ndns)
{
	const char *devname = ndctl_namespace_get_devname(ndns), *bdev, *why;
	int j = summary_btt_of(p);
	char want_bdev[40];

	snprintf(want_bdev, sizeof(want_bdev), "ndblk%u.%u%s", p->region_id,
			p->id, j >= 0 ? "s" : "");
	if (j >= 0) {
		struct ndctl_btt *btt = ndctl_namespace_get_btt(ndns);
		uuid_t uu;

		ndctl_btt_get_uuid(btt, uu);
		bdev = btt ? ndctl_btt_get_block_device(btt) : NULL;
		tap(btt && ndctl_btt_is_enabled(btt) && !uuid_compare(uu, btt_uuid[j])
				&& ndctl_btt_get_sector_size(btt) == BTT_SECTOR
				&& !ndctl_namespace_is_enabled(ndns)
				&& bdev && !strcmp(bdev, want_bdev),
				"%s after reload: claimed by %s (%s found on the media: its "
				"uuid, %u-byte sectors), /dev/%s", devname,
				btt ? ndctl_btt_get_devname(btt) : "no btt",
				summary_btts[j].label, btt ? ndctl_btt_get_sector_size(btt) : 0,
				bdev ?: "(none)");
		if (!bdev)
			return;
		why = blockdev_io(bdev, btt_seed_io(j), false);
		tap(!why, "/dev/%s after reload: the bytes written through the BTT%s%s",
				bdev, why ? ": " : "", why ?: "");
		return;
	}
	bdev = ndctl_namespace_get_block_device(ndns);
	tap(ndctl_namespace_is_enabled(ndns) && bdev && !strcmp(bdev, want_bdev)
			&& blockdev_bytes(bdev) == blk_bytes(p->size, p->lbasize),
			"%s after reload: enabled by nd_blk, /dev/%s of %llu bytes (want %s)",
			devname, bdev ?: "(none)", bdev ? blockdev_bytes(bdev) : 0, want_bdev);
	if (!bdev)
		return;
	why = blockdev_io(bdev, io_seed(p), false);
	tap(!why, "/dev/%s after reload: the bytes written before%s%s", bdev,
			why ? ": " : "", why ?: "");
}

static void after_reload(void)
{
	struct ndctl_ctx *ctx = new_ctx();
	struct ndctl_bus *bus;
	unsigned int i;
	int rc;

	if (!ctx) {
		tap(false, "ndctl_new() for the reload");
		return;
	}
	rc = reload_bus(ctx);
	tap(rc == 0, "nfit_test.0 regions and DIMMs disabled and re-enabled (rc %d)", rc);
	log_flush();
	ndctl_unref(ctx);

	for (i = 0; i < NPLAN; i++)
		check_config(&plan[i], true);
	ctx = new_ctx();
	bus = get_bus_by_provider(ctx, "nfit_test.0");
	if (!bus) {
		tap(false, "nfit_test.0 gone after the reload");
		ndctl_unref(ctx);
		return;
	}
	for (i = 0; i < NPLAN; i++) {
		const struct nsplan *p = &plan[i];
		struct ndctl_region *region = region_by_id(bus, p->region_id);
		struct ndctl_namespace *ndns = region ? get_namespace_by_id(region, p->id) : NULL;
		const char *bdev;

		if (!ndns)
			continue;
		if (p->pmem) {
			/* nd_pmem binds label-backed namespaces at region enable */
			bdev = ndctl_namespace_get_block_device(ndns);
			tap(ndctl_namespace_is_enabled(ndns) && bdev
					&& blockdev_bytes(bdev) == p->size,
					"%s after reload: enabled by nd_pmem, /dev/%s of %llu MiB",
					ndctl_namespace_get_devname(ndns), bdev ?: "(none)",
					bdev ? blockdev_bytes(bdev) / MiB : 0);
			continue;
		}
		check_blk_after_reload(p, ndns);
	}
	check_available(bus, plan[NPLAN - 1].avail, "after reload");
	log_flush();
	ndctl_unref(ctx);
}

/* ----------------------------------------------------- destroy */

static int destroy_all(void)
{
	struct ndctl_ctx *ctx = new_ctx();
	struct ndctl_bus *bus = ctx ? get_bus_by_provider(ctx, "nfit_test.0") : NULL;
	struct ndctl_region *region;
	int n = 0, bad = 0;

	if (!bus) {
		tap(false, "get_bus_by_provider(ctx, \"nfit_test.0\")");
		return 1;
	}
	ndctl_region_foreach(bus, region) {
		struct ndctl_namespace *ndns, *next;

		ndctl_namespace_foreach_safe(region, ndns, next) {
			int rc;

			if (!ndctl_namespace_get_size(ndns))
				continue;
			rc = ndctl_namespace_disable_invalidate(ndns);
			if (!rc)
				rc = ndctl_namespace_delete(ndns);
			if (rc) {
				bad++;
				diag("%s: delete failed: %s", ndctl_namespace_get_devname(ndns),
						strerror(-rc));
			}
			n++;
		}
	}
	tap(bad == 0, "deleted %d namespaces of nfit_test.0 (%d failures)", n, bad);
	log_flush();
	ndctl_unref(ctx);

	ctx = new_ctx();
	bus = get_bus_by_provider(ctx, "nfit_test.0");
	n = 0;
	ndctl_region_foreach(bus, region) {
		struct ndctl_namespace *ndns;

		ndctl_namespace_foreach(region, ndns)
			if (ndctl_namespace_get_size(ndns)) {
				diag("%s still has %llu bytes", ndctl_namespace_get_devname(ndns),
						ndctl_namespace_get_size(ndns));
				n++;
			}
	}
	tap(n == 0, "no namespace of nfit_test.0 holds capacity (%d do)", n);
	check_available(bus, avail_initial, "after deleting everything");
	{
		struct ndctl_dimm *dimm;
		struct label labels[16];
		int live = 0, version;

		ndctl_dimm_foreach(bus, dimm) {
			int k = read_labels(dimm, labels, 16, &version);

			if (k > 0)
				live += k;
		}
		tap(live == 0, "no live labels left on nmem0..3 (%d)", live);
	}
	log_flush();
	ndctl_unref(ctx);
	return 0;
}

int main(int argc, char **argv)
{
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	if (argc > 1 && !strcmp(argv[1], "--destroy")) {
		destroy_all();
		goto out;
	}
	if (argc > 1) {
		fprintf(stderr, "usage: %s [--destroy]\n", argv[0]);
		return 2;
	}
	for (i = 0; i < NPLAN; i++) {
		char s[40];

		snprintf(s, sizeof(s), "d0c42000-0000-4000-8000-%012x", i + 1);
		uuid_parse(s, plan_uuid[i]);
	}
	for (i = 0; i < NBTT; i++) {
		char s[40];

		snprintf(s, sizeof(s), "d0c42b77-0000-4000-8000-%012x", i);
		uuid_parse(s, btt_uuid[i]);
	}

	ctx = new_ctx();
	tap(ctx != NULL, "ndctl_new(&ctx) == 0: a library context");
	if (!ctx)
		goto out;
	bus = enumerate(ctx);
	if (!bus)
		goto out;
	configure_all(bus);
	check_labels(bus);
	btt_example(bus);
	ndctl_unref(ctx);
	after_reload();
out:
	printf("1..%d\n", ntests);
	printf("# %d passed, %d failed\n", ntests - nfailed, nfailed);
	return nfailed ? 1 : 0;
}
