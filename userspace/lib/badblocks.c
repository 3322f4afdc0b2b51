// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Known media errors as the kernel lists them: a region's badblocks
 * attribute (sectors from the region's start) and a disk's
 * /sys/block/<disk>/badblocks (sectors from the start of the disk's
 * data), both lines of "<sector> <count>" (sysfs-abi §4).
 *
 * A raw namespace reads its own disk's list.  The others (fsdax and
 * devdax: the pfn or dax device's data; sector mode: the whole
 * namespace, BTT metadata included) get the region's entries that lie
 * in that range, clipped to it and counted from its start, as ndctl
 * 76.1 lists them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

#define BB_SECTOR 512ULL
/* a badblocks list holds at most a page of lines (the kernel's limit) */
#define BB_MAX 4096

/*
 * Parse the "<sector> <count>" lines of @path into a new array; a line
 * that does not parse, a count of 0 or a range that wraps is dropped.
 */
static int read_badblocks(struct ndctl_ctx *ctx, const char *path,
		struct badblock **out, unsigned int *n)
{
	struct badblock *v = NULL;
	unsigned int cnt = 0;
	char line[128];
	FILE *f;

	*out = NULL;
	*n = 0;
	f = fopen(path, "re");
	if (!f) {
		dbg(ctx, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f) && cnt < BB_MAX) {
		unsigned long long s, l, e;
		struct badblock *nv;
		char extra;

		if (sscanf(line, "%llu %llu %c", &s, &l, &extra) != 2 || !l
				|| l > UINT_MAX || __builtin_add_overflow(s, l, &e)) {
			dbg(ctx, "%s: line '%.40s' ignored", path, line);
			continue;
		}
		nv = realloc(v, (cnt + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			fclose(f);
			return -ENOMEM;
		}
		v = nv;
		v[cnt].offset = s;
		v[cnt].len = l;
		cnt++;
	}
	fclose(f);
	*out = v;
	*n = cnt;
	return 0;
}

static int region_read(struct ndctl_region *region)
{
	char path[PATH_MAX];
	int rc;

	free(region->bbs);
	region->bbs = NULL;
	region->n_bbs = region->bb_next = 0;
	rc = nd_path(path, sizeof(path), region->path, "badblocks");
	if (rc)
		return rc;
	return read_badblocks(region->bus->ctx, path, &region->bbs,
			&region->n_bbs);
}

/**
 * ndctl_region_get_first_badblock - read the region's badblocks, return
 *	the first entry (sectors from the region's start)
 * @region: the region
 *
 * NULL when there is none or the list cannot be read.
 */
NDCTL_EXPORT struct badblock *ndctl_region_get_first_badblock(
		struct ndctl_region *region)
{
	if (!region || region_read(region) || !region->n_bbs)
		return NULL;
	region->bb_next = 1;
	return &region->bbs[0];
}

/**
 * ndctl_region_get_next_badblock - the entry after the last one returned
 * @region: the region
 */
NDCTL_EXPORT struct badblock *ndctl_region_get_next_badblock(
		struct ndctl_region *region)
{
	if (!region || region->bb_next >= region->n_bbs)
		return NULL;
	return &region->bbs[region->bb_next++];
}

/* a raw namespace's own disk, or NULL (76.1 reads no other disk's list) */
static const char *data_disk(struct ndctl_namespace *ndns)
{
	if (ndctl_namespace_get_btt(ndns) || ndctl_namespace_get_dax(ndns)
			|| ndctl_namespace_get_pfn(ndns))
		return NULL;
	return ndctl_namespace_get_block_device(ndns);
}

/* the byte range of the region the namespace's data covers */
static int data_range(struct ndctl_namespace *ndns, unsigned long long *off,
		unsigned long long *size)
{
	unsigned long long rstart = ndctl_region_get_resource(ndns->region);
	struct ndctl_pfn *pfn = ndctl_namespace_get_pfn(ndns);
	struct ndctl_dax *dax = ndctl_namespace_get_dax(ndns);
	unsigned long long start;

	if (pfn) {
		start = ndctl_pfn_get_resource(pfn);
		*size = ndctl_pfn_get_size(pfn);
	} else if (dax) {
		start = ndctl_dax_get_resource(dax);
		*size = ndctl_dax_get_size(dax);
	} else {
		start = ndctl_namespace_get_resource(ndns);
		*size = ndctl_namespace_get_size(ndns);
	}
	if (rstart == ULLONG_MAX || start == ULLONG_MAX || *size == ULLONG_MAX
			|| start < rstart)
		return -ENXIO;
	*off = start - rstart;
	return 0;
}

/* the region's entries inside the namespace's data, from its start */
static int ns_from_region(struct ndctl_namespace *ndns)
{
	struct ndctl_region *region = ndns->region;
	unsigned long long off, size, s0, s1;
	unsigned int i;
	int rc;

	rc = data_range(ndns, &off, &size);
	if (rc)
		return rc;
	/* whole sectors of the data: [s0, s1) of the region */
	s0 = (off + BB_SECTOR - 1) / BB_SECTOR;
	s1 = (off + size) / BB_SECTOR;
	if (off + size < off)
		return -ENXIO;
	rc = region_read(region);
	if (rc)
		return rc;
	ndns->bbs = calloc(region->n_bbs ? region->n_bbs : 1, sizeof(*ndns->bbs));
	if (!ndns->bbs)
		return -ENOMEM;
	for (i = 0; i < region->n_bbs; i++) {
		unsigned long long b = region->bbs[i].offset;
		unsigned long long e = b + region->bbs[i].len;

		if (e <= s0 || b >= s1)
			continue;
		if (b < s0)
			b = s0;
		if (e > s1)
			e = s1;
		ndns->bbs[ndns->n_bbs].offset = b - s0;
		ndns->bbs[ndns->n_bbs].len = e - b;
		ndns->n_bbs++;
	}
	return 0;
}

static int namespace_read(struct ndctl_namespace *ndns)
{
	const char *disk;
	char path[PATH_MAX];

	free(ndns->bbs);
	ndns->bbs = NULL;
	ndns->n_bbs = ndns->bb_next = 0;
	disk = data_disk(ndns);
	if (!disk || !disk[0])
		return ns_from_region(ndns);
	if ((size_t)snprintf(path, sizeof(path), "%s/block/%s/badblocks",
			ndns->region->bus->ctx->sysfs_root, disk) >= sizeof(path))
		return -ENAMETOOLONG;
	return read_badblocks(ndns->region->bus->ctx, path, &ndns->bbs,
			&ndns->n_bbs);
}

/**
 * ndctl_namespace_get_first_badblock - read the namespace's known media
 *	errors, return the first (512-byte sectors from its data's start)
 * @ndns: the namespace
 *
 * NULL when there is none or no list can be read.
 */
NDCTL_EXPORT struct badblock *ndctl_namespace_get_first_badblock(
		struct ndctl_namespace *ndns)
{
	if (!ndns || namespace_read(ndns) || !ndns->n_bbs)
		return NULL;
	ndns->bb_next = 1;
	return &ndns->bbs[0];
}

/**
 * ndctl_namespace_get_next_badblock - the entry after the last one returned
 * @ndns: the namespace
 */
NDCTL_EXPORT struct badblock *ndctl_namespace_get_next_badblock(
		struct ndctl_namespace *ndns)
{
	if (!ndns || ndns->bb_next >= ndns->n_bbs)
		return NULL;
	return &ndns->bbs[ndns->bb_next++];
}

/**
 * ndctl_bus_get_region_by_physical_address - the region whose range
 *	holds system-physical @address
 * @bus: the bus
 * @address: the address
 */
NDCTL_EXPORT struct ndctl_region *ndctl_bus_get_region_by_physical_address(
		struct ndctl_bus *bus, unsigned long long address)
{
	struct ndctl_region *region;

	ndctl_region_foreach(bus, region) {
		unsigned long long start = ndctl_region_get_resource(region);
		unsigned long long size = ndctl_region_get_size(region);

		if (start == ULLONG_MAX || address < start)
			continue;
		if (address - start < size)
			return region;
	}
	return NULL;
}

/**
 * ndctl_bus_get_dimm_by_physical_address - the DIMM that holds
 *	system-physical @address
 * @bus: the bus
 * @address: the address
 *
 * Answered from the region's mapping when it is not interleaved (one
 * DIMM); an interleaved region would need the firmware's Translate SPA,
 * which this library does not send: NULL then.
 */
NDCTL_EXPORT struct ndctl_dimm *ndctl_bus_get_dimm_by_physical_address(
		struct ndctl_bus *bus, unsigned long long address)
{
	struct ndctl_region *region;
	struct ndctl_mapping *m;

	if (!bus)
		return NULL;
	region = ndctl_bus_get_region_by_physical_address(bus, address);
	if (!region || ndctl_region_get_interleave_ways(region) != 1)
		return NULL;
	m = ndctl_mapping_get_first(region);
	return m ? ndctl_mapping_get_dimm(m) : NULL;
}
