// SPDX-License-Identifier: GPL-2.0-or-later
/* ndctl list: topology as JSON, field names as ndctl 76.1 (sysfs-abi §10.2) */
#include <dirent.h>
#include <uuid/uuid.h>
#include <unistd.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware.h"
#include "health.h"
#include "util.h"
#include "filter.h"

static const struct cmd_help list_help = {
	"ndctl list [<options>]",
	"    -b, --bus <bus-id>    filter by bus (id, ndbusN or provider)\n"
	"    -r, --region <region-id>\n"
	"                          filter by region (id or regionN)\n"
	"    -d, --dimm <dimm-id>  filter by dimm (id or nmemN)\n"
	"    -n, --namespace <namespace-id>\n"
	"                          filter by namespace (namespaceX.Y or X.Y)\n"
	"                          (each filter takes a list: 'region0 region1', 0,1)\n"
	"    -m, --mode <mode>     filter by namespace mode (raw, sector, fsdax, devdax)\n"
	"    -t, --type <type>     filter by region type (pmem, blk)\n"
	"    -B, --buses           include bus info\n"
	"    -D, --dimms           include dimm info\n"
	"    -R, --regions         include region info\n"
	"    -N, --namespaces      include namespace info (default)\n"
	"    -i, --idle            include idle devices\n"
	"    -c, --configured      include configured namespaces, disabled or not\n"
	"    -M, --media-errors    include media errors\n"
	"    -u, --human           use human friendly number formats\n"
	"    -H, --health          include DIMM health (implies --dimms)\n"
	"    -F, --firmware        include firmware info of DIMMs and buses\n"
	"    -v, --verbose         increase output detail\n"
	"    -h, --help            show this help\n",
};

struct list_opts {
	const char *bus, *region, *dimm, *ns, *mode, *type;
	bool B, D, R, N, idle, configured, human, verbose, media, health, fw;
	int vlevel;		/* -v given this many times */
};

static const char *mode_name(enum ndctl_namespace_mode m)
{
	switch (m) {
	case NDCTL_NS_MODE_RAW:
		return "raw";
	case NDCTL_NS_MODE_SAFE:
		return "sector";
	case NDCTL_NS_MODE_MEMORY:
		return "fsdax";
	case NDCTL_NS_MODE_DAX:
		return "devdax";
	default:
		return NULL;
	}
}

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	if (v)
		json_object_object_add(o, key, v);
}

/* one attribute of a sysfs directory, trailing newline dropped; -1 if absent */
static int read_sysfs(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, attr) >= sizeof(path))
		return -1;
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static bool read_sysfs_ull(const char *dir, const char *attr,
		unsigned long long *v)
{
	char buf[64], *end;

	if (read_sysfs(dir, attr, buf, sizeof(buf)) || !buf[0])
		return false;
	errno = 0;
	*v = strtoull(buf, &end, 0);
	return !errno && end != buf && !*end;
}

/*
 * target_node (list -v, 76.1): the memory node the device's range goes
 * online as; @name below the bus directory ("region1", or
 * "region1/namespace1.0"), -1 when absent or negative.
 */
static int target_node(struct ndctl_bus *bus, const char *name)
{
	char dir[PATH_MAX], buf[32], *end;
	long v;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", ndctl_bus_get_path(bus),
			name) >= sizeof(dir) || read_sysfs(dir, "target_node", buf,
			sizeof(buf)) || !buf[0])
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || *end || v < 0 || v > INT_MAX)
		return -1;
	return (int)v;
}

/*
 * "daxregion" as ndctl 76.1 prints it (list -v, create-namespace): the
 * nd_dax device's dax_region group and its enabled device-dax instance.
 */
static struct json_object *dax_region_to_json(struct ndctl_dax *dax, bool human)
{
	const char *path = ndctl_dax_get_path(dax);
	char dir[PATH_MAX], dev[PATH_MAX], name[64], drv[PATH_MAX];
	unsigned long long v, size = 0;
	struct json_object *j, *devs, *jd;
	ssize_t n;

