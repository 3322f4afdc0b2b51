// SPDX-License-Identifier: GPL-2.0-or-later
/* create-namespace and destroy-namespace (sysfs-abi §10.3) */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "label-format.h"

#define INFO_WIPE_SIZE 8192
#define SZ_16M (16ULL << 20)
/* 76.1 (and v4.2's BLK driver): a new BLK namespace, and a BTT, without -l */
#define DEFAULT_LBASIZE 4096

static const struct cmd_help create_help = {
	"ndctl create-namespace [<options>]",
	"    -b, --bus <bus-id>    limit namespace to a bus with an id or provider of <bus-id>\n"
	"    -r, --region <region-id>\n"
	"                          limit namespace to a region with an id or name of <region-id>\n"
	"    -e, --reconfig <namespace>\n"
	"                          reconfigure an existing namespace\n"
	"    -u, --uuid <uuid>     the uuid of the namespace (default: random)\n"
	"    -n, --name <name>     an optional name for the namespace (at most 63 bytes)\n"
	"    -s, --size <size>     size in bytes, K/M/G/T suffixes (default: all available)\n"
	"    -m, --mode <mode>     'raw', 'sector' (a BTT), 'fsdax' (a pfn device)\n"
	"                          or 'devdax' (a dax device); default: fsdax on\n"
	"                          pmem (raw where the kernel has no pfn seed),\n"
	"                          sector on blk (as ndctl 76.1)\n"
	"    -M, --map <where>     fsdax/devdax memmap location: 'mem' or 'dev'\n"
	"                          (default dev)\n"
	"    -a, --align <n>       fsdax/devdax alignment, one the kernel lists\n"
	"                          (default: the seed's, 2M)\n"
	"    -l, --sector-size <n> logical sector size (default 4096 for blk and sector\n"
	"                          mode; blk: 512 520 528 4096 4104 4160 4224)\n"
	"    -t, --type <type>     'pmem' or 'blk'\n"
	"    -f, --force           reconfigure the namespace even if currently active\n"
	"    -L, --autolabel       initialise labels on label-less regions (reconfigure)\n"
	"        --no-autolabel    never initialise labels\n"
	"    -v, --verbose         emit debug messages\n"
	"    -h, --help            show this help\n",
};

static const struct cmd_help destroy_help = {
	"ndctl destroy-namespace <namespace> [<options>]",
	"    <namespace>           namespaceX.Y, or 'all'\n"
	"    -b, --bus <bus-id>    limit namespace to a bus with an id or provider of <bus-id>\n"
	"    -r, --region <region-id>\n"
	"                          limit namespace to a region with an id or name of <region-id>\n"
	"    -f, --force           destroy namespace even if currently active\n"
	"    -v, --verbose         emit debug messages\n"
	"    -h, --help            show this help\n",
};

struct create_opts {
	const char *bus, *region, *reconfig, *uuid, *name, *size, *mode;
	const char *sector, *type, *map, *align;
	bool force, sector_mode;
	/* fsdax or devdax (a pfn or dax device claims the namespace) */
	enum { DAX_NONE, DAX_FS, DAX_DEV } dax_mode;
	bool mode_default;	/* no -m: fsdax if the region can, else raw */
	enum ndctl_pfn_loc loc;
	unsigned long align_bytes;	/* -a, or the mode's default */
	int autolabel;	/* -1 default, 0 no, 1 yes */
	char name_buf[64];	/* -e: the old alt_name, when -n is not given */
	unsigned long long size_bytes;
	unsigned int lbasize;
	uuid_t uu;
};

/*
 * Bind a disabled namespace raw (force_raw) and open its block device
 * (path in @path) with @flags.  Returns the descriptor, or -errno with the
 * namespace disabled and force_raw cleared again (not reported).
 */
int namespace_raw_open(struct ndctl_namespace *ndns, int flags, char *path,
		size_t len)
{
	struct ndctl_ctx *ctx = ndctl_namespace_get_ctx(ndns);
	const char *bdev;
	int fd, rc;

	rc = ndctl_namespace_set_raw_mode(ndns, 1);
	if (rc)
		goto fail;
	rc = ndctl_namespace_enable(ndns);
	if (rc) {
		rc = rc > 0 ? -EBUSY : rc;	/* a btt claimed it after all */
		goto fail;
	}
	bdev = ndctl_namespace_get_block_device(ndns);
	if (!bdev) {
		rc = -ENXIO;
		goto fail;
	}
	if ((size_t)snprintf(path, len, "%s/%s", ndctl_get_dev_root(ctx), bdev) >= len) {
		rc = -ENAMETOOLONG;
		goto fail;
	}
	fd = open(path, flags);
	if (fd >= 0)
		return fd;
	rc = -errno;
fail:
	namespace_raw_close(ndns, -1);
	return rc;
}

/*
 * Undo namespace_raw_open(): close @fd (unless negative), unbind, clear
 * force_raw.  Returns 0, -EBUSY when the unbind failed or -EIO when
 * force_raw could not be cleared (not reported).
 */
int namespace_raw_close(struct ndctl_namespace *ndns, int fd)
{
	int rc = 0;

	if (fd >= 0)
		close(fd);
	if (ndctl_namespace_disable(ndns))
		rc = -EBUSY;
	if (ndctl_namespace_set_raw_mode(ndns, 0) && !rc)
		rc = -EIO;
	return rc;
}

/*
 * What -e took away, to put it back when the new configuration fails
 * after the old namespace was deleted.
 */
struct ns_snapshot {
	uuid_t uuid;
	char name[64];
	unsigned long long size, resource;
	unsigned int lbasize;
	const char *holder_class;	/* "", "btt", "pfn" or "dax" */
	bool active;
	bool saved;			/* info[] holds the wiped bytes */
	unsigned char info[INFO_WIPE_SIZE];
};

/*
 * Zero the first 8 KiB through the raw block device (BTT/PFN info
 * blocks); with @snap, what was there is kept in it first.
 */
