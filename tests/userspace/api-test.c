// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libndctl API tests against fake sysfs trees (built by fakesys.py).
 * Prints "PASS desc" / "FAIL desc" lines; run.sh turns them into TAP.
 *
 * usage: api-test doc42 ROOT        (ROOT from `fakesys.py ROOT nfit_test`)
 *        api-test robust ROOT       (ROOT from `fakesys.py ROOT qemu-labelled`)
 *        api-test lsa ROOT          (ROOT from `fakesys.py ROOT qemu --dev`; label
 *                                    ioctls answered by the linked fake_ioctl.c)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ndctl/libndctl.h>

static int failures;

#define CHECK(cond, ...) do { \
	char _d[256]; \
	snprintf(_d, sizeof(_d), __VA_ARGS__); \
	if (cond) printf("PASS %s\n", _d); \
	else { printf("FAIL %s (%s:%d)\n", _d, __FILE__, __LINE__); failures++; } \
} while (0)

static char root[PATH_MAX];

static void set_roots(const char *r)
{
	char p[PATH_MAX];

	snprintf(root, sizeof(root), "%s", r);
	snprintf(p, sizeof(p), "%s/sys", r);
	setenv("NDCTL_SYSFS_ROOT", p, 1);
	snprintf(p, sizeof(p), "%s/dev", r);
	setenv("NDCTL_DEV_ROOT", p, 1);
}

