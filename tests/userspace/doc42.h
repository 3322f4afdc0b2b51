/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The libndctl examples of the v4.2 document
 * (Documentation/nvdimm/nvdimm.txt, "LIBNVDIMM Kernel Device Model and
 * LIBNDCTL Userspace API"), as the document writes them.  Shared by
 * api-test.c (host, fake sysfs trees) and doc-examples.c (guest, nfit_test
 * on our modules).
 *
 * The only departures from the text are what it takes to compile:
 * - configure_namespace(): the document spells "paramaters" twice and
 *   declares an int function without a return; it returns the result of
 *   its last call, ndctl_namespace_enable(), here.  Every call is made
 *   unconditionally, as written; a failing step leaves its log line.
 * - configure_btt(): the document does not declare "btt" and has no
 *   return either; it returns the result of ndctl_btt_enable().
 * - struct namespace_parameters / btt_parameters are not spelled out by
 *   the document; their fields are the ones its code uses.
 */
#ifndef DOC42_H
#define DOC42_H

#include <stdio.h>
#include <string.h>
#include <ndctl/libndctl.h>

/* LIBNDCTL: instantiate a new library context example */
static inline struct ndctl_ctx *doc42_new_ctx(void)
{
	struct ndctl_ctx *ctx;

	if (ndctl_new(&ctx) == 0)
		return ctx;
	else
		return NULL;
}

/* LIBNDCTL: bus enumeration example */
static struct ndctl_bus *get_bus_by_provider(struct ndctl_ctx *ctx,
		const char *provider)
{
	struct ndctl_bus *bus;

	ndctl_bus_foreach(ctx, bus)
		if (strcmp(provider, ndctl_bus_get_provider(bus)) == 0)
			return bus;

	return NULL;
}

/* LIBNDCTL: DIMM enumeration example */
static struct ndctl_dimm *get_dimm_by_handle(struct ndctl_bus *bus,
		unsigned int handle)
{
	struct ndctl_dimm *dimm;

	ndctl_dimm_foreach(bus, dimm)
		if (ndctl_dimm_get_handle(dimm) == handle)
			return dimm;

	return NULL;
}

#define DIMM_HANDLE(n, s, i, c, d) \
	(((n & 0xfff) << 16) | ((s & 0xf) << 12) | ((i & 0xf) << 8) \
	 | ((c & 0xf) << 4) | (d & 0xf))

/* LIBNDCTL: region enumeration example */
static struct ndctl_region *get_pmem_region_by_spa_index(struct ndctl_bus *bus,
		unsigned int spa_index)
{
	struct ndctl_region *region;

	ndctl_region_foreach(bus, region) {
		if (ndctl_region_get_type(region) != ND_DEVICE_REGION_PMEM)
			continue;
		if (ndctl_region_get_spa_index(region) == spa_index)
			return region;
	}
	return NULL;
}

static struct ndctl_region *get_blk_region_by_dimm_handle(struct ndctl_bus *bus,
		unsigned int handle)
{
	struct ndctl_region *region;

	ndctl_region_foreach(bus, region) {
		struct ndctl_mapping *map;

		if (ndctl_region_get_type(region) != ND_DEVICE_REGION_BLOCK)
			continue;
		ndctl_mapping_foreach(region, map) {
			struct ndctl_dimm *dimm = ndctl_mapping_get_dimm(map);

			if (ndctl_dimm_get_handle(dimm) == handle)
				return region;
		}
	}
	return NULL;
}

/* LIBNDCTL: namespace enumeration example */
static struct ndctl_namespace *get_namespace_by_id(struct ndctl_region *region,
		unsigned int id)
{
	struct ndctl_namespace *ndns;

	ndctl_namespace_foreach(region, ndns)
		if (ndctl_namespace_get_id(ndns) == id)
			return ndns;

	return NULL;
}

/* LIBNDCTL: namespace creation example */
struct namespace_parameters {
	unsigned int id;
	uuid_t uuid;
	unsigned long long size;
	unsigned int lbasize;
};

static int configure_namespace(struct ndctl_region *region,
		struct ndctl_namespace *ndns,
		struct namespace_parameters *parameters)
{
	char devname[50];

	snprintf(devname, sizeof(devname), "namespace%d.%d",
			ndctl_region_get_id(region), parameters->id);

	ndctl_namespace_set_alt_name(ndns, devname);
	/* 'uuid' must be set prior to setting size! */
	ndctl_namespace_set_uuid(ndns, parameters->uuid);
	ndctl_namespace_set_size(ndns, parameters->size);
	/* unlike pmem namespaces, blk namespaces have a sector size */
	if (parameters->lbasize)
		ndctl_namespace_set_sector_size(ndns, parameters->lbasize);
	return ndctl_namespace_enable(ndns);
}

/* LIBNDCTL: btt creation example */
static struct ndctl_btt *get_idle_btt(struct ndctl_region *region)
{
	struct ndctl_btt *btt;

	ndctl_btt_foreach(region, btt)
		if (!ndctl_btt_is_enabled(btt)
				&& !ndctl_btt_is_configured(btt))
			return btt;

	return NULL;
}

struct btt_parameters {
	uuid_t uuid;
	unsigned int sector_size;
	struct ndctl_namespace *ndns;
};

static int configure_btt(struct ndctl_region *region,
		struct btt_parameters *parameters)
{
	struct ndctl_btt *btt;

	btt = get_idle_btt(region);

	ndctl_btt_set_uuid(btt, parameters->uuid);
	ndctl_btt_set_sector_size(btt, parameters->sector_size);
	ndctl_btt_set_namespace(btt, parameters->ndns);
	/* turn off raw mode device */
	ndctl_namespace_disable(parameters->ndns);
	/* turn on btt access */
	return ndctl_btt_enable(btt);
}

#endif /* DOC42_H */