static int zero_info_block(struct ndctl_namespace *ndns, struct ns_snapshot *snap)
{
	const char *devname = ndctl_namespace_get_devname(ndns);
	char path[PATH_MAX];
	void *buf = NULL;
	int fd, rc = 0, rc2;

	fd = namespace_raw_open(ndns, O_RDWR | O_EXCL | O_DIRECT | O_CLOEXEC,
			path, sizeof(path));
	if (fd < 0) {
		rc = fd;
		goto out;
	}
	if (posix_memalign(&buf, 4096, INFO_WIPE_SIZE)) {
		rc = -ENOMEM;
		goto out_close;
	}
	if (pread(fd, buf, INFO_WIPE_SIZE, 0) == INFO_WIPE_SIZE) {
		unsigned char *p = buf;
		size_t i;

		if (snap) {
			memcpy(snap->info, buf, INFO_WIPE_SIZE);
			snap->saved = true;
		}
		for (i = 0; i < INFO_WIPE_SIZE && !p[i]; i++)
			;
		if (i == INFO_WIPE_SIZE)
			goto out_close;
	}
	memset(buf, 0, INFO_WIPE_SIZE);
	if (pwrite(fd, buf, INFO_WIPE_SIZE, 0) != INFO_WIPE_SIZE)
		rc = errno ? -errno : -EIO;
	if (!rc && fsync(fd) < 0)
		rc = -errno;
out_close:
	free(buf);
	rc2 = namespace_raw_close(ndns, fd);
	if (rc2 && !rc)
		rc = rc2;
out:
	if (rc)
		fail("%s: cannot clear the info block: %s", devname, strerror(-rc));
	return rc;
}

/*
 * Why ndctl_namespace_check_unused() refused: a devdax namespace has no
 * block device, so its memory is online as system RAM.
 */
const char *busy_reason(struct ndctl_namespace *ndns)
{
	if (ndctl_namespace_get_dax(ndns))
		return "memory online as system-ram (daxctl offline-memory first)";
	return "failed exclusive open";
}

/*
 * Unbind a namespace nobody uses: refuse while its block device is held
 * (a mounted filesystem or another exclusive opener: touch nothing),
 * delete a claiming btt (device model only, the media stays), disable.
 * Returns 0 or -errno (reported).
 */
int namespace_release(struct ndctl_namespace *ndns)
{
	const char *devname = ndctl_namespace_get_devname(ndns);
	struct ndctl_btt *btt = ndctl_namespace_get_btt(ndns);
	struct ndctl_pfn *pfn = ndctl_namespace_get_pfn(ndns);
	struct ndctl_dax *dax = ndctl_namespace_get_dax(ndns);
	int rc;

	rc = ndctl_namespace_check_unused(ndns);
	if (rc) {
		fail("%s: %s: %s", devname, busy_reason(ndns), strerror(-rc));
		return rc;
	}
	if (btt) {
		rc = ndctl_btt_delete(btt);
		if (rc) {
			fail("%s: cannot delete %s: %s", devname,
					ndctl_btt_get_devname(btt), strerror(-rc));
			return rc;
		}
	}
	if (pfn || dax) {
		rc = pfn ? ndctl_pfn_delete(pfn) : ndctl_dax_delete(dax);
		if (rc) {
			fail("%s: cannot delete %s: %s", devname, pfn
					? ndctl_pfn_get_devname(pfn)
					: ndctl_dax_get_devname(dax), strerror(-rc));
			return rc;
		}
	}
	rc = ndctl_namespace_disable(ndns);
	if (rc)
		fail("%s: cannot disable: %s", devname, strerror(-rc));
	return rc;
}

/*
 * Take a namespace out of service: delete a claiming btt, disable it, and
 * clear the info block if it was in use, or always with @wipe (-e: a stale
 * BTT or PFN info block left on a disabled namespace must not be
 * autodetected on the reconfigured one).  Returns 0 or -errno (reported).
 */
static int namespace_quiesce(struct ndctl_namespace *ndns, bool force, bool wipe,
		struct ns_snapshot *snap)
{
	const char *devname = ndctl_namespace_get_devname(ndns);
	bool claimed = ndctl_namespace_get_btt(ndns) || ndctl_namespace_get_pfn(ndns)
		|| ndctl_namespace_get_dax(ndns);
	bool active = ndctl_namespace_is_active(ndns);
	struct ndctl_region *region = ndctl_namespace_get_region(ndns);
	int rc;

	if (ndctl_region_get_read_only(region) == 1) {
		fail("%s: %s is read-only, reconfiguration disabled", devname,
				ndctl_region_get_devname(region));
		return -ENXIO;
	}
	if (active && !force) {
		fail("%s is active, specify --force to continue", devname);
		return -EBUSY;
	}
	rc = namespace_release(ndns);
	if (rc)
		return rc;
	if (active || claimed || (wipe && ndctl_namespace_get_size(ndns)))
		return zero_info_block(ndns, snap);
	return 0;
}

static unsigned long long region_align(struct ndctl_region *region)
{
	unsigned long long a = ndctl_region_get_align(region);

	if (!a)
		a = (unsigned long long)sysconf(_SC_PAGESIZE)
			* ndctl_region_get_interleave_ways(region);
	return a;
}

static struct ndctl_namespace *idle_namespace(struct ndctl_region *region)
{
	struct ndctl_namespace *ndns;

	ndctl_namespace_foreach(region, ndns)
		if (ndctl_namespace_get_id(ndns) == 0) {
			if (!ndctl_namespace_is_active(ndns)
					&& !ndctl_namespace_is_configured(ndns))
				return ndns;
			break;
		}
	return ndctl_region_get_namespace_seed(region);
}

/*
 * The sector size a new or reconfigured namespace gets: -l, else 4096 for
 * a BLK namespace (76.1 writes it whatever the seed held before), else
 * nothing (PMEM keeps the kernel's default).
 */
static unsigned int namespace_lbasize(struct ndctl_namespace *ndns,
		const struct create_opts *o)
{
	if (o->lbasize)
		return o->lbasize;
	if (ndctl_namespace_get_type(ndns) == ND_DEVICE_NAMESPACE_BLK)
		return DEFAULT_LBASIZE;
	/* 76.1: a PMEM namespace that lists sizes gets 512 (a BTT's 4096) */
	if (ndctl_namespace_get_num_sector_sizes(ndns) > 0)
		return o->sector_mode ? DEFAULT_LBASIZE : 512;
	return 0;
}

/*
 * Does the namespace @ndns (or, when NULL, the btt @btt) list sector size
 * @want?  With @buf, the list is also written there ("512 520 ...").
 */
static bool sizes_list_of(struct ndctl_namespace *ndns, struct ndctl_btt *btt,
		unsigned int want, char *buf, size_t len)
{
	int i, n = ndns ? ndctl_namespace_get_num_sector_sizes(ndns)
		: ndctl_btt_get_num_sector_sizes(btt);
	bool listed = false;
	size_t l = 0;

	if (buf && len)
		buf[0] = '\0';
	for (i = 0; i < n; i++) {
		int v = ndns ? ndctl_namespace_get_supported_sector_size(ndns, i)
			: ndctl_btt_get_supported_sector_size(btt, i);

		if (v == (int)want)
			listed = true;
		if (buf && l < len)
			l += snprintf(buf + l, len - l, "%s%d", i ? " " : "", v);
	}
	return listed;
}