	if (!path || (size_t)snprintf(dir, sizeof(dir), "%s/dax_region", path)
			>= sizeof(dir) || !read_sysfs_ull(dir, "id", &v))
		return NULL;
	j = json_object_new_object();
	if (!j)
		return NULL;
	add(j, "id", json_object_new_int((int)v));
	if (read_sysfs_ull(dir, "size", &size))
		add(j, "size", json_size(size, human));
	if (read_sysfs_ull(dir, "available_size", &v) && v)
		add(j, "available_size", json_size(v, human));
	if (read_sysfs_ull(dir, "align", &v))
		add(j, "align", json_object_new_int64(v));
	if (ndctl_dax_get_chardev(dax, name, sizeof(name)))
		return j;
	if ((size_t)snprintf(dev, sizeof(dev), "%s/%s", path, name) >= sizeof(dev))
		return j;
	devs = json_object_new_array();
	jd = json_object_new_object();
	if (!devs || !jd) {
		json_object_put(devs);
		json_object_put(jd);
		return j;
	}
	add(jd, "chardev", json_object_new_string(name));
	if (read_sysfs_ull(dev, "size", &v))
		add(jd, "size", json_size(v, human));
	{
		char buf[32];

		if (read_sysfs(dev, "target_node", buf, sizeof(buf)) == 0
				&& buf[0] && buf[0] != '-')
			add(jd, "target_node", json_object_new_int(atoi(buf)));
	}
	if (read_sysfs_ull(dev, "align", &v))
		add(jd, "align", json_object_new_int64(v));
	if ((size_t)snprintf(dir, sizeof(dir), "%s/driver", dev) < sizeof(dir)
			&& (n = readlink(dir, drv, sizeof(drv) - 1)) > 0) {
		const char *b;

		drv[n] = '\0';
		b = strrchr(drv, '/');
		b = b ? b + 1 : drv;
		if (!strcmp(b, "device_dax"))
			add(jd, "mode", json_object_new_string("devdax"));
		else if (!strcmp(b, "kmem"))
			add(jd, "mode", json_object_new_string("system-ram"));
	}
	json_object_array_add(devs, jd);
	add(j, "devices", devs);
	return j;
}

static const char *const map_names[] = {
	[NDCTL_PFN_LOC_NONE] = "none",
	[NDCTL_PFN_LOC_RAM] = "mem",
	[NDCTL_PFN_LOC_PMEM] = "dev",
};

static const char *map_name(enum ndctl_pfn_loc loc)
{
	return (unsigned int)loc <= NDCTL_PFN_LOC_PMEM ? map_names[loc] : "none";
}

/*
 * A namespace as ndctl 76.1 prints it; NULL for a devdax namespace whose
 * dax device cannot be found (76.1 leaves it out too).  @dax_region:
 * the "daxregion" object instead of "chardev" (-v, create-namespace).
 */