/* read a fake attribute file back, raw (NUL included) */
static int slurp(const char *dir, const char *attr, char *buf, size_t len)
{
	char p[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, attr);
	fd = open(p, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static int count_lines;
static void quiet_log(struct ndctl_ctx *ctx, int prio, const char *file,
		int line, const char *fn, const char *fmt, va_list args)
{
	(void)ctx; (void)prio; (void)file; (void)line; (void)fn; (void)fmt;
	(void)args;
	count_lines++;
}

/* ---- the v4.2 document's examples, literally (doc42.h) ---- */

#include "doc42.h"

static int doc42(void)
{
	struct ndctl_ctx *ctx, *ref;
	struct ndctl_bus *bus;
	struct ndctl_dimm *dimm;
	struct ndctl_region *region, *blk;
	struct ndctl_namespace *ndns;
	struct ndctl_mapping *map;
	struct namespace_parameters np = { .id = 0, .size = 8 << 20, .lbasize = 512 };
	struct btt_parameters bp;
	char buf[256], dir[PATH_MAX];
	int rc, n;

	ctx = doc42_new_ctx();
	CHECK(ctx != NULL, "ndctl_new() returns a context");
	if (!ctx)
		return 1;
	ref = ndctl_ref(ctx);
	/* issue 16 #8: upstream's ndctl_unref() always returns NULL */
	CHECK(ref == ctx && ndctl_unref(ctx) == NULL && ndctl_get_sysfs_root(ctx) != NULL,
			"ndctl_unref returns NULL, the other reference keeps the context");
	/* issue 16 #8: mode values and aliases of upstream's libndctl.h */
	CHECK(NDCTL_NS_MODE_MEMORY == 0 && NDCTL_NS_MODE_FSDAX == 0
			&& NDCTL_NS_MODE_SAFE == 1 && NDCTL_NS_MODE_SECTOR == 1
			&& NDCTL_NS_MODE_RAW == 2 && NDCTL_NS_MODE_DAX == 3
			&& NDCTL_NS_MODE_DEVDAX == 3 && NDCTL_NS_MODE_UNKNOWN == 4,
			"namespace mode enum values as upstream (memory 0 .. unknown 4)");
	ndctl_set_log_fn(ctx, quiet_log);
	ndctl_set_log_priority(ctx, 7);
	CHECK(ndctl_get_log_priority(ctx) == 7, "log priority set/get");

	bus = get_bus_by_provider(ctx, "nfit_test.0");
	CHECK(bus != NULL, "get_bus_by_provider(ctx, \"nfit_test.0\")");
	if (!bus)
		return 1;
	CHECK(ndctl_bus_get_by_provider(ctx, "nfit_test.1") != NULL,
			"ndctl_bus_get_by_provider finds nfit_test.1");
	CHECK(!strcmp(ndctl_bus_get_devname(bus), "ndbus0") && ndctl_bus_get_id(bus) == 0,
			"bus devname ndbus0, id 0");
	CHECK(ndctl_bus_get_ctx(bus) == ctx, "bus ctx");
	CHECK(ndctl_bus_is_cmd_supported(bus, ND_CMD_ARS_CAP)
			&& ndctl_bus_is_cmd_supported(bus, ND_CMD_CALL)
			&& !ndctl_bus_is_cmd_supported(bus, 7),
			"bus commands parsed (ars_cap, cmd_call, trailing token)");

	dimm = get_dimm_by_handle(bus, DIMM_HANDLE(0, 0, 0, 0, 0));
	CHECK(dimm && !strcmp(ndctl_dimm_get_devname(dimm), "nmem0"),
			"get_dimm_by_handle(bus, DIMM_HANDLE(0,0,0,0,0)) is nmem0");
	dimm = get_dimm_by_handle(bus, DIMM_HANDLE(0, 0, 1, 0, 1));
	CHECK(dimm && ndctl_dimm_get_id(dimm) == 3 && ndctl_dimm_get_phys_id(dimm) == 3
			&& ndctl_dimm_handle_get_imc(dimm) == 1
			&& ndctl_dimm_handle_get_dimm(dimm) == 1,
			"DIMM_HANDLE(0,0,1,0,1) is nmem3, phys_id 3, imc 1");
	CHECK(dimm && ndctl_dimm_get_vendor(dimm) == 0xcdab
			&& ndctl_dimm_get_serial(dimm) == 0xfffffefe
			&& ndctl_dimm_get_device(dimm) == 0
			&& ndctl_dimm_get_format(dimm) == 0x101,
			"nmem3 vendor/device/serial/format");
	CHECK(dimm && ndctl_dimm_is_enabled(dimm) && ndctl_dimm_is_active(dimm),
			"nmem3 enabled and active");
	CHECK(dimm && ndctl_dimm_has_labels_support(dimm)
			&& ndctl_dimm_get_available_labels(dimm) == 1015,
			"nmem3 label commands, available_slots 1015");
	CHECK(ndctl_dimm_get_by_handle(bus, 0x101) == dimm, "ndctl_dimm_get_by_handle");
	n = 0;
	ndctl_dimm_foreach(bus, dimm)
		n++;
	CHECK(n == 4, "4 DIMMs on nfit_test.0 (got %d)", n);

	region = get_pmem_region_by_spa_index(bus, 1);
	CHECK(region && !strcmp(ndctl_region_get_devname(region), "region0"),
			"get_pmem_region_by_spa_index(bus, 1) is region0");
	region = get_pmem_region_by_spa_index(bus, 2);
	CHECK(region && ndctl_region_get_id(region) == 1
			&& ndctl_region_get_interleave_ways(region) == 4
			&& ndctl_region_get_size(region) == 64 << 20
			&& ndctl_region_get_available_size(region) == 64 << 20
			&& ndctl_region_get_nstype(region) == ND_DEVICE_NAMESPACE_PMEM
			&& ndctl_region_get_set_cookie(region) == 0x0fedcba987654321ULL,
			"region1: 4-way, 64 MiB, nstype 5, cookie");
	n = 0;
	if (region)
		ndctl_mapping_foreach(region, map) {
			if (ndctl_mapping_get_offset(map) == 16 << 20
					&& ndctl_mapping_get_length(map) == 16 << 20
					&& ndctl_mapping_get_position(map) == n
					&& ndctl_mapping_get_region(map) == region)
				n++;
		}
	CHECK(n == 4, "region1 mappings: dimm, offset, length, position");
	blk = get_blk_region_by_dimm_handle(bus, DIMM_HANDLE(0, 0, 1, 0, 0));
	CHECK(blk && !strcmp(ndctl_region_get_devname(blk), "region4")
			&& ndctl_region_get_type(blk) == ND_DEVICE_REGION_BLK
			&& !strcmp(ndctl_region_get_type_name(blk), "blk"),
			"get_blk_region_by_dimm_handle(bus, DIMM_HANDLE(0,0,1,0,0)) is region4");
	if (!blk)
		return 1;
	CHECK(ndctl_region_is_enabled(blk) && !ndctl_region_get_read_only(blk),
			"region4 enabled, read-write");

	ndns = get_namespace_by_id(blk, 0);
	CHECK(ndns && !strcmp(ndctl_namespace_get_devname(ndns), "namespace4.0")
			&& ndctl_namespace_get_type(ndns) == ND_DEVICE_NAMESPACE_BLK,
			"get_namespace_by_id(region4, 0) is blk namespace4.0");
	if (!ndns)
		return 1;
	CHECK(ndctl_region_get_namespace_seed(blk) == ndns, "namespace seed of region4");
	CHECK(ndctl_namespace_get_num_sector_sizes(ndns) == 7
			&& ndctl_namespace_get_sector_size(ndns) == 0,
			"blk sector sizes: 7 listed, none selected");
	CHECK(!ndctl_namespace_is_configured(ndns) && !ndctl_namespace_is_enabled(ndns),
			"seed is idle and unconfigured");
	CHECK(ndctl_namespace_get_dpa_extents(ndns) == 0, "seed: dpa_extents 0");

	uuid_parse("9a3b4c5d-1122-4334-8556-6778899aabbc", np.uuid);
	rc = configure_namespace(blk, ndns, &np);
	/* a fake tree has no driver: the bind cannot succeed */
	CHECK(rc == -ENXIO, "configure_namespace() writes then fails to bind (rc %d)", rc);
	snprintf(dir, sizeof(dir), "%s/sys/devices/platform/nfit_test.0/ndbus0/region4/namespace4.0",
			root);
	n = slurp(dir, "alt_name", buf, sizeof(buf));
	CHECK(n == 13 && !memcmp(buf, "namespace4.0", 13), "alt_name written with its NUL");
	n = slurp(dir, "uuid", buf, sizeof(buf));
	CHECK(n == 37 && !strcmp(buf, "9a3b4c5d-1122-4334-8556-6778899aabbc"),
			"uuid written as 36 chars + NUL");
	n = slurp(dir, "size", buf, sizeof(buf));
	CHECK(n == 10 && !strcmp(buf, "0x800000\n"), "size written as \"%%#llx\\n\" + NUL");
	n = slurp(dir, "sector_size", buf, sizeof(buf));
	CHECK(n == 5 && !strcmp(buf, "512\n"), "sector_size written as \"%%d\\n\" + NUL");
	CHECK(ndctl_namespace_get_size(ndns) == 8 << 20
			&& !strcmp(ndctl_namespace_get_alt_name(ndns), "namespace4.0"),
			"namespace cache follows the writes");
	{
		uuid_t got;

		ndctl_namespace_get_uuid(ndns, got);
		CHECK(!uuid_compare(got, np.uuid), "ndctl_namespace_get_uuid");
	}
	{
		static const char *const drv[] = { "nvdimm", "nd_region", "nd_pmem", "nd_blk" };
		int k, hit = 0;

		for (k = 0; k < 4; k++) {
			char p[64];

			snprintf(p, sizeof(p), "sys/bus/nd/drivers/%s/bind", drv[k]);
			if (slurp(root, p, buf, sizeof(buf)) == 13
					&& !strcmp(buf, "namespace4.0"))
				hit = 1;
		}
		CHECK(hit, "enable wrote the name (+NUL) to a drivers/*/bind file");
	}
	rc = ndctl_namespace_set_raw_mode(ndns, 1);
	n = slurp(dir, "force_raw", buf, sizeof(buf));
	CHECK(rc == 0 && n == 3 && !strcmp(buf, "1\n") && ndctl_namespace_get_raw_mode(ndns) == 1,
			"ndctl_namespace_set_raw_mode(1) writes \"1\\n\"");
	ndctl_namespace_set_raw_mode(ndns, 0);

	bp.ndns = ndns;
	bp.sector_size = 4096;
	uuid_parse("11111111-2222-4333-8444-555555555555", bp.uuid);
	CHECK(get_idle_btt(blk) && !strcmp(ndctl_btt_get_devname(get_idle_btt(blk)), "btt4.0"),
			"get_idle_btt(region4) is btt4.0");
	CHECK(ndctl_region_get_btt_seed(blk) == get_idle_btt(blk), "btt seed of region4");
	rc = configure_btt(blk, &bp);
	CHECK(rc == -ENXIO, "configure_btt() writes then fails to bind (rc %d)", rc);
	snprintf(dir, sizeof(dir), "%s/sys/devices/platform/nfit_test.0/ndbus0/region4/btt4.0",
			root);
	n = slurp(dir, "namespace", buf, sizeof(buf));
	CHECK(n == 13 && !strcmp(buf, "namespace4.0"), "btt namespace written");
	n = slurp(dir, "sector_size", buf, sizeof(buf));
	CHECK(!strcmp(buf, "4096\n"), "btt sector_size written");
	n = slurp(dir, "uuid", buf, sizeof(buf));
	CHECK(!strcmp(buf, "11111111-2222-4333-8444-555555555555"), "btt uuid written");
	{
		struct ndctl_btt *btt;
		int found = 0;

		ndctl_btt_foreach(blk, btt)
			if (!strcmp(ndctl_btt_get_devname(btt), "btt4.0")) {
				/* (a fake file does not turn "4096" into a list) */
				found = ndctl_btt_is_configured(btt)
					&& !ndctl_btt_is_enabled(btt)
					&& ndctl_btt_get_namespace(btt) == ndns;
			}
		CHECK(found, "btt4.0 is configured, not enabled, points at namespace4.0");
		CHECK(ndctl_btt_set_sector_size(get_idle_btt(blk) ? get_idle_btt(blk)
					: ndctl_btt_get_first(blk), 1000) == -EINVAL,
				"unsupported btt sector size refused");
	}
	rc = ndctl_namespace_delete(ndns);
	n = slurp(dir, "../namespace4.0/size", buf, sizeof(buf));
	CHECK(rc == 0 && !strcmp(buf, "0x0\n") && ndctl_namespace_get_size(ndns) == 0,
			"ndctl_namespace_delete writes size 0x0");
	CHECK(ndctl_namespace_set_size(ndns, 0) == -EINVAL, "set_size(0) refused");

	/* nfit_test.1: label-less pmem, io namespace with a block device */
	bus = get_bus_by_provider(ctx, "nfit_test.1");
	region = bus ? ndctl_region_get_first(bus) : NULL;
	ndns = region ? ndctl_namespace_get_first(region) : NULL;
	CHECK(region && ndctl_region_get_mappings(region) == 0
			&& ndctl_region_get_interleave_ways(region) == 1
			&& ndctl_region_get_nstype(region) == ND_DEVICE_NAMESPACE_IO,
			"nfit_test.1 region6: no mappings, io");
	CHECK(ndns && ndctl_namespace_is_enabled(ndns)
			&& !strcmp(ndctl_namespace_get_block_device(ndns) ?: "", "pmem6")
			&& ndctl_namespace_get_mode(ndns) == NDCTL_NS_MODE_RAW,
			"namespace6.0 enabled, raw, block device pmem6");
	CHECK(ndns && ndctl_namespace_get_dpa_extents(ndns) < 0,
			"io namespace: no dpa_extents (negative errno)");
	CHECK(ndns && ndctl_namespace_set_uuid(ndns, np.uuid) == -EOPNOTSUPP
			&& ndctl_namespace_set_size(ndns, 4096) == -EOPNOTSUPP,
			"io namespace: no uuid, fixed size");
	CHECK(ndctl_region_get_available_size(region) == 0, "io region: available 0");
	ndctl_unref(ctx);
	return 0;
}

/* ---- robustness: missing, garbage, vanished, long ---- */

static char *bus0(char *out, size_t len)
{
	snprintf(out, len, "%s/sys/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0012:00/ndbus0",
			root);
	return out;
}

static void put(const char *dir, const char *attr, const char *val)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, attr);
	f = fopen(p, "w");
	if (f) {
		fputs(val, f);
		fclose(f);
	}
}