/*
 * -l against what the kernel lists, before anything is written: sector
 * mode asks the region's btt seed (the BTT's sector size), raw mode the
 * namespace (a BLK namespace: its media format, 512 520 528 4096 4104
 * 4160 4224; PMEM: 512 4096; io namespaces: none but 512).
 */
static int check_sector_size(struct ndctl_region *region,
		struct ndctl_namespace *ndns, const struct create_opts *o)
{
	const char *devname = ndctl_namespace_get_devname(ndns);
	unsigned int want = namespace_lbasize(ndns, o);
	char list[128];

	if (o->sector_mode) {
		struct ndctl_btt *btt = ndctl_region_get_btt_seed(region);
		unsigned int lba = o->lbasize ? o->lbasize : DEFAULT_LBASIZE;

		if (btt && !sizes_list_of(NULL, btt, lba, list, sizeof(list))) {
			fail("%s: sector size %u not supported by a BTT (supported: %s)",
					ndctl_btt_get_devname(btt), lba, list);
			return -EINVAL;
		}
		return 0;
	}
	if (ndctl_namespace_get_num_sector_sizes(ndns) > 0) {
		if (want && !sizes_list_of(ndns, NULL, want, list, sizeof(list))) {
			fail("%s: sector size %u not supported (supported: %s)",
					devname, want, list);
			return -EINVAL;
		}
	} else if (o->lbasize && o->lbasize != 512) {
		fail("%s: no selectable sector size (512 only)", devname);
		return -EINVAL;
	}
	return 0;
}

/*
 * fsdax / devdax: the region's pfn or dax seed takes the namespace
 * (76.1's order: uuid, mode, align, namespace, then bind).  On failure
 * the seed lets go of the namespace again.
 */
static int setup_pfn_dax(struct ndctl_region *region,
		struct ndctl_namespace *ndns, const struct create_opts *o)
{
	const char *devname = ndctl_namespace_get_devname(ndns);
	struct ndctl_pfn *pfn = NULL;
	struct ndctl_dax *dax = NULL;
	unsigned long long res;
	const char *sname;
	uuid_t uu;
	int rc;

	if (o->dax_mode == DAX_FS)
		pfn = ndctl_region_get_pfn_seed(region);
	else
		dax = ndctl_region_get_dax_seed(region);
	if (!pfn && !dax) {
		fail("%s: no %s seed", ndctl_region_get_devname(region),
				o->dax_mode == DAX_FS ? "pfn" : "dax");
		return -ENXIO;
	}
	sname = pfn ? ndctl_pfn_get_devname(pfn) : ndctl_dax_get_devname(dax);
	/* the pages must start on a 16 MiB boundary (unless -f) */
	res = ndctl_namespace_get_resource(ndns);
	if (res != ULLONG_MAX && res % SZ_16M && !o->force) {
		fail("%s misaligned to 16M, adjust region alignment and retry",
				devname);
		return -EINVAL;
	}
	uuid_generate(uu);
	if (pfn) {
		rc = ndctl_pfn_set_uuid(pfn, uu);
		if (!rc)
			rc = ndctl_pfn_set_location(pfn, o->loc);
		if (!rc && ndctl_pfn_has_align(pfn))
			rc = ndctl_pfn_set_align(pfn, o->align_bytes);
		if (!rc)
			rc = ndctl_pfn_set_namespace(pfn, ndns);
		if (!rc)
			rc = ndctl_pfn_enable(pfn);
	} else {
		rc = ndctl_dax_set_uuid(dax, uu);
		if (!rc)
			rc = ndctl_dax_set_location(dax, o->loc);
		if (!rc)
			rc = ndctl_dax_set_align(dax, o->align_bytes);
		if (!rc)
			rc = ndctl_dax_set_namespace(dax, ndns);
		if (!rc)
			rc = ndctl_dax_enable(dax);
	}
	if (rc) {
		fail("%s: %s setup on %s failed: %s", sname,
				pfn ? "fsdax" : "devdax", devname, strerror(-rc));
		if (pfn)
			ndctl_pfn_delete(pfn);
		else
			ndctl_dax_delete(dax);
	}
	return rc;
}

static int setup_namespace(struct ndctl_region *region,
		struct ndctl_namespace *ndns, struct create_opts *o,
		unsigned long long size)
{
	const char *devname = ndctl_namespace_get_devname(ndns);
	unsigned int type = ndctl_namespace_get_type(ndns);
	struct ndctl_btt *btt = NULL;
	int rc;

	if (o->sector_mode) {
		btt = ndctl_region_get_btt_seed(region);
		if (!btt) {
			fail("%s: sector mode not available (no btt seed: no BTT support)",
					ndctl_region_get_devname(region));
			return -EOPNOTSUPP;
		}
	}
	if (type != ND_DEVICE_NAMESPACE_IO) {
		rc = ndctl_namespace_set_uuid(ndns, o->uu);
		if (!rc)
			rc = ndctl_namespace_set_alt_name(ndns, o->name ? o->name : "");
		if (!rc)
			rc = ndctl_namespace_set_size(ndns, size);
		if (rc) {
			fail("%s: configuration failed: %s", devname, strerror(-rc));
			return rc;
		}
	}
	if (ndctl_namespace_get_num_sector_sizes(ndns) > 0) {
		/* checked by check_sector_size() before any write */
		unsigned int want = namespace_lbasize(ndns, o);

		if (want && sizes_list_of(ndns, NULL, want, NULL, 0)) {
			rc = ndctl_namespace_set_sector_size(ndns, want);
			if (rc) {
				fail("%s: cannot set sector size %u: %s", devname,
						want, strerror(-rc));
				return rc;
			}
		}
	}
	/* the claim class; older kernels lack the attribute */
	ndctl_namespace_set_holder_class(ndns, o->sector_mode ? "btt"
			: o->dax_mode == DAX_FS ? "pfn"
			: o->dax_mode == DAX_DEV ? "dax" : "");
	if (o->dax_mode)
		return setup_pfn_dax(region, ndns, o);
	if (!o->sector_mode) {
		rc = ndctl_namespace_enable(ndns);
		if (rc < 0 && rc == -ENXIO && type == ND_DEVICE_NAMESPACE_BLK) {
			fail("%s: enable failed: no driver bound it "
					"(BLK namespaces need the nd_blk driver)", devname);
			return rc;
		}
		if (rc < 0) {
			fail("%s: enable failed: %s", devname, strerror(-rc));
			return rc;
		}
		return 0;
	}
	{
		unsigned int lba = o->lbasize ? o->lbasize : DEFAULT_LBASIZE;
		bool claimed = false;
		uuid_t bu;

		uuid_generate(bu);
		rc = ndctl_btt_set_uuid(btt, bu);
		if (!rc)
			rc = ndctl_btt_set_sector_size(btt, lba);
		if (!rc) {
			rc = ndctl_btt_set_namespace(btt, ndns);
			claimed = !rc;
		}
		if (!rc)
			rc = ndctl_btt_enable(btt);
		if (rc) {
			/* the kernel refuses the claim of a namespace too small */
			fail("%s: btt setup on %s failed: %s%s",
					ndctl_btt_get_devname(btt), devname,
					strerror(-rc), !claimed && rc == -ENXIO
					? " (a BTT needs 16 MiB behind its info block: "
					  "16 MiB + 4 KiB for a BTT 1.1)" : "");
			ndctl_btt_delete(btt);
			return rc;
		}
	}
	return 0;
}