struct json_object *namespace_to_json(struct ndctl_namespace *ndns, bool human,
		bool verbose_fields, bool dax_region)
{
	enum ndctl_namespace_mode mode = ndctl_namespace_get_mode(ndns);
	unsigned int type = ndctl_namespace_get_type(ndns);
	const char *m = mode_name(mode), *bdev = NULL, *name;
	enum ndctl_pfn_loc loc = NDCTL_PFN_LOC_NONE;
	unsigned long long size = ULLONG_MAX;
	struct ndctl_btt *btt = NULL;
	struct ndctl_pfn *pfn = NULL;
	struct ndctl_dax *dax = NULL;
	unsigned long align = 0;
	bool has_lba = true;
	unsigned int lbasize;
	struct json_object *j;
	char str[40];
	uuid_t uu;

	switch (mode) {
	case NDCTL_NS_MODE_SAFE:
		btt = ndctl_namespace_get_btt(ndns);
		if (btt)	/* 76.1 prints what the btt says, 0 too */
			size = ndctl_btt_get_size(btt);
		break;
	case NDCTL_NS_MODE_FSDAX:
		pfn = ndctl_namespace_get_pfn(ndns);
		if (pfn) {
			size = ndctl_pfn_get_size(pfn);
			loc = ndctl_pfn_get_location(pfn);
		} else {	/* page-mapped without a pfn device */
			size = ndctl_namespace_get_size(ndns);
			loc = NDCTL_PFN_LOC_RAM;
		}
		break;
	case NDCTL_NS_MODE_DEVDAX:
		dax = ndctl_namespace_get_dax(ndns);
		if (!dax)
			return NULL;
		size = ndctl_dax_get_size(dax);
		loc = ndctl_dax_get_location(dax);
		has_lba = false;
		break;
	default:
		size = ndctl_namespace_get_size(ndns);
		break;
	}
	j = json_object_new_object();
	if (!j)
		return NULL;
	add(j, "dev", json_object_new_string(ndctl_namespace_get_devname(ndns)));
	if (m)
		add(j, "mode", json_object_new_string(m));
	if (mode != NDCTL_NS_MODE_SAFE && mode != NDCTL_NS_MODE_RAW)
		add(j, "map", json_object_new_string(map_name(loc)));
	if (size != ULLONG_MAX)
		add(j, "size", json_size(size, human));
	if (btt || pfn || dax) {
		if (btt)
			ndctl_btt_get_uuid(btt, uu);
		else if (pfn)
			ndctl_pfn_get_uuid(pfn, uu);
		else
			ndctl_dax_get_uuid(dax, uu);
		uuid_unparse(uu, str);
		add(j, "uuid", json_object_new_string(str));
		ndctl_namespace_get_uuid(ndns, uu);
		if (verbose_fields && !uuid_is_null(uu)) {
			uuid_unparse(uu, str);
			add(j, "raw_uuid", json_object_new_string(str));
		}
	} else if (type != ND_DEVICE_NAMESPACE_IO) {
		ndctl_namespace_get_uuid(ndns, uu);
		uuid_unparse(uu, str);
		add(j, "uuid", json_object_new_string(str));
	}
	if (btt) {
		bdev = ndctl_btt_get_block_device(btt);
	} else if (pfn) {
		align = ndctl_pfn_get_align(pfn);
		bdev = ndctl_pfn_get_block_device(pfn);
	} else if (dax) {
		char cdev[64];

		align = ndctl_dax_get_align(dax);
		if (dax_region || verbose_fields)
			add(j, "daxregion", dax_region_to_json(dax, human));
		else if (!ndctl_dax_get_chardev(dax, cdev, sizeof(cdev)))
			add(j, "chardev", json_object_new_string(cdev));
	} else {
		bdev = ndctl_namespace_get_block_device(ndns);
	}
	if (btt)
		lbasize = ndctl_btt_get_sector_size(btt);
	else
		lbasize = ndctl_namespace_get_sector_size(ndns);
	if (has_lba)
		add(j, "sector_size", json_object_new_int(lbasize ? lbasize : 512));
	if (align)
		add(j, "align", json_object_new_int64(align));
	if (bdev && bdev[0])
		add(j, "blockdev", json_object_new_string(bdev));
	if (!ndctl_namespace_is_active(ndns))
		add(j, "state", json_object_new_string("disabled"));
	name = ndctl_namespace_get_alt_name(ndns);
	if (name && name[0])
		add(j, "name", json_object_new_string(name));
	if (verbose_fields && ndctl_namespace_get_numa_node(ndns) >= 0)
		add(j, "numa_node", json_object_new_int(ndctl_namespace_get_numa_node(ndns)));
	if (verbose_fields) {
		struct ndctl_region *region = ndctl_namespace_get_region(ndns);
		char rel[64];
		int tn;

		snprintf(rel, sizeof(rel), "%s/%s", ndctl_region_get_devname(region),
				ndctl_namespace_get_devname(ndns));
		tn = target_node(ndctl_region_get_bus(region), rel);
		if (tn >= 0)
			add(j, "target_node", json_object_new_int(tn));
	}
	return j;
}