static void rm(const char *dir, const char *attr)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, attr);
	unlink(p);
}

static int count_regions(struct ndctl_ctx *ctx, int *nns)
{
	struct ndctl_region *region;
	struct ndctl_namespace *ndns;
	struct ndctl_bus *bus;
	int n = 0;

	*nns = 0;
	ndctl_bus_foreach(ctx, bus)
		ndctl_region_foreach(bus, region) {
			n++;
			ndctl_namespace_foreach(region, ndns)
				(*nns)++;
		}
	return n;
}

static struct ndctl_ctx *fresh(void)
{
	struct ndctl_ctx *ctx;

	if (ndctl_new(&ctx))
		return NULL;
	ndctl_set_log_fn(ctx, quiet_log);
	return ctx;
}

static int robust(void)
{
	char b[PATH_MAX], r1[PATH_MAX], ns[PATH_MAX], big[2048];
	struct ndctl_namespace *ndns, *victim = NULL;
	struct ndctl_region *region;
	struct ndctl_bus *bus;
	struct ndctl_ctx *ctx;
	int nr, nns, before;

	bus0(b, sizeof(b));
	snprintf(r1, sizeof(r1), "%s/region1", b);
	snprintf(ns, sizeof(ns), "%s/namespace1.0", r1);

	ctx = fresh();
	nr = count_regions(ctx, &nns);
	CHECK(nr == 2 && nns == 3, "intact tree: 2 regions, 3 namespaces (%d, %d)", nr, nns);
	/* vanished: remove a namespace after the scan, then use it */
	bus = ndctl_bus_get_first(ctx);
	region = ndctl_region_get_next(ndctl_region_get_first(bus));
	ndctl_namespace_foreach(region, ndns)
		if (ndctl_namespace_get_id(ndns) == 0)
			victim = ndns;
	CHECK(victim != NULL, "found namespace1.0");
	if (!victim)
		return 1;
	{
		char cmd[PATH_MAX + 32];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s.saved'; mv '%s' '%s.saved'", ns, ns, ns);
		if (system(cmd) != 0)
			return 1;
	}
	CHECK(ndctl_namespace_get_block_device(victim) == NULL, "vanished: no block device");
	CHECK(!ndctl_namespace_is_enabled(victim), "vanished: not enabled");
	CHECK(ndctl_namespace_set_alt_name(victim, "x") < 0, "vanished: set_alt_name fails");
	CHECK(ndctl_namespace_disable(victim) == 0, "vanished: disable is a no-op");
	CHECK(ndctl_namespace_enable(victim) < 0, "vanished: enable fails");
	CHECK(ndctl_namespace_get_mode(victim) == NDCTL_NS_MODE_UNKNOWN, "vanished: mode unknown");
	ndctl_namespace_delete(victim);
	CHECK(1, "vanished: delete returns without crashing");
	/* a seed lookup rescans the region: namespace1.0 leaves the list */
	ndctl_region_get_namespace_seed(region);
	before = 0;
	ndctl_namespace_foreach(region, ndns)
		before++;
	CHECK(before == 1, "vanished namespace dropped from the rescanned list (%d left)", before);
	CHECK(!strcmp(ndctl_namespace_get_devname(victim), "namespace1.0"),
			"old pointer still valid after the rescan");
	ndctl_unref(ctx);
	{
		char cmd[PATH_MAX + 32];

		snprintf(cmd, sizeof(cmd), "mv '%s.saved' '%s'", ns, ns);
		if (system(cmd) != 0)
			return 1;
	}

	/* missing required attributes drop the object, nothing else */
	rm(r1, "nstype");
	ctx = fresh();
	nr = count_regions(ctx, &nns);
	CHECK(nr == 1 && nns == 1 && ndctl_get_scan_errors(ctx) == -ENXIO,
			"region without nstype dropped (%d regions)", nr);
	ndctl_unref(ctx);
	put(r1, "nstype", "garbage\n");
	ctx = fresh();
	nr = count_regions(ctx, &nns);
	CHECK(nr == 1, "region with garbage nstype dropped");
	ndctl_unref(ctx);
	put(r1, "nstype", "99\n");
	ctx = fresh();
	nr = count_regions(ctx, &nns);
	/* DOC42: old userspace must cope with new region types (modalias t2) */
	CHECK(nr == 2, "region with unknown nstype 99 kept as pmem by its modalias");
	ndctl_unref(ctx);
	put(r1, "nstype", "5\n");
	put(r1, "size", "-1\n");
	ctx = fresh();
	nr = count_regions(ctx, &nns);
	CHECK(nr == 1, "region with size -1 dropped");
	ndctl_unref(ctx);
	put(r1, "size", "99999999999999999999999\n");
	ctx = fresh();
	nr = count_regions(ctx, &nns);
	CHECK(nr == 1, "region with overflowing size dropped");
	ndctl_unref(ctx);
	put(r1, "size", "536870912\n");
	put(r1, "mapping0", "nmem7,zz,1\n");
	ctx = fresh();
	nr = count_regions(ctx, &nns);
	region = ndctl_region_get_next(ndctl_region_get_first(ndctl_bus_get_first(ctx)));
	CHECK(nr == 2 && region && ndctl_mapping_get_first(region) == NULL,
			"garbage mapping skipped, region kept");
	ndctl_unref(ctx);
	put(r1, "mapping0", "nmem1,0,536870912,0\n");
	/* issue 16 #6: one DIMM mapped twice (around another) comes once */
	put(r1, "mappings", "3\n");
	put(r1, "mapping1", "nmem0,0,268435456,1\n");
	put(r1, "mapping2", "nmem1,536870912,268435456,2\n");
	ctx = fresh();
	region = ndctl_region_get_next(ndctl_region_get_first(ndctl_bus_get_first(ctx)));
	{
		struct ndctl_dimm *dimm;
		int nd = 0, n1 = 0;

		if (region)
			ndctl_dimm_foreach_in_region(region, dimm) {
				if (++nd > 16)
					break;
				n1 += !strcmp(ndctl_dimm_get_devname(dimm), "nmem1");
			}
		CHECK(region && nd == 2 && n1 == 1,
				"foreach_in_region: DIMM mapped twice listed once (%d DIMMs, nmem1 %dx)",
				nd, n1);
	}
	ndctl_unref(ctx);
	put(r1, "mappings", "1\n");
	rm(r1, "mapping1");
	rm(r1, "mapping2");
	rm(r1, "set_cookie");
	ctx = fresh();
	nr = count_regions(ctx, &nns);
	CHECK(nr == 1, "nstype-5 region without set_cookie dropped");
	ndctl_unref(ctx);
	put(r1, "set_cookie", "0x5f4f3a2b1c0d0e01\n");

	/* namespaces */
	put(ns, "uuid", "not-a-uuid\n");
	ctx = fresh();
	count_regions(ctx, &nns);
	CHECK(nns == 2, "namespace with an unparsable uuid dropped (%d left)", nns);
	ndctl_unref(ctx);
	put(ns, "uuid", "2a3a9e55-6f29-4c4e-9d1f-0b7a2c5d8e11\n");
	memset(big, 'a', sizeof(big));
	big[200] = '\n';
	big[201] = '\0';
	put(ns, "alt_name", big);
	ctx = fresh();
	count_regions(ctx, &nns);
	{
		/* 76.1 keeps it too: a label's 64-byte name has no NUL (issue 26 #12) */
		struct ndctl_region *r = ndctl_region_get_next(
				ndctl_region_get_first(ndctl_bus_get_first(ctx)));
		struct ndctl_namespace *n = r ? ndctl_namespace_get_first(r) : NULL;

		CHECK(nns == 3 && n && strlen(ndctl_namespace_get_alt_name(n)) == 200,
				"namespace with a 200-byte alt_name kept, whole name (%d namespaces)",
				nns);
	}
	ndctl_unref(ctx);
	memset(big, 'a', 1500);
	big[1500] = '\0';
	put(ns, "alt_name", big);
	ctx = fresh();
	count_regions(ctx, &nns);
	CHECK(nns == 2, "namespace with a 1500-byte attribute dropped");
	ndctl_unref(ctx);
	put(ns, "alt_name", "data\n");
	put(ns, "sector_size", "512 [banana] \n");
	ctx = fresh();
	count_regions(ctx, &nns);
	CHECK(nns == 2, "namespace with a garbage sector_size list dropped");
	ndctl_unref(ctx);
	put(ns, "sector_size", "512 4096 \n");

	/* issue 16 #8: claimed by a bound pfn (fsdax) or dax device: active */
	{
		static const char *const kinds[] = { "pfn1.0", "dax1.0" };
		char cmd[3 * PATH_MAX], dev[PATH_MAX];
		unsigned int k;

		for (k = 0; k < 2; k++) {
			snprintf(dev, sizeof(dev), "%s/%s", r1, kinds[k]);
			snprintf(cmd, sizeof(cmd), "mv '%s/driver' '%s/driver.saved' && "
					"ln -s ../../../../../../../bus/nd/drivers/nd_pmem '%s/driver'",
					ns, ns, dev);
			if (system(cmd) != 0)
				return 1;
			put(ns, "holder", k ? "dax1.0\n" : "pfn1.0\n");
			put(ns, "mode", k ? "dax\n" : "memory\n");
			ctx = fresh();
			region = ndctl_region_get_next(ndctl_region_get_first(ndctl_bus_get_first(ctx)));
			victim = NULL;
			ndctl_namespace_foreach(region, ndns)
				if (ndctl_namespace_get_id(ndns) == 0)
					victim = ndns;
			CHECK(victim && !ndctl_namespace_is_enabled(victim)
					&& ndctl_namespace_is_active(victim),
					"namespace claimed by a bound %.3s device is active", kinds[k]);
			CHECK(victim && ndctl_namespace_get_mode(victim)
					== (k ? NDCTL_NS_MODE_DEVDAX : NDCTL_NS_MODE_FSDAX),
					"claimed by %.3s: mode %s", kinds[k], k ? "devdax" : "fsdax");
			rm(dev, "driver");
			CHECK(victim && !ndctl_namespace_is_active(victim),
					"claimed by an unbound %.3s device: not active", kinds[k]);
			ndctl_unref(ctx);
			snprintf(cmd, sizeof(cmd), "mv '%s/driver.saved' '%s/driver'", ns, ns);
			if (system(cmd) != 0)
				return 1;
			put(ns, "holder", "\n");
			put(ns, "mode", "raw\n");
		}
	}

	ctx = fresh();
	count_regions(ctx, &nns);
	CHECK(nns == 3, "repaired tree: 3 namespaces again");
	region = ndctl_region_get_next(ndctl_region_get_first(ndctl_bus_get_first(ctx)));
	ndns = ndctl_namespace_get_first(region);
	memset(big, 'b', 100);
	big[100] = '\0';
	CHECK(ndns && ndctl_namespace_set_alt_name(ndns, big) == -ENAMETOOLONG,
			"set_alt_name of 100 bytes: -ENAMETOOLONG");
	CHECK(ndns && ndctl_namespace_set_sector_size(ndns, 520) == -EINVAL,
			"set_sector_size(520) on pmem: -EINVAL");
	CHECK(ndctl_namespace_set_size(NULL, 1) == -EINVAL && ndctl_region_enable(NULL) == -EINVAL
			&& ndctl_bus_get_provider(NULL) == NULL && ndctl_dimm_enable(NULL) == -EINVAL
			&& ndctl_btt_enable(NULL) == -EINVAL,
			"NULL objects: -EINVAL / NULL, no crash");
	CHECK(ndctl_dimm_cmd_new_cfg_size(ndctl_dimm_get_first(ndctl_bus_get_first(ctx))) == NULL,
			"nmem0 (no label commands): no cfg_size command");
	ndctl_unref(ctx);

	/*
	 * nfit/dirty_shutdown (76.1's ndctl_dimm_get_dirty_shutdown): the
	 * kernel's "%d" of the count, read at scan; absent or not a count:
	 * -ENOENT, the DIMM kept
	 */
	{
		static const struct {
			const char *val;
			long long want;
		} ds[] = {
			{ NULL, -ENOENT }, { "42\n", 42 }, { "0\n", 0 },
			{ "-7\n", -7 },	/* a u32 count above INT_MAX, as "%d" prints it */
			{ "2147483647\n", 2147483647LL }, { "2147483648\n", -ENOENT },
			{ "-2147483649\n", -ENOENT }, { "banana\n", -ENOENT },
			{ "42 junk\n", -ENOENT }, { "\n", -ENOENT },
			{ "99999999999999999999999\n", -ENOENT },
		};
		char d0[PATH_MAX + 8];
		unsigned int k;

		snprintf(d0, sizeof(d0), "%s/nmem0", b);
		for (k = 0; k < sizeof(ds) / sizeof(ds[0]); k++) {
			struct ndctl_dimm *dimm, *n0 = NULL;
			long long got;

			if (ds[k].val)
				put(d0, "nfit/dirty_shutdown", ds[k].val);
			else
				rm(d0, "nfit/dirty_shutdown");
			ctx = fresh();
			ndctl_dimm_foreach(ndctl_bus_get_first(ctx), dimm)
				if (!strcmp(ndctl_dimm_get_devname(dimm), "nmem0"))
					n0 = dimm;
			got = n0 ? ndctl_dimm_get_dirty_shutdown(n0) : -999;
			CHECK(n0 && got == ds[k].want,
					"dirty_shutdown '%.*s': %lld (want %lld, DIMM kept)",
					ds[k].val ? (int)strcspn(ds[k].val, "\n") : 8,
					ds[k].val ? ds[k].val : "(absent)", got, ds[k].want);
			ndctl_unref(ctx);
		}
		put(d0, "nfit/dirty_shutdown", "42\n");
		ctx = fresh();
		CHECK(ndctl_dimm_get_dirty_shutdown(NULL) == -EINVAL,
				"dirty_shutdown of no DIMM: -EINVAL");
		/* read at scan: a later change shows in a new context only */
		{
			struct ndctl_dimm *dimm, *n0 = NULL;

			ndctl_dimm_foreach(ndctl_bus_get_first(ctx), dimm)
				if (!strcmp(ndctl_dimm_get_devname(dimm), "nmem0"))
					n0 = dimm;
			put(d0, "nfit/dirty_shutdown", "43\n");
			CHECK(n0 && ndctl_dimm_get_dirty_shutdown(n0) == 42,
					"dirty_shutdown is the value read at scan");
		}
		ndctl_unref(ctx);
		rm(d0, "nfit/dirty_shutdown");
	}

	/* the bus itself */
	put(b, "provider", "");
	ctx = fresh();
	CHECK(ndctl_bus_get_first(ctx) == NULL, "bus with an empty provider dropped");
	ndctl_unref(ctx);
	memset(big, 'p', 1000);
	big[1000] = '\n';
	big[1001] = '\0';
	put(b, "provider", big);
	ctx = fresh();
	bus = ndctl_bus_get_first(ctx);
	CHECK(bus && strlen(ndctl_bus_get_provider(bus)) == 1000,
			"1000-byte provider read whole");
	ndctl_unref(ctx);
	put(b, "provider", "ACPI.NFIT\n");
	printf("# %d log lines from the library\n", count_lines);
	return 0;
}