static void undo_namespace(struct ndctl_namespace *ndns)
{
	ndctl_namespace_disable(ndns);
	ndctl_namespace_set_holder_class(ndns, "");
	if (ndctl_namespace_get_type(ndns) != ND_DEVICE_NAMESPACE_IO)
		ndctl_namespace_delete(ndns);
}

/* the new namespace as JSON; human-readable sizes on a terminal (76.1) */
static void print_ns(struct ndctl_namespace *ndns)
{
	struct json_object *j = namespace_to_json(ndns, isatty(STDOUT_FILENO), false, true);

	if (j) {
		json_print(j);
		json_object_put(j);
	}
}

/* pick size: requested (checked) or all the capacity, aligned */
static int region_capacity(struct ndctl_region *region, struct create_opts *o,
		unsigned long long *sizep, bool quiet)
{
	unsigned long long avail, align = region_align(region);
	const char *rname = ndctl_region_get_devname(region);

	/* a PMEM namespace is one extent per DIMM; BLK may be discontiguous */
	avail = ULLONG_MAX;
	if (ndctl_region_get_nstype(region) != ND_DEVICE_NAMESPACE_BLK)
		avail = ndctl_region_get_max_available_extent(region);
	if (avail == ULLONG_MAX)
		avail = ndctl_region_get_available_size(region);
	if (o->size_bytes) {
		if (o->size_bytes % align) {
			if (!quiet)
				fail("%s: size %llu is not a multiple of %llu", rname,
						o->size_bytes, align);
			return -EINVAL;
		}
		if (o->size_bytes > avail)
			return -ENOSPC;
		*sizep = o->size_bytes;
	} else {
		*sizep = avail / align * align;
		if (!*sizep)
			return -ENOSPC;
	}
	if (o->sector_mode && *sizep < SZ_16M)
		return -ENOSPC;
	return 0;
}

static const char *mode_str(const struct create_opts *o)
{
	if (o->dax_mode)
		return o->dax_mode == DAX_FS ? "fsdax" : "devdax";
	return o->sector_mode ? "sector" : "raw";
}

/*
 * fsdax/devdax against what the region offers, before anything is
 * written (76.1's order): the seed (no -m and no pfn seed: raw), -a
 * among the seed's alignments (or its default), the namespace start on
 * a 16 MiB boundary (unless -f).
 */
static int check_pfn_dax(struct ndctl_region *region, struct create_opts *o)
{
	const char *rname = ndctl_region_get_devname(region);
	struct ndctl_pfn *pfn = NULL;
	struct ndctl_dax *dax = NULL;
	unsigned long long res;
	int i, n = 0;

	if (o->dax_mode == DAX_FS) {
		pfn = ndctl_region_get_pfn_seed(region);
		if (!pfn && o->mode_default) {
			fail("%s fsdax mode not available", rname);
			o->dax_mode = DAX_NONE;
		} else if (!pfn) {
			fail("operation failed, %s cannot support requested mode "
					"(no pfn seed: fsdax is not available)", rname);
			return -ENODEV;	/* 76.1's exit status for it */
		}
	} else if (o->dax_mode == DAX_DEV) {
		dax = ndctl_region_get_dax_seed(region);
		if (!dax) {
			fail("%s: kernel does not support devdax mode (no dax seed)",
					rname);
			return -ENODEV;
		}
	}
	if (o->align) {
		if (!pfn && !dax) {
			fail("%s mode does not support setting an alignment",
					mode_str(o));
			return -ENODEV;	/* 76.1's exit status for it */
		}
		n = pfn ? ndctl_pfn_get_num_alignments(pfn)
			: ndctl_dax_get_num_alignments(dax);
		for (i = 0; i < n; i++)
			if ((pfn ? ndctl_pfn_get_supported_alignment(pfn, i)
				 : ndctl_dax_get_supported_alignment(dax, i))
					== o->align_bytes)
				break;
		if (i >= n) {
			char list[128];
			size_t l = 0;

			list[0] = '\0';
			for (i = 0; i < n && l < sizeof(list); i++)
				l += snprintf(list + l, sizeof(list) - l, "%s%lu",
						i ? " " : "", pfn
						? ndctl_pfn_get_supported_alignment(pfn, i)
						: ndctl_dax_get_supported_alignment(dax, i));
			fail("unsupported align: %s (%s supports: %s)", o->align,
					pfn ? ndctl_pfn_get_devname(pfn)
					: ndctl_dax_get_devname(dax), list);
			return -ENODEV;
		}
	} else if (pfn && !o->align_bytes) {
		o->align_bytes = ndctl_pfn_has_align(pfn)
			? ndctl_pfn_get_align(pfn) : 2UL << 20;
	} else if (dax && !o->align_bytes) {
		o->align_bytes = ndctl_dax_get_align(dax);
	}
	if (!o->align_bytes)
		o->align_bytes = sysconf(_SC_PAGESIZE);
	/* a region not aligned to the default (nfit_test): page alignment */
	res = ndctl_region_get_resource(region);
	if (!o->align && res != ULLONG_MAX && (res & (o->align_bytes - 1)))
		o->align_bytes = sysconf(_SC_PAGESIZE);
	return 0;
}