struct json_object *dimm_to_json(struct ndctl_dimm *dimm, bool human,
		bool health)
{
	struct json_object *j = json_object_new_object();
	const char *id = ndctl_dimm_get_unique_id(dimm), *sec;
	unsigned int handle = ndctl_dimm_get_handle(dimm);
	unsigned short phys = ndctl_dimm_get_phys_id(dimm);

	if (!j)
		return NULL;
	add(j, "dev", json_object_new_string(ndctl_dimm_get_devname(dimm)));
	if (id)
		add(j, "id", json_object_new_string(id));
	if (handle != UINT32_MAX)
		add(j, "handle", json_hex(handle, human));
	if (phys != 0xffff)
		add(j, "phys_id", json_hex(phys, human));
	if (!ndctl_dimm_is_enabled(dimm))
		add(j, "state", json_object_new_string("disabled"));
	if (ndctl_dimm_failed_map(dimm))
		add(j, "flag_failed_map", json_object_new_boolean(1));
	if (ndctl_dimm_failed_save(dimm))
		add(j, "flag_failed_save", json_object_new_boolean(1));
	if (ndctl_dimm_failed_arm(dimm))
		add(j, "flag_failed_arm", json_object_new_boolean(1));
	if (ndctl_dimm_failed_restore(dimm))
		add(j, "flag_failed_restore", json_object_new_boolean(1));
	if (ndctl_dimm_failed_flush(dimm))
		add(j, "flag_failed_flush", json_object_new_boolean(1));
	if (ndctl_dimm_smart_pending(dimm))
		add(j, "flag_smart_event", json_object_new_boolean(1));
	sec = ndctl_dimm_get_security(dimm);
	if (sec)
		add(j, "security", json_object_new_string(sec));
	if (health)
		add(j, "health", dimm_health_json(dimm));
	return j;
}

static void put_array(struct json_object *parent, const char *key,
		struct json_object *arr);

/*
 * "dimms": the DIMMs holding [@base + offset * 512, +len * 512), as far
 * as libndctl can tell (a region that is not interleaved: its DIMM).
 */
static struct json_object *badblock_dimms(struct ndctl_region *region,
		unsigned long long base, const struct badblock *b)
{
	struct ndctl_bus *bus = ndctl_region_get_bus(region);
	unsigned long long addr;
	struct json_object *arr;
	struct ndctl_dimm *dimm;

	if (base == ULLONG_MAX || ndctl_region_get_interleave_ways(region) != 1
			|| b->offset > (ULLONG_MAX - base) / 512)
		return NULL;
	addr = base + b->offset * 512;
	dimm = ndctl_bus_get_dimm_by_physical_address(bus, addr);
	if (!dimm)
		return NULL;
	arr = json_object_new_array();
	if (arr)
		json_object_array_add(arr, json_object_new_string(
					ndctl_dimm_get_devname(dimm)));
	return arr;
}

static struct json_object *badblock_to_json(struct ndctl_region *region,
		unsigned long long base, const struct badblock *b)
{
	struct json_object *j = json_object_new_object();

	if (!j)
		return NULL;
	add(j, "offset", json_object_new_int64(b->offset));
	add(j, "length", json_object_new_int64(b->len));
	add(j, "dimms", badblock_dimms(region, base, b));
	return j;
}

/* the system-physical start of what the namespace's sectors count from */
static unsigned long long ns_data_start(struct ndctl_namespace *ndns)
{
	struct ndctl_pfn *pfn = ndctl_namespace_get_pfn(ndns);
	struct ndctl_dax *dax = ndctl_namespace_get_dax(ndns);

	if (pfn)
		return ndctl_pfn_get_resource(pfn);
	if (dax)
		return ndctl_dax_get_resource(dax);
	return ndctl_namespace_get_resource(ndns);
}