/* ---- label area bounds and the cfg_write contract (issue 16 #4, #5) ---- */

#define LSA_SIZE (128 * 1024)

static struct ndctl_dimm *dimm_named(struct ndctl_ctx *ctx, const char *name)
{
	struct ndctl_dimm *dimm;

	ndctl_dimm_foreach(ndctl_bus_get_first(ctx), dimm)
		if (!strcmp(ndctl_dimm_get_devname(dimm), name))
			return dimm;
	return NULL;
}

/* the fake label area image behind /dev/nmem1 (fake_ioctl.c) */
static int lsa_image(unsigned char *img, int write)
{
	char p[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/dev/nmem1.lsa", root);
	fd = open(p, write ? O_WRONLY : O_RDONLY);
	if (fd < 0)
		return -1;
	n = write ? pwrite(fd, img, LSA_SIZE, 0) : pread(fd, img, LSA_SIZE, 0);
	close(fd);
	return n == LSA_SIZE ? 0 : -1;
}

static int all_bytes(const unsigned char *p, size_t len, unsigned char v)
{
	while (len--)
		if (*p++ != v)
			return 0;
	return 1;
}

/*
 * Issue 26 #16: label-area command objects used more than once.  A
 * cfg_write works on its cfg_read's buffer (upstream's read-modify-write
 * contract), so what it sends is the last read plus every byte set since:
 *  - one cfg_write submitted three times with different bytes, the same
 *    cfg_read submitted after each: each read returns its write's bytes;
 *  - two cfg_writes built on one read: the second keeps the first's bytes;
 *  - the read submitted again after the media changed: the write sends
 *    the new media, not what the read held when the write was built.
 * Each step checks the whole fake label area against the model @img.
 */
static void lsa_reuse(struct ndctl_cmd *rd, unsigned char *img,
		unsigned char *back)
{
	struct ndctl_cmd *wr, *wr2;
	unsigned char x[16], got[16];
	unsigned int round;
	ssize_t n;
	int rc, same;

	rc = ndctl_cmd_submit(rd);
	wr = rc == 0 ? ndctl_dimm_cmd_new_cfg_write(rd) : NULL;
	wr2 = wr ? ndctl_dimm_cmd_new_cfg_write(rd) : NULL;
	CHECK(wr && wr2, "reuse: two cfg_writes built on one completed cfg_read");
	if (!wr || !wr2)
		goto out;
	for (round = 1; round <= 3; round++) {
		memset(x, 0x11 * round, sizeof(x));
		n = ndctl_cmd_cfg_write_set_data(wr, x, sizeof(x), 8192);
		rc = n == sizeof(x) ? ndctl_cmd_submit(wr) : -1;
		memcpy(img + 8192, x, sizeof(x));
		CHECK(rc == 0 && lsa_image(back, 0) == 0 && !memcmp(back, img, LSA_SIZE),
				"reuse: submission %u of one cfg_write stores its bytes, nothing else changes (rc %d)",
				round, rc);
		rc = ndctl_cmd_submit(rd);
		memset(got, 0, sizeof(got));
		n = rc == 0 ? ndctl_cmd_cfg_read_get_data(rd, got, sizeof(got), 8192) : -1;
		CHECK(n == sizeof(got) && !memcmp(got, x, sizeof(x)),
				"reuse: cfg_read submitted after write %u returns its bytes (%#x, got %#x)",
				round, x[0], got[0]);
	}
	memset(x, 0x5a, sizeof(x));
	n = ndctl_cmd_cfg_write_set_data(wr2, x, sizeof(x), 12288);
	rc = n == sizeof(x) ? ndctl_cmd_submit(wr2) : -1;
	memcpy(img + 12288, x, sizeof(x));
	same = rc == 0 && lsa_image(back, 0) == 0 && !memcmp(back, img, LSA_SIZE);
	CHECK(same, "reuse: a second cfg_write on the same read keeps the first one's bytes (rc %d, at 8192: %#x)",
			rc, back[8192]);
	/* the media changes behind the objects; the read sees it again */
	memset(img + 16384, 0xc3, 64);
	lsa_image(img, 1);
	rc = ndctl_cmd_submit(rd);
	memset(x, 0x77, sizeof(x));
	n = rc == 0 ? ndctl_cmd_cfg_write_set_data(wr, x, sizeof(x), 20480) : -1;
	rc = n == sizeof(x) ? ndctl_cmd_submit(wr) : -1;
	memcpy(img + 20480, x, sizeof(x));
	same = rc == 0 && lsa_image(back, 0) == 0 && !memcmp(back, img, LSA_SIZE);
	CHECK(same, "reuse: after the read is submitted again, the write sends the media it read (rc %d, at 16384: %#x)",
			rc, back[16384]);
out:
	ndctl_cmd_unref(wr2);
	ndctl_cmd_unref(wr);
}

static int lsa(void)
{
	static const struct { unsigned int off, len; const char *what; } bad[] = {
		{ 0, UINT_MAX, "len UINT_MAX" },
		{ 1, LSA_SIZE, "offset 1 + whole size" },
		{ LSA_SIZE - 16, 17, "one byte past the end" },
		{ UINT_MAX - 15, 32, "offset+len wrapping" },
		{ LSA_SIZE + 1, 0, "offset past the end, len 0" },
	};
	unsigned char *img, *buf, *back;
	struct ndctl_cmd *size, *rd, *wr;
	struct ndctl_dimm *dimm;
	struct ndctl_ctx *ctx;
	char b[PATH_MAX], dir[PATH_MAX];
	unsigned int i;
	int rc;

	img = malloc(LSA_SIZE);
	back = malloc(LSA_SIZE);
	buf = malloc(LSA_SIZE + 64);	/* room for the len 0 reads only */
	if (!img || !back || !buf)
		return 1;
	for (i = 0; i < LSA_SIZE; i++)
		img[i] = (unsigned char)(i * 7 + 1);
	if (lsa_image(img, 1))
		return 1;
	ctx = fresh();
	dimm = ctx ? dimm_named(ctx, "nmem1") : NULL;
	CHECK(dimm != NULL, "nmem1 with label commands");
	if (!dimm)
		return 1;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(buf, 0xa5, LSA_SIZE + 64);
		rc = ndctl_dimm_read_label_area(dimm, buf, bad[i].off, bad[i].len);
		CHECK(rc == -EINVAL && all_bytes(buf, LSA_SIZE + 64, 0xa5),
				"read_label_area %s: -EINVAL, nothing copied (rc %d)",
				bad[i].what, rc);
	}
	memset(buf, 0, 64);
	rc = ndctl_dimm_read_label_area(dimm, buf, LSA_SIZE - 16, 16);
	CHECK(rc == 0 && !memcmp(buf, img + LSA_SIZE - 16, 16),
			"read_label_area of the last 16 bytes");
	rc = ndctl_dimm_read_label_area(dimm, buf, LSA_SIZE, 0);
	CHECK(rc == 0, "read_label_area at the end, len 0: ok (rc %d)", rc);

	/* cfg_write only from a completed read */
	size = ndctl_dimm_cmd_new_cfg_size(dimm);
	rc = size ? ndctl_cmd_submit(size) : -1;
	rd = rc == 0 ? ndctl_dimm_cmd_new_cfg_read(size) : NULL;
	CHECK(rd != NULL, "cfg_size submitted, cfg_read built");
	if (!rd)
		return 1;
	errno = 0;
	wr = ndctl_dimm_cmd_new_cfg_write(rd);
	CHECK(wr == NULL && errno == EINVAL,
			"cfg_write from an unsubmitted cfg_read: NULL, errno EINVAL");
	if (wr) {
		ndctl_cmd_submit(wr);	/* what a caller would do next */
		ndctl_cmd_unref(wr);
	}
	CHECK(lsa_image(back, 0) == 0 && !memcmp(back, img, LSA_SIZE),
			"label area unchanged after the refused write");
	setenv("FAKE_FW_STATUS", "5", 1);
	rc = ndctl_cmd_submit(rd);
	unsetenv("FAKE_FW_STATUS");
	wr = ndctl_dimm_cmd_new_cfg_write(rd);
	CHECK(rc != 0 && wr == NULL, "cfg_write from a failed cfg_read: NULL");
	ndctl_cmd_unref(wr);
	rc = ndctl_cmd_submit(rd);
	wr = rc == 0 ? ndctl_dimm_cmd_new_cfg_write(rd) : NULL;
	CHECK(wr != NULL, "cfg_write from a completed cfg_read");
	if (wr) {
		unsigned char x[4] = { 1, 2, 3, 4 };

		ndctl_cmd_cfg_write_set_data(wr, x, sizeof(x), 4096);
		rc = ndctl_cmd_submit(wr);
		memcpy(img + 4096, x, sizeof(x));
		CHECK(rc == 0 && lsa_image(back, 0) == 0 && !memcmp(back, img, LSA_SIZE),
				"read-modify-write changed exactly the 4 bytes set");
		ndctl_cmd_unref(wr);
	}
	lsa_reuse(rd, img, back);
	ndctl_cmd_unref(rd);
	ndctl_cmd_unref(size);
	ndctl_unref(ctx);

	/* writes: the same bounds, checked once the DIMM is idle */
	bus0(b, sizeof(b));
	snprintf(dir, sizeof(dir), "%s/region1", b);
	rm(dir, "driver");
	snprintf(dir, sizeof(dir), "%s/nmem1", b);
	rm(dir, "driver");
	put(dir, "state", "idle\n");
	ctx = fresh();
	dimm = dimm_named(ctx, "nmem1");
	for (i = 0; dimm && i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(buf, 0, LSA_SIZE + 64);
		rc = ndctl_dimm_write_label_area(dimm, buf, bad[i].off, bad[i].len);
		CHECK(rc == -EINVAL && lsa_image(back, 0) == 0 && !memcmp(back, img, LSA_SIZE),
				"write_label_area %s: -EINVAL, area unchanged (rc %d)",
				bad[i].what, rc);
	}
	rc = dimm ? ndctl_dimm_write_label_area(dimm, "abcd", LSA_SIZE - 4, 4) : -1;
	memcpy(img + LSA_SIZE - 4, "abcd", 4);
	CHECK(rc == 0 && lsa_image(back, 0) == 0 && !memcmp(back, img, LSA_SIZE),
			"write_label_area of the last 4 bytes");
	ndctl_unref(ctx);
	free(img);
	free(back);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: api-test doc42|robust|lsa ROOT\n");
		return 2;
	}
	set_roots(argv[2]);
	if (!strcmp(argv[1], "doc42"))
		doc42();
	else if (!strcmp(argv[1], "robust"))
		robust();
	else if (!strcmp(argv[1], "lsa"))
		lsa();
	else
		return 2;
	return failures ? 1 : 0;
}