static int create_in_region(struct ndctl_region *region,
		const struct create_opts *opts)
{
	const char *rname = ndctl_region_get_devname(region);
	struct ndctl_namespace *ndns;
	unsigned long long size;
	unsigned int nstype = ndctl_region_get_nstype(region);
	struct create_opts copy = *opts, *o = &copy;
	int rc;

	if (nstype == ND_DEVICE_NAMESPACE_IO)
		return -ENOSPC;	/* the io namespace is there already */
	/* 76.1: without -m a new BLK namespace is a sector (BTT) namespace */
	if (!o->mode && nstype == ND_DEVICE_NAMESPACE_BLK)
		o->sector_mode = true;
	if (o->dax_mode && nstype == ND_DEVICE_NAMESPACE_BLK) {
		fail("blk %s does not support %s mode", rname, mode_str(o));
		return -ENOSPC;
	}
	if (o->dax_mode || o->align) {
		rc = check_pfn_dax(region, o);
		if (rc)
			return rc;
	}
	/* 76.1 checks the region's alignment first */
	if (o->dax_mode && o->size_bytes && o->size_bytes % region_align(region)) {
		fail("%s: size %llu is not a multiple of %llu", rname,
				o->size_bytes, region_align(region));
		return -EINVAL;
	}
	if ((o->sector_mode || o->dax_mode) && o->size_bytes
			&& o->size_bytes < SZ_16M) {
		fail("%s: size %llu: %s mode needs at least 16 MiB (-m raw for less)",
				rname, o->size_bytes, mode_str(o));
		return -ENODEV;	/* 76.1's exit status for it */
	}
	rc = region_capacity(region, o, &size, false);
	if (rc)
		return rc;
	if (o->dax_mode) {
		unsigned long long a = (unsigned long long)o->align_bytes
			* ndctl_region_get_interleave_ways(region);

		if (size % a) {
			fail("%s: size %llu must align to interleave-width %u "
					"and alignment %lu", rname, size,
					ndctl_region_get_interleave_ways(region),
					o->align_bytes);
			return -EINVAL;
		}
		if (size < SZ_16M)
			return -ENOSPC;
	}
	if (!o->sector_mode && !ndctl_region_get_namespace_seed(region)) {
		fail("%s: failed to get the namespace seed", rname);
		return -ENXIO;
	}
	ndns = idle_namespace(region);
	if (!ndns) {
		fail("%s: no idle namespace", rname);
		return -ENXIO;
	}
	rc = check_sector_size(region, ndns, o);
	if (rc)
		return rc;
	rc = setup_namespace(region, ndns, o, size);
	if (rc) {
		undo_namespace(ndns);
		return rc;
	}
	print_ns(ndns);
	return 0;
}

static bool region_wanted(struct ndctl_region *region, struct create_opts *o)
{
	if (!match_region(region, o->region))
		return false;
	if (o->type && strcmp(o->type, ndctl_region_get_type_name(region)))
		return false;
	if (!ndctl_region_is_enabled(region))
		return false;
	if (ndctl_region_get_read_only(region) == 1)
		return false;
	return true;
}

static struct ndctl_namespace *find_namespace(struct ndctl_ctx *ctx,
		const char *bus_f, const char *region_f, const char *name)
{
	struct ndctl_region *region;
	struct ndctl_namespace *ndns;
	struct ndctl_bus *bus;

	ndctl_bus_foreach(ctx, bus) {
		if (!match_bus(bus, bus_f))
			continue;
		ndctl_region_foreach(bus, region) {
			if (!match_region(region, region_f))
				continue;
			ndctl_namespace_foreach(region, ndns)
				if (!strcmp(ndctl_namespace_get_devname(ndns), name))
					return ndns;
		}
	}
	return NULL;
}

static int pick_label_version(struct ndctl_dimm *dimm)
{
	int rc = ndctl_dimm_init_labels(dimm, NDCTL_LABEL_V1_2);
	unsigned int config_size, nslot;
	int avail;

	if (rc)
		return rc;
	/* a kernel without v1.2 support computes the v1.1 slot count */
	if (ndctl_dimm_get_config_size(dimm, &config_size, NULL))
		return 0;
	nslot = nd_lsa_nslot(config_size, ND_LSA_LABEL_V12);
	avail = ndctl_dimm_get_available_labels(dimm);
	if (avail >= 0 && (unsigned int)avail + 1 != nslot)
		return ndctl_dimm_init_labels(dimm, NDCTL_LABEL_V1_1);
	return 0;
}

/* an enabled region other than @self that maps @dimm, or NULL */
static struct ndctl_region *dimm_used_elsewhere(struct ndctl_region *self,
		struct ndctl_dimm *dimm)
{
	struct ndctl_bus *bus = ndctl_region_get_bus(self);
	struct ndctl_region *r;
	struct ndctl_mapping *m;

	ndctl_region_foreach(bus, r) {
		if (r == self || !ndctl_region_is_enabled(r))
			continue;
		ndctl_mapping_foreach(r, m)
			if (ndctl_mapping_get_dimm(m) == dimm)
				return r;
	}
	return NULL;
}

/*
 * Label-less region whose DIMMs can all store labels: initialise them.
 * Every DIMM is checked before the first write: label commands, a
 * readable area size, no other enabled region on it (the kernel refuses
 * label writes to an active DIMM, and failing on the third DIMM would
 * leave the first two with a fresh index in a region still label-less).
 * After the region is disabled the kernel's own word is checked again.
 */
static int autolabel_region(struct ndctl_region *region)
{
	const char *rname = ndctl_region_get_devname(region);
	struct ndctl_region *other;
	struct ndctl_dimm *dimm;
	unsigned int config_size;
	int rc;

	if (!ndctl_region_get_mappings(region))
		return -EOPNOTSUPP;
	ndctl_dimm_foreach_in_region(region, dimm) {
		const char *dname = ndctl_dimm_get_devname(dimm);

		if (!ndctl_dimm_has_labels_support(dimm))
			return -EOPNOTSUPP;
		rc = ndctl_dimm_get_config_size(dimm, &config_size, NULL);
		if (rc) {
			fail("%s: cannot label %s: no label area size: %s", rname,
					dname, strerror(-rc));
			return rc;
		}
		other = dimm_used_elsewhere(region, dimm);
		if (other) {
			fail("%s: cannot label %s: in use by %s, no DIMM labelled",
					rname, dname, ndctl_region_get_devname(other));
			return -EBUSY;
		}
	}
	rc = ndctl_region_disable(region);
	if (rc) {
		fail("%s: cannot disable for labelling: %s", rname, strerror(-rc));
		return rc;
	}
	ndctl_dimm_foreach_in_region(region, dimm)
		if (ndctl_dimm_is_active(dimm)) {
			fail("%s: %s still active after disabling the region, no DIMM labelled",
					rname, ndctl_dimm_get_devname(dimm));
			rc = -EBUSY;
			goto out;
		}
	ndctl_dimm_foreach_in_region(region, dimm) {
		rc = pick_label_version(dimm);
		if (rc) {
			fail("%s: label initialisation failed: %s",
					ndctl_dimm_get_devname(dimm), strerror(-rc));
			break;
		}
	}
out:
	if (ndctl_region_enable(region) && !rc) {
		fail("%s: cannot re-enable after labelling", rname);
		rc = -ENXIO;
	}
	return rc;
}