/*
 * A namespace's known media errors as 76.1 lists them: badblock_count
 * when non-zero; with -M the "badblocks" array too, except in sector
 * mode, where the count is the region's entries over the whole
 * namespace (BTT metadata included) and no array is printed.
 */
void namespace_media_errors(struct json_object *j,
		struct ndctl_namespace *ndns, bool media)
{
	bool sector = ndctl_namespace_get_mode(ndns) == NDCTL_NS_MODE_SAFE;
	struct json_object *arr = NULL;
	unsigned long long count = 0;
	struct badblock *b;

	if (media && !sector)
		arr = json_object_new_array();
	ndctl_namespace_badblock_foreach(ndns, b) {
		count += b->len;
		if (arr)
			json_object_array_add(arr, badblock_to_json(
					ndctl_namespace_get_region(ndns),
					ns_data_start(ndns), b));
	}
	if (count)
		add(j, "badblock_count", json_object_new_int64(count));
	if (arr)
		put_array(j, "badblocks", arr);
}

static struct json_object *region_to_json(struct ndctl_region *region,
		const struct list_opts *o)
{
	struct json_object *j = json_object_new_object();
	unsigned long long v, bb;
	bool human = o->human;
	const char *pd;

	if (!j)
		return NULL;
	add(j, "dev", json_object_new_string(ndctl_region_get_devname(region)));
	add(j, "size", json_size(ndctl_region_get_size(region), human));
	v = ndctl_region_get_align(region);
	if (v)
		add(j, "align", json_size(v, human));
	add(j, "available_size", json_size(ndctl_region_get_available_size(region),
				human));
	v = ndctl_region_get_max_available_extent(region);
	if (v != ULLONG_MAX)
		add(j, "max_available_extent", json_size(v, human));
	add(j, "type", json_object_new_string(ndctl_region_get_type_name(region)));
	if (o->verbose && ndctl_region_get_numa_node(region) >= 0)
		add(j, "numa_node", json_object_new_int(ndctl_region_get_numa_node(region)));
	if (o->verbose) {
		int tn = target_node(ndctl_region_get_bus(region),
				ndctl_region_get_devname(region));

		if (tn >= 0)
			add(j, "target_node", json_object_new_int(tn));
	}
	if (ndctl_region_get_nstype(region) == ND_DEVICE_NAMESPACE_PMEM)
		add(j, "iset_id", json_hex(ndctl_region_get_set_cookie(region), human));
	if (o->D) {
		struct json_object *jm = json_object_new_array();
		struct ndctl_mapping *m;

		ndctl_mapping_foreach(region, m) {
			struct json_object *e = json_object_new_object();
			struct ndctl_dimm *dimm = ndctl_mapping_get_dimm(m);
			int pos = ndctl_mapping_get_position(m);

			if (o->dimm && !filter_dimm(dimm, o->dimm)) {
				json_object_put(e);
				continue;
			}
			add(e, "dimm", json_object_new_string(ndctl_dimm_get_devname(dimm)));
			add(e, "offset", json_hex(ndctl_mapping_get_offset(m), human));
			add(e, "length", json_hex(ndctl_mapping_get_length(m), human));
			if (pos >= 0)
				add(e, "position", json_object_new_int(pos));
			json_object_array_add(jm, e);
		}
		if (json_object_array_length(jm))
			add(j, "mappings", jm);
		else
			json_object_put(jm);
	}
	bb = ndctl_region_get_badblock_count(region);
	if (bb)
		add(j, "badblock_count", json_object_new_int64(bb));
	if (bb && o->media) {
		struct json_object *arr = json_object_new_array();
		struct badblock *b;

		ndctl_region_badblock_foreach(region, b)
			json_object_array_add(arr, badblock_to_json(region,
					ndctl_region_get_resource(region), b));
		put_array(j, "badblocks", arr);
	}
	if (!ndctl_region_is_enabled(region))
		add(j, "state", json_object_new_string("disabled"));
	pd = ndctl_region_get_persistence_domain(region);
	add(j, "persistence_domain", json_object_new_string(pd && pd[0] ? pd : "unknown"));
	return j;
}