static void snapshot_namespace(struct ndctl_namespace *ndns,
		struct ns_snapshot *snap)
{
	memset(snap, 0, sizeof(*snap));
	ndctl_namespace_get_uuid(ndns, snap->uuid);
	snprintf(snap->name, sizeof(snap->name), "%s",
			ndctl_namespace_get_alt_name(ndns));
	snap->size = ndctl_namespace_get_size(ndns);
	snap->resource = ndctl_namespace_get_resource(ndns);
	snap->lbasize = ndctl_namespace_get_sector_size(ndns);
	snap->holder_class = ndctl_namespace_get_btt(ndns) ? "btt"
		: ndctl_namespace_get_pfn(ndns) ? "pfn"
		: ndctl_namespace_get_dax(ndns) ? "dax" : "";
	snap->active = ndctl_namespace_is_active(ndns);
}

/* write the bytes zero_info_block() took back through the raw device */
static int restore_info_block(struct ndctl_namespace *ndns,
		const struct ns_snapshot *snap)
{
	char path[PATH_MAX];
	void *buf = NULL;
	int fd, rc = 0, rc2;

	fd = namespace_raw_open(ndns, O_RDWR | O_EXCL | O_DIRECT | O_CLOEXEC,
			path, sizeof(path));
	if (fd < 0)
		return fd;
	if (posix_memalign(&buf, 4096, INFO_WIPE_SIZE)) {
		rc = -ENOMEM;
	} else {
		memcpy(buf, snap->info, INFO_WIPE_SIZE);
		if (pwrite(fd, buf, INFO_WIPE_SIZE, 0) != INFO_WIPE_SIZE)
			rc = errno ? -errno : -EIO;
		if (!rc && fsync(fd) < 0)
			rc = -errno;
	}
	free(buf);
	rc2 = namespace_raw_close(ndns, fd);
	return rc ? rc : rc2;
}

/*
 * The new configuration failed after the old namespace was deleted: lay
 * the old one out again (uuid, name, size, sector size, claim class) in
 * the idle namespace @ndns, and only if the kernel puts it at its old
 * place, its info block back, then enable it as before (a BTT or pfn/dax
 * info block is found again by its parent uuid).  Returns 0 or -errno
 * (reported).
 */
static int restore_namespace(struct ndctl_namespace *ndns,
		const struct ns_snapshot *snap)
{
	const char *devname = ndctl_namespace_get_devname(ndns);
	int rc = 0;

	/* an io namespace has no layout: only its info block and binding */
	if (ndctl_namespace_get_type(ndns) != ND_DEVICE_NAMESPACE_IO)
		rc = ndctl_namespace_set_uuid(ndns, (unsigned char *)snap->uuid);
	if (!rc && ndctl_namespace_get_type(ndns) != ND_DEVICE_NAMESPACE_IO) {
		rc = ndctl_namespace_set_alt_name(ndns, snap->name);
		if (!rc)
			rc = ndctl_namespace_set_size(ndns, snap->size);
	}
	if (!rc && ndctl_namespace_get_resource(ndns) != snap->resource)
		rc = -EADDRNOTAVAIL;
	if (!rc && snap->lbasize && ndctl_namespace_get_num_sector_sizes(ndns) > 0
			&& ndctl_namespace_get_sector_size(ndns) != snap->lbasize)
		rc = ndctl_namespace_set_sector_size(ndns, snap->lbasize);
	if (rc) {
		fail("%s: the old namespace could not be laid out again: %s",
				devname, strerror(-rc));
		undo_namespace(ndns);
		return rc;
	}
	ndctl_namespace_set_holder_class(ndns, snap->holder_class);
	if (snap->saved) {
		rc = restore_info_block(ndns, snap);
		if (rc) {
			fail("%s: the old info block could not be written back: %s",
					devname, strerror(-rc));
			return rc;
		}
	}
	if (snap->active) {
		rc = ndctl_namespace_enable(ndns);
		if (rc < 0) {
			fail("%s: restored but not enabled: %s", devname,
					strerror(-rc));
			return rc;
		}
	}
	note("%s: the previous configuration was restored", devname);
	return 0;
}

/*
 * -e: the new size (-s, else the old namespace's @old) against the region
 * and the mode, before anything is written.  The kernel would refuse a
 * bad one only once the old namespace is released, wiped and deleted
 * (76.1 refuses first).  A label-less (io) namespace spans its region: it
 * cannot be resized at all.
 */