/*
 * ndctl 76 prints `list -RN` as {"regions": [...]} when the last region
 * it listed carries a "namespaces" array, and as a bare array of regions
 * otherwise (list_display() looks at the namespace array of the last
 * region only).  Its library lists buses and regions in reverse readdir
 * order (each new one goes to the head of its list; sysfs orders a
 * directory by name hash), so its last region is the first one in
 * readdir order, of the first bus in readdir order.
 */
struct walk_pos {
	long bus, region;	/* readdir positions, -1 unknown */
};

/* readdir position of PREFIX<id> in DIR, -1 if absent */
static long readdir_pos(const char *dir, const char *prefix, unsigned int id)
{
	char want[64];
	struct dirent *de;
	long i = 0, pos = -1;
	DIR *d;

	snprintf(want, sizeof(want), "%s%u", prefix, id);
	d = opendir(dir);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		if (!strcmp(de->d_name, want)) {
			pos = i;
			break;
		}
		i++;
	}
	closedir(d);
	return pos;
}

static struct walk_pos region_walk_pos(struct ndctl_ctx *ctx,
		struct ndctl_region *region)
{
	struct ndctl_bus *bus = ndctl_region_get_bus(region);
	struct walk_pos p;
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/class/nd", ndctl_get_sysfs_root(ctx));
	p.bus = readdir_pos(dir, "ndctl", ndctl_bus_get_id(bus));
	p.region = readdir_pos(ndctl_bus_get_path(bus), "region",
			ndctl_region_get_id(region));
	return p;
}

/* would ndctl 76 walk a after b? */
static bool walk_after(struct walk_pos a, struct walk_pos b)
{
	return a.bus < b.bus || (a.bus == b.bus && a.region < b.region);
}

static bool mode_matches(struct ndctl_namespace *ndns, const char *filter)
{
	const char *m;

	if (!filter)
		return true;
	m = mode_name(ndctl_namespace_get_mode(ndns));
	if (!m)
		return false;
	if (!strcmp(filter, "safe"))
		filter = "sector";
	else if (!strcmp(filter, "memory"))
		filter = "fsdax";
	else if (!strcmp(filter, "dax"))
		filter = "devdax";
	return !strcmp(m, filter);
}

static bool dimm_in_listed_region(struct ndctl_bus *bus, struct ndctl_dimm *dimm,
		const struct list_opts *o)
{
	struct ndctl_region *region;

	if (!o->region && !o->type)
		return true;
	ndctl_region_foreach(bus, region) {
		struct ndctl_mapping *m;

		if (!filter_region(region, o->region))
			continue;
		if (o->type && strcmp(o->type, ndctl_region_get_type_name(region)))
			continue;
		ndctl_mapping_foreach(region, m)
			if (ndctl_mapping_get_dimm(m) == dimm)
				return true;
	}
	return false;
}

static void put_array(struct json_object *parent, const char *key,
		struct json_object *arr)
{
	if (json_object_array_length(arr))
		json_object_object_add(parent, key, arr);
	else
		json_object_put(arr);
}

int cmd_list(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "region", required_argument, NULL, 'r' },
		{ "dimm", required_argument, NULL, 'd' },
		{ "namespace", required_argument, NULL, 'n' },
		{ "mode", required_argument, NULL, 'm' },
		{ "type", required_argument, NULL, 't' },
		{ "buses", no_argument, NULL, 'B' },
		{ "dimms", no_argument, NULL, 'D' },
		{ "regions", no_argument, NULL, 'R' },
		{ "namespaces", no_argument, NULL, 'N' },
		{ "idle", no_argument, NULL, 'i' },
		{ "configured", no_argument, NULL, 'c' },
		{ "media-errors", no_argument, NULL, 'M' },
		{ "human", no_argument, NULL, 'u' },
		{ "health", no_argument, NULL, 'H' },
		{ "firmware", no_argument, NULL, 'F' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct json_object *jbuses, *jdimms, *jregions, *jnss;
	struct walk_pos last_pos = { LONG_MAX, LONG_MAX };
	bool last_has_ns = false;
	struct list_opts o;
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	int c, nclass;

	memset(&o, 0, sizeof(o));
	optind = 1;
	while ((c = getopt_long(argc, argv, "b:r:d:n:m:t:BDRNicMuHFvh", lopts, NULL)) != -1) {
		switch (c) {
		case 'b': o.bus = optarg; break;
		case 'r': o.region = optarg; break;
		case 'd': o.dimm = optarg; break;
		case 'n': o.ns = optarg; break;
		case 'm': o.mode = optarg; break;
		case 't': o.type = optarg; break;
		case 'B': o.B = true; break;
		case 'D': o.D = true; break;
		case 'R': o.R = true; break;
		case 'N': o.N = true; break;
		case 'i': o.idle = true; break;
		case 'c': o.configured = true; break;
		case 'M': o.media = true; break;
		case 'u': o.human = true; break;
		case 'H': o.health = o.D = true; break;
		case 'F': o.fw = true; break;
		case 'v': o.verbose = true; o.vlevel++; verbose = 1; break;
		case 'h': return print_help(&list_help, stdout);
		default: return print_help(&list_help, stderr);
		}
	}
	if (optind < argc) {
		fail("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (o.type && strcmp(o.type, "pmem") && strcmp(o.type, "blk")) {
		fail("unknown region type '%s' (pmem or blk)", o.type);
		return -EINVAL;
	}
	/*
	 * 76.1: each -v lists more: namespaces; then buses, DIMMs and
	 * regions; then idle devices (and firmware, health, capabilities,
	 * which this list does not print)
	 */
	if (o.vlevel >= 1)
		o.N = o.media = true;
	if (o.vlevel >= 2)
		o.B = o.D = o.R = true;
	if (o.vlevel >= 3)
		o.idle = true;
	if (!o.B && !o.D && !o.R && !o.N)
		o.N = true;
	if (o.region && !strcmp(o.region, "all"))
		o.region = NULL;
	if (o.dimm && !strcmp(o.dimm, "all"))
		o.dimm = NULL;
	if (o.ns && !strcmp(o.ns, "all"))
		o.ns = NULL;
	if (cli_ctx_new(&ctx))
		return 1;

	jbuses = json_object_new_array();
	jdimms = json_object_new_array();
	jregions = json_object_new_array();
	jnss = json_object_new_array();
	ndctl_bus_foreach(ctx, bus) {
		struct json_object *bdimms, *bregions, *bnss, *jbus = NULL, *jd;
		struct ndctl_region *region;
		struct ndctl_dimm *dimm;

		if (!filter_bus(bus, o.bus))
			continue;
		bdimms = o.B ? json_object_new_array() : jdimms;
		bregions = o.B ? json_object_new_array() : jregions;
		bnss = o.B ? json_object_new_array() : jnss;
		if (o.D) {
			ndctl_dimm_foreach(bus, dimm) {
				if (!filter_dimm(dimm, o.dimm))
					continue;
				if (!dimm_in_listed_region(bus, dimm, &o))
					continue;
				/* 76.1: -c shows disabled DIMMs and regions too */
				if (!o.idle && !o.configured && !ndctl_dimm_is_enabled(dimm))
					continue;
				jd = dimm_to_json(dimm, o.human, o.health);
				if (jd && o.fw)
					add(jd, "firmware", dimm_firmware_json(dimm, o.human));
				json_object_array_add(bdimms, jd);
			}
		}
		if (o.R || o.N) {
			ndctl_region_foreach(bus, region) {
				struct json_object *jreg = NULL, *rnss, *jns;
				struct ndctl_namespace *ndns;

				if (!filter_region(region, o.region))
					continue;
				if (o.type && strcmp(o.type, ndctl_region_get_type_name(region)))
					continue;
				if (!filter_region_dimms(region, o.dimm))
					continue;
				if (!o.idle && !o.configured &&
				    !ndctl_region_is_enabled(region))
					continue;
				if (o.R)
					jreg = region_to_json(region, &o);
				rnss = o.R ? json_object_new_array() : bnss;
				if (o.N) {
					ndctl_namespace_foreach(region, ndns) {
						if (!filter_namespace(ndns, o.ns))
							continue;
						if (!mode_matches(ndns, o.mode))
							continue;
						if (!o.idle && !ndctl_namespace_is_active(ndns) &&
						    !(o.configured &&
						      ndctl_namespace_is_configured(ndns)))
							continue;
						jns = namespace_to_json(ndns, o.human,
								o.verbose, false);
						if (!jns)
							continue;
						namespace_media_errors(jns, ndns, o.media);
						json_object_array_add(rnss, jns);
					}
				}
				if (o.R && o.N && !o.B && !o.D) {
					struct walk_pos p = region_walk_pos(ctx, region);

					if (walk_after(p, last_pos)) {
						last_pos = p;
						last_has_ns = json_object_array_length(rnss) > 0;
					}
				}
				if (o.R) {
					put_array(jreg, "namespaces", rnss);
					/* a namespace filter hides regions without a match */
					if (o.ns && o.N && !json_object_object_get_ex(jreg,
								"namespaces", NULL))
						json_object_put(jreg);
					else
						json_object_array_add(bregions, jreg);
				}
			}
		}
		if (o.B) {
			const char *scrub = ndctl_bus_get_scrub_state(bus);

			jbus = json_object_new_object();
			add(jbus, "provider", json_object_new_string(ndctl_bus_get_provider(bus)));
			add(jbus, "dev", json_object_new_string(ndctl_bus_get_devname(bus)));
			/* 76.1: a bus without scrub_state shows no firmware */
			if (scrub)
				add(jbus, "scrub_state", json_object_new_string(scrub));
			if (scrub && o.fw)
				add(jbus, "firmware", bus_firmware_json(bus));
			put_array(jbus, "dimms", bdimms);
			put_array(jbus, "regions", bregions);
			put_array(jbus, "namespaces", bnss);
			json_object_array_add(jbuses, jbus);
		}
	}

	nclass = o.D + o.R + (o.N && !o.R);
	if (o.B) {
		if (json_object_array_length(jbuses) == 1 && o.human)
			json_print(json_object_array_get_idx(jbuses, 0));
		else if (json_object_array_length(jbuses))
			json_print(jbuses);
	} else if (nclass > 1 || (o.R && o.N && last_has_ns)) {
		struct json_object *top = json_object_new_object();

		if (o.D)
			put_array(top, "dimms", json_object_get(jdimms));
		if (o.R)
			put_array(top, "regions", json_object_get(jregions));
		if (o.N && !o.R)
			put_array(top, "namespaces", json_object_get(jnss));
		if (json_object_object_length(top))
			json_print(top);
		json_object_put(top);
	} else {
		struct json_object *arr = o.D ? jdimms : o.R ? jregions : jnss;

		if (json_object_array_length(arr) == 1 && o.human)
			json_print(json_object_array_get_idx(arr, 0));
		else if (json_object_array_length(arr))
			json_print(arr);
	}
	json_object_put(jbuses);
	json_object_put(jdimms);
	json_object_put(jregions);
	json_object_put(jnss);
	ndctl_unref(ctx);
	return 0;
}