static int check_reconfig_size(struct ndctl_region *region,
		struct ndctl_namespace *ndns, const struct create_opts *o,
		unsigned long long old)
{
	const char *devname = ndctl_namespace_get_devname(ndns);
	const char *rname = ndctl_region_get_devname(region);
	unsigned long long want = o->size_bytes ? o->size_bytes : old;
	unsigned long long align = region_align(region), avail;

	if (ndctl_namespace_get_type(ndns) == ND_DEVICE_NAMESPACE_IO) {
		if (o->size_bytes && o->size_bytes != old) {
			fail("%s: Legacy / label-less namespaces do not support "
					"sub-dividing a region (-s %llu, namespace %llu)",
					devname, o->size_bytes, old);
			return -EINVAL;
		}
	} else {
		if (want % align) {
			fail("%s: size %llu is not a multiple of %llu", rname,
					want, align);
			return -EINVAL;
		}
		/* at most the old extent plus what is free (an upper bound) */
		avail = ndctl_region_get_available_size(region);
		if (want > old && (avail == ULLONG_MAX || want - old > avail)) {
			fail("%s: size %llu: %s has %llu bytes in %s plus %llu free",
					devname, want, rname, old, devname,
					avail == ULLONG_MAX ? 0 : avail);
			return -ENOSPC;
		}
	}
	if ((o->sector_mode || o->dax_mode) && want < SZ_16M) {
		fail("%s: size %llu: %s mode needs at least 16 MiB (-m raw for less)",
				devname, want, mode_str(o));
		return -EINVAL;	/* 76.1's status for it with -e */
	}
	if (o->dax_mode) {
		unsigned long long a = (unsigned long long)o->align_bytes
			* ndctl_region_get_interleave_ways(region);

		if (!a || want % a) {
			fail("%s: size %llu must align to interleave-width %u "
					"and alignment %lu", devname, want,
					ndctl_region_get_interleave_ways(region),
					o->align_bytes);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The namespace to configure once @gone was deleted.  namespaceR.0 stays
 * when its size goes to 0: take it again.  Any other idle namespace that
 * is not the seed is unregistered by the kernel asynchronously and must
 * not be configured: take the region's seed (or namespaceR.0 if idle).
 */
static struct ndctl_namespace *idle_after_delete(struct ndctl_ctx *ctx,
		struct ndctl_region *region, struct ndctl_namespace *gone)
{
	struct ndctl_namespace *ndns = NULL;

	if (ndctl_namespace_get_id(gone) == 0)
		ndns = find_namespace(ctx, NULL, ndctl_region_get_devname(region),
				ndctl_namespace_get_devname(gone));
	if (!ndns || ndctl_namespace_is_configured(ndns))
		ndns = idle_namespace(region);
	return ndns;
}

static int reconfigure(struct ndctl_ctx *ctx, struct create_opts *o)
{
	struct ns_snapshot snap;
	struct ndctl_namespace *ndns;
	struct ndctl_region *region;
	struct ndctl_bus *bus;
	unsigned long long size;
	unsigned int rid;
	int rc;

	ndns = find_namespace(ctx, o->bus, o->region, o->reconfig);
	if (!ndns) {
		fail("namespace '%s' not found", o->reconfig);
		return -ENXIO;
	}
	region = ndctl_namespace_get_region(ndns);
	bus = ndctl_region_get_bus(region);
	rid = ndctl_region_get_id(region);
	/*
	 * 76.1: the name and size carry over, the uuid does not (o->uu is
	 * -u's or a fresh one), so nothing keyed to the old uuid (a BTT's
	 * parent_uuid) can claim the new namespace.
	 */
	if (!o->name && ndctl_namespace_get_alt_name(ndns)[0]) {
		/*
		 * A name written elsewhere may fill the label's 64 bytes;
		 * it cannot be carried over whole (76.1: "alt name
		 * overflow", nothing changed): -n gives another one.
		 */
		if (strlen(ndctl_namespace_get_alt_name(ndns)) >= sizeof(o->name_buf)) {
			fail("%s: alt name overflow (%zu characters): give another with -n",
					ndctl_namespace_get_devname(ndns),
					strlen(ndctl_namespace_get_alt_name(ndns)));
			return -EINVAL;
		}
		snprintf(o->name_buf, sizeof(o->name_buf), "%s",
				ndctl_namespace_get_alt_name(ndns));
		o->name = o->name_buf;
	}
	size = ndctl_namespace_get_size(ndns);
	/* no -m: keep the current mode, and its sector size with it */
	if (!o->mode && (ndctl_namespace_get_pfn(ndns) || ndctl_namespace_get_dax(ndns))) {
		struct ndctl_pfn *pfn = ndctl_namespace_get_pfn(ndns);
		struct ndctl_dax *dax = ndctl_namespace_get_dax(ndns);

		o->dax_mode = pfn ? DAX_FS : DAX_DEV;
		if (!o->align)
			o->align_bytes = pfn ? ndctl_pfn_get_align(pfn)
				: ndctl_dax_get_align(dax);
		if (!o->map)
			o->loc = pfn ? ndctl_pfn_get_location(pfn)
				: ndctl_dax_get_location(dax);
	} else if (!o->mode && ndctl_namespace_get_btt(ndns)) {
		o->sector_mode = true;
		if (!o->lbasize)
			o->lbasize = ndctl_btt_get_sector_size(ndctl_namespace_get_btt(ndns));
	} else if (!o->sector_mode && !o->lbasize
			&& ndctl_namespace_get_sector_size(ndns) > 0) {
		o->lbasize = ndctl_namespace_get_sector_size(ndns);
	}
	/* a bad -l, -a, mode or size must not cost the old namespace */
	rc = check_sector_size(region, ndns, o);
	if (rc)
		return rc;
	if (o->dax_mode || o->align) {
		rc = check_pfn_dax(region, o);
		if (rc)
			return rc;
	}
	rc = check_reconfig_size(region, ndns, o, size);
	if (rc)
		return rc;
	snapshot_namespace(ndns, &snap);
	rc = namespace_quiesce(ndns, o->force, true, &snap);
	if (rc) {
		/*
		 * Released but the info block could not be wiped: it is
		 * still there, so enabling finds the old claim again.
		 */
		if (snap.active && !ndctl_namespace_is_active(ndns)
				&& ndctl_namespace_enable(ndns) >= 0)
			note("%s: enabled again as it was",
					ndctl_namespace_get_devname(ndns));
		return rc;
	}
	if (ndctl_namespace_get_type(ndns) == ND_DEVICE_NAMESPACE_IO) {
		if (o->autolabel != 0 && autolabel_region(region) == 0) {
			struct ndctl_region *r;

			/* find the region again: its children were replaced */
			ndctl_region_foreach(bus, r)
				if (ndctl_region_get_id(r) == rid)
					region = r;
			if (ndctl_region_get_nstype(region) != ND_DEVICE_NAMESPACE_PMEM) {
				fail("%s: still label-less after labelling",
						ndctl_region_get_devname(region));
				return -ENXIO;
			}
			return create_in_region(region, o);
		}
		rc = setup_namespace(region, ndns, o, size);
		if (rc) {
			undo_namespace(ndns);
			restore_namespace(ndns, &snap);
			return rc;
		}
		print_ns(ndns);
		return 0;
	}
	rc = ndctl_namespace_delete(ndns);
	if (rc) {
		fail("%s: cannot release capacity: %s",
				ndctl_namespace_get_devname(ndns), strerror(-rc));
		return rc;
	}
	if (!o->size_bytes)
		o->size_bytes = size;
	rc = ndctl_region_get_namespace_seed(region) ? 0 : -ENXIO;
	ndns = idle_after_delete(ctx, region, ndns);
	if (!ndns) {
		fail("%s: no idle namespace after release",
				ndctl_region_get_devname(region));
		return rc ? rc : -ENXIO;
	}
	rc = setup_namespace(region, ndns, o, o->size_bytes);
	if (rc) {
		undo_namespace(ndns);
		ndns = idle_after_delete(ctx, region, ndns);
		if (ndns)
			restore_namespace(ndns, &snap);
		return rc;
	}
	print_ns(ndns);
	return 0;
}

int cmd_create_namespace(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "region", required_argument, NULL, 'r' },
		{ "reconfig", required_argument, NULL, 'e' },
		{ "uuid", required_argument, NULL, 'u' },
		{ "name", required_argument, NULL, 'n' },
		{ "size", required_argument, NULL, 's' },
		{ "mode", required_argument, NULL, 'm' },
		{ "sector-size", required_argument, NULL, 'l' },
		{ "type", required_argument, NULL, 't' },
		{ "align", required_argument, NULL, 'a' },
		{ "map", required_argument, NULL, 'M' },
		{ "force", no_argument, NULL, 'f' },
		{ "autolabel", no_argument, NULL, 'L' },
		{ "no-autolabel", no_argument, NULL, 'A' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct create_opts o;
	struct ndctl_ctx *ctx;
	struct ndctl_region *region;
	struct ndctl_bus *bus;
	int c, rc = -ENOSPC;

	memset(&o, 0, sizeof(o));
	o.autolabel = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "b:r:e:u:n:s:m:M:l:t:a:fLvh", lopts, NULL)) != -1) {
		switch (c) {
		case 'b': o.bus = optarg; break;
		case 'r': o.region = optarg; break;
		case 'e': o.reconfig = optarg; break;
		case 'u': o.uuid = optarg; break;
		case 'n': o.name = optarg; break;
		case 's': o.size = optarg; break;
		case 'm': o.mode = optarg; break;
		case 'l': o.sector = optarg; break;
		case 't': o.type = optarg; break;
		case 'a': o.align = optarg; break;
		case 'M': o.map = optarg; break;
		case 'f': o.force = true; break;
		case 'L': o.autolabel = 1; break;
		case 'A': o.autolabel = 0; break;
		case 'v': verbose = 1; break;
		case 'h': return print_help(&create_help, stdout);
		default: return print_help(&create_help, stderr);
		}
	}
	if (optind < argc) {
		fail("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (o.mode && strcmp(o.mode, "raw")) {
		if (!strcmp(o.mode, "sector") || !strcmp(o.mode, "safe"))
			o.sector_mode = true;
		else if (!strcmp(o.mode, "fsdax") || !strcmp(o.mode, "memory"))
			o.dax_mode = DAX_FS;
		else if (!strcmp(o.mode, "devdax") || !strcmp(o.mode, "dax"))
			o.dax_mode = DAX_DEV;
		else {
			fail("unknown mode '%s' (raw, sector, fsdax, devdax)", o.mode);
			return EXIT_USAGE;
		}
	}
	if (o.type && strcmp(o.type, "pmem") && strcmp(o.type, "blk")) {
		fail("unknown type '%s' (pmem or blk)", o.type);
		return EXIT_USAGE;
	}
	if (o.type && !strcmp(o.type, "blk") && o.dax_mode) {
		fail("only 'pmem' namespaces support dax operation (-m %s -t blk)",
				o.mode);
		return EXIT_USAGE;
	}
	/* 76.1: a new pmem namespace is fsdax unless -m says otherwise */
	if (!o.mode && !o.reconfig && (!o.type || !strcmp(o.type, "pmem"))) {
		o.dax_mode = DAX_FS;
		o.mode_default = true;
	}
	o.loc = NDCTL_PFN_LOC_PMEM;
	if (o.map) {
		if (!strcmp(o.map, "mem"))
			o.loc = NDCTL_PFN_LOC_RAM;
		else if (strcmp(o.map, "dev")) {
			fail("invalid map location '%s' (mem or dev)", o.map);
			return EXIT_USAGE;
		}
		if (o.mode && !o.dax_mode) {
			fail("--map is only valid for fsdax and devdax namespaces, not %s",
					o.mode);
			return EXIT_USAGE;
		}
	}
	if (o.align) {
		unsigned long long v;
		long page = sysconf(_SC_PAGESIZE);

		if (parse_size(o.align, &v) || v < (unsigned long long)page
				|| (v & (v - 1)) || v > ULONG_MAX) {
			fail("invalid align '%s': a power of 2, at least %ld",
					o.align, page);
			return EXIT_USAGE;
		}
		o.align_bytes = v;
	}
	if (o.size && (parse_size(o.size, &o.size_bytes) || !o.size_bytes)) {
		fail("invalid size '%s'", o.size);
		return EXIT_USAGE;
	}
	if (o.sector) {
		unsigned long long v;

		if (parse_size(o.sector, &v) || !v || v > 65536) {
			fail("invalid sector size '%s'", o.sector);
			return EXIT_USAGE;
		}
		o.lbasize = v;
	}
	if (o.name && strlen(o.name) > 63) {
		fail("name longer than 63 bytes");
		return -EINVAL;
	}
	if (o.uuid) {
		if (strlen(o.uuid) != 36 || uuid_parse(o.uuid, o.uu) < 0) {
			fail("invalid uuid '%s'", o.uuid);
			return EXIT_USAGE;
		}
	} else {
		uuid_generate(o.uu);
	}
	if (o.region && !strcmp(o.region, "all"))
		o.region = NULL;
	if (cli_ctx_new(&ctx))
		return 1;
	if (o.reconfig) {
		rc = reconfigure(ctx, &o);
		ndctl_unref(ctx);
		return rc;
	}
	ndctl_bus_foreach(ctx, bus) {
		if (!match_bus(bus, o.bus))
			continue;
		ndctl_region_foreach(bus, region) {
			if (!region_wanted(region, &o))
				continue;
			rc = create_in_region(region, &o);
			if (rc != -ENOSPC)
				goto done;
		}
	}
done:
	if (rc == -ENOSPC) {
		fail("failed to create namespace: no region with %s capacity%s",
				o.size ? "enough" : "available",
				o.region || o.bus || o.type ? " matches the filters" : "");
		rc = -ENODEV;	/* 76.1's status when no region could take it */
	}
	ndctl_unref(ctx);
	return rc;
}

int cmd_destroy_namespace(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "region", required_argument, NULL, 'r' },
		{ "force", no_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *bus_f = NULL, *region_f = NULL, *target;
	struct ndctl_namespace *ndns, **list = NULL;
	struct ndctl_ctx *ctx;
	bool force = false;
	int c, i, destroyed = 0, found = 0, first_rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:r:fvh", lopts, NULL)) != -1) {
		switch (c) {
		case 'b': bus_f = optarg; break;
		case 'r': region_f = optarg; break;
		case 'f': force = true; break;
		case 'v': verbose = 1; break;
		case 'h': return print_help(&destroy_help, stdout);
		default: return print_help(&destroy_help, stderr);
		}
	}
	if (optind != argc - 1) {
		fail("specify exactly one namespace (namespaceX.Y or all)");
		return EXIT_USAGE;
	}
	target = argv[optind];
	if (cli_ctx_new(&ctx))
		return 1;
	found = collect_namespaces(ctx, bus_f, region_f, target, &list);
	if (found < 0) {
		fail("out of memory");
		ndctl_unref(ctx);
		return found;
	}
	for (i = 0; i < found; i++) {
		int rc;

		ndns = list[i];
		/* unconfigured seeds: nothing to destroy */
		if (!ndctl_namespace_is_configured(ndns)
				&& !ndctl_namespace_is_active(ndns))
			continue;
		/* quiesce reports its own failures */
		rc = namespace_quiesce(ndns, force, false, NULL);
		if (!rc) {
			rc = ndctl_namespace_delete(ndns);
			if (rc)
				fail("%s: destroy failed: %s",
					ndctl_namespace_get_devname(ndns),
					strerror(-rc));
		}
		if (rc) {
			if (!first_rc)
				first_rc = rc;
			continue;
		}
		destroyed++;
	}
	free(list);
	ndctl_unref(ctx);
	if (!found && strcmp(target, "all")) {
		fail("namespace '%s' not found", target);
		return -ENXIO;
	}
	note("destroyed %d namespace%s", destroyed, destroyed == 1 ? "" : "s");
	/* 76.1: the first failure's -errno */
	return first_rc;
}
