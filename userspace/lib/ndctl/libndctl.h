/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libndctl: userspace helper library for the Linux NVDIMM (libnvdimm)
 * subsystem.  Object model: ctx -> bus -> {dimm, region -> {mapping,
 * namespace, btt}}.  Every call that can fail returns a negative errno (or
 * NULL) and logs one line through the context's log function; nothing
 * aborts.
 *
 * Environment: NDCTL_SYSFS_ROOT (default "/sys"), NDCTL_DEV_ROOT (default
 * "/dev"), NDCTL_LOG ("err", "info", "debug" or a syslog number),
 * NDCTL_NO_MODPROBE=1 (never load modules before binding; implied when the
 * sysfs root is not "/sys").
 */
#ifndef _NDCTL_LIBNDCTL_H_
#define _NDCTL_LIBNDCTL_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <uuid/uuid.h>
#include <linux/ndctl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* constants the v4.2 era defined and 6.1's uapi header dropped or renamed */
#ifndef ND_DEVICE_REGION_BLOCK
#define ND_DEVICE_REGION_BLOCK ND_DEVICE_REGION_BLK
#endif
#ifndef ND_DEVICE_NAMESPACE_BLK
#define ND_DEVICE_NAMESPACE_BLK 6
#endif
#ifndef ND_DEVICE_NAMESPACE_BLOCK
#define ND_DEVICE_NAMESPACE_BLOCK ND_DEVICE_NAMESPACE_BLK
#endif

/* DIMM handle layout (NFIT): node[27:16] socket[15:12] imc[11:8] chan[7:4] dimm[3:0] */
#define NDCTL_DIMM_HANDLE(n, s, i, c, d) \
	((((n) & 0xfff) << 16) | (((s) & 0xf) << 12) | (((i) & 0xf) << 8) \
	 | (((c) & 0xf) << 4) | ((d) & 0xf))

#define NDCTL_NO_SPA_INDEX UINT32_MAX
#define NDCTL_NO_POSITION (-1)

struct ndctl_ctx;
struct ndctl_bus;
struct ndctl_dimm;
struct ndctl_region;
struct ndctl_mapping;
struct ndctl_namespace;
struct ndctl_btt;
struct ndctl_pfn;
struct ndctl_dax;
struct ndctl_cmd;

/* ---- context ---- */
typedef void (*ndctl_log_fn)(struct ndctl_ctx *ctx, int priority,
		const char *file, int line, const char *fn,
		const char *format, va_list args);

int ndctl_new(struct ndctl_ctx **ctx);
struct ndctl_ctx *ndctl_ref(struct ndctl_ctx *ctx);
/* drops a reference; returns NULL (as upstream), even if others remain */
struct ndctl_ctx *ndctl_unref(struct ndctl_ctx *ctx);
void ndctl_set_log_fn(struct ndctl_ctx *ctx, ndctl_log_fn log_fn);
int ndctl_get_log_priority(struct ndctl_ctx *ctx);
void ndctl_set_log_priority(struct ndctl_ctx *ctx, int priority);
void ndctl_set_userdata(struct ndctl_ctx *ctx, void *userdata);
void *ndctl_get_userdata(struct ndctl_ctx *ctx);
const char *ndctl_get_sysfs_root(struct ndctl_ctx *ctx);
const char *ndctl_get_dev_root(struct ndctl_ctx *ctx);
/* -errno of the last failed bus/dimm/region/namespace scan step, 0 if none */
int ndctl_get_scan_errors(struct ndctl_ctx *ctx);

/* ---- bus ---- */
struct ndctl_bus *ndctl_bus_get_first(struct ndctl_ctx *ctx);
struct ndctl_bus *ndctl_bus_get_next(struct ndctl_bus *bus);
#define ndctl_bus_foreach(ctx, bus) \
	for (bus = ndctl_bus_get_first(ctx); bus != NULL; \
	     bus = ndctl_bus_get_next(bus))
struct ndctl_ctx *ndctl_bus_get_ctx(struct ndctl_bus *bus);
unsigned int ndctl_bus_get_id(struct ndctl_bus *bus);
const char *ndctl_bus_get_devname(struct ndctl_bus *bus);
const char *ndctl_bus_get_provider(struct ndctl_bus *bus);
const char *ndctl_bus_get_path(struct ndctl_bus *bus);
unsigned int ndctl_bus_get_major(struct ndctl_bus *bus);
unsigned int ndctl_bus_get_minor(struct ndctl_bus *bus);
int ndctl_bus_has_nfit(struct ndctl_bus *bus);
int ndctl_bus_is_cmd_supported(struct ndctl_bus *bus, int cmd);
const char *ndctl_bus_get_cmd_name(struct ndctl_bus *bus, int cmd);
/* "idle", "active" or NULL when nfit/scrub is not there */
const char *ndctl_bus_get_scrub_state(struct ndctl_bus *bus);
int ndctl_bus_wait_probe(struct ndctl_bus *bus);
struct ndctl_bus *ndctl_bus_get_by_provider(struct ndctl_ctx *ctx,
		const char *provider);

/* ---- DIMM (nmemN) ---- */
struct ndctl_dimm *ndctl_dimm_get_first(struct ndctl_bus *bus);
struct ndctl_dimm *ndctl_dimm_get_next(struct ndctl_dimm *dimm);
#define ndctl_dimm_foreach(bus, dimm) \
	for (dimm = ndctl_dimm_get_first(bus); dimm != NULL; \
	     dimm = ndctl_dimm_get_next(dimm))
struct ndctl_bus *ndctl_dimm_get_bus(struct ndctl_dimm *dimm);
struct ndctl_ctx *ndctl_dimm_get_ctx(struct ndctl_dimm *dimm);
unsigned int ndctl_dimm_get_id(struct ndctl_dimm *dimm);
const char *ndctl_dimm_get_devname(struct ndctl_dimm *dimm);
unsigned int ndctl_dimm_get_handle(struct ndctl_dimm *dimm);
unsigned short ndctl_dimm_get_phys_id(struct ndctl_dimm *dimm);
unsigned short ndctl_dimm_get_vendor(struct ndctl_dimm *dimm);
unsigned short ndctl_dimm_get_device(struct ndctl_dimm *dimm);
unsigned short ndctl_dimm_get_revision(struct ndctl_dimm *dimm);
unsigned short ndctl_dimm_get_format(struct ndctl_dimm *dimm);
unsigned int ndctl_dimm_get_serial(struct ndctl_dimm *dimm);
/* nfit/id, e.g. "8680-56341200"; NULL when absent */
const char *ndctl_dimm_get_unique_id(struct ndctl_dimm *dimm);
unsigned int ndctl_dimm_handle_get_node(struct ndctl_dimm *dimm);
unsigned int ndctl_dimm_handle_get_socket(struct ndctl_dimm *dimm);
unsigned int ndctl_dimm_handle_get_imc(struct ndctl_dimm *dimm);
unsigned int ndctl_dimm_handle_get_channel(struct ndctl_dimm *dimm);
unsigned int ndctl_dimm_handle_get_dimm(struct ndctl_dimm *dimm);
unsigned int ndctl_dimm_get_major(struct ndctl_dimm *dimm);
unsigned int ndctl_dimm_get_minor(struct ndctl_dimm *dimm);
int ndctl_dimm_is_cmd_supported(struct ndctl_dimm *dimm, int cmd);
int ndctl_dimm_has_labels_support(struct ndctl_dimm *dimm);
/* nfit/flags */
int ndctl_dimm_failed_save(struct ndctl_dimm *dimm);
int ndctl_dimm_failed_restore(struct ndctl_dimm *dimm);
int ndctl_dimm_failed_flush(struct ndctl_dimm *dimm);
int ndctl_dimm_failed_arm(struct ndctl_dimm *dimm);
int ndctl_dimm_failed_map(struct ndctl_dimm *dimm);
int ndctl_dimm_smart_pending(struct ndctl_dimm *dimm);
/* security state string, NULL when the attribute is not there */
const char *ndctl_dimm_get_security(struct ndctl_dimm *dimm);
int ndctl_dimm_is_enabled(struct ndctl_dimm *dimm);
/* 1 if some enabled region maps the DIMM (state "active") */
int ndctl_dimm_is_active(struct ndctl_dimm *dimm);
int ndctl_dimm_enable(struct ndctl_dimm *dimm);
int ndctl_dimm_disable(struct ndctl_dimm *dimm);
/* available_slots, or -errno */
int ndctl_dimm_get_available_labels(struct ndctl_dimm *dimm);
struct ndctl_dimm *ndctl_dimm_get_by_handle(struct ndctl_bus *bus,
		unsigned int handle);

/* ---- DIMM commands (label area through /dev/nmemN) ---- */
struct ndctl_cmd *ndctl_dimm_cmd_new_cfg_size(struct ndctl_dimm *dimm);
struct ndctl_cmd *ndctl_dimm_cmd_new_cfg_read(struct ndctl_cmd *cfg_size);
/* needs a completed cfg_read (submitted, status 0); else NULL, errno EINVAL */
struct ndctl_cmd *ndctl_dimm_cmd_new_cfg_write(struct ndctl_cmd *cfg_read);
struct ndctl_cmd *ndctl_cmd_ref(struct ndctl_cmd *cmd);
void ndctl_cmd_unref(struct ndctl_cmd *cmd);
int ndctl_cmd_get_type(struct ndctl_cmd *cmd);
/* 0 done, > 0 bytes not transferred, < 0 -errno; -EAGAIN before submit */
int ndctl_cmd_get_status(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_get_firmware_status(struct ndctl_cmd *cmd);
int ndctl_cmd_submit(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_cfg_size_get_size(struct ndctl_cmd *cfg_size);
unsigned int ndctl_cmd_cfg_size_get_max_xfer(struct ndctl_cmd *cfg_size);
/* copy from a submitted cfg_read; returns bytes copied or -errno */
ssize_t ndctl_cmd_cfg_read_get_data(struct ndctl_cmd *cfg_read, void *buf,
		unsigned int len, unsigned int offset);
ssize_t ndctl_cmd_cfg_write_set_data(struct ndctl_cmd *cfg_write, void *buf,
		unsigned int len, unsigned int offset);
ssize_t ndctl_cmd_cfg_write_zero_data(struct ndctl_cmd *cfg_write);
/* limit a cfg_read/cfg_write to [offset, offset+len) of the label area */
int ndctl_cmd_cfg_set_range(struct ndctl_cmd *cmd, unsigned int offset,
		unsigned int len);

/* convenience on top of the commands */
int ndctl_dimm_get_config_size(struct ndctl_dimm *dimm,
		unsigned int *size, unsigned int *max_xfer);
int ndctl_dimm_read_label_area(struct ndctl_dimm *dimm, void *buf,
		unsigned int offset, unsigned int len);
int ndctl_dimm_write_label_area(struct ndctl_dimm *dimm, const void *buf,
		unsigned int offset, unsigned int len);
/* zero the whole area (DIMM must be idle), then rebind the DIMM */
int ndctl_dimm_zero_labels(struct ndctl_dimm *dimm);

enum ndctl_label_version {
	NDCTL_LABEL_V1_1 = 11,
	NDCTL_LABEL_V1_2 = 12,
};
/* write two fresh index blocks (media-formats §2), then rebind the DIMM */
int ndctl_dimm_init_labels(struct ndctl_dimm *dimm, enum ndctl_label_version v);
/* 0 no valid index, 11 / 12 version of the current index, < 0 -errno */
int ndctl_dimm_get_label_version(struct ndctl_dimm *dimm);

/* ---- region ---- */
struct ndctl_region *ndctl_region_get_first(struct ndctl_bus *bus);
struct ndctl_region *ndctl_region_get_next(struct ndctl_region *region);
#define ndctl_region_foreach(bus, region) \
	for (region = ndctl_region_get_first(bus); region != NULL; \
	     region = ndctl_region_get_next(region))
struct ndctl_bus *ndctl_region_get_bus(struct ndctl_region *region);
struct ndctl_ctx *ndctl_region_get_ctx(struct ndctl_region *region);
unsigned int ndctl_region_get_id(struct ndctl_region *region);
const char *ndctl_region_get_devname(struct ndctl_region *region);
/* ND_DEVICE_REGION_PMEM or ND_DEVICE_REGION_BLK (== _BLOCK) */
unsigned int ndctl_region_get_type(struct ndctl_region *region);
const char *ndctl_region_get_type_name(struct ndctl_region *region);
/* ND_DEVICE_NAMESPACE_IO / _PMEM / _BLK */
unsigned int ndctl_region_get_nstype(struct ndctl_region *region);
/* nfit/range_index; NDCTL_NO_SPA_INDEX when not NFIT-defined */
unsigned int ndctl_region_get_spa_index(struct ndctl_region *region);
unsigned int ndctl_region_get_range_index(struct ndctl_region *region);
unsigned long long ndctl_region_get_size(struct ndctl_region *region);
unsigned long long ndctl_region_get_available_size(struct ndctl_region *region);
/* ULLONG_MAX when the attribute is not there */
unsigned long long ndctl_region_get_max_available_extent(struct ndctl_region *region);
unsigned long long ndctl_region_get_align(struct ndctl_region *region);
unsigned long long ndctl_region_get_resource(struct ndctl_region *region);
unsigned int ndctl_region_get_mappings(struct ndctl_region *region);
unsigned int ndctl_region_get_interleave_ways(struct ndctl_region *region);
unsigned long long ndctl_region_get_set_cookie(struct ndctl_region *region);
int ndctl_region_get_numa_node(struct ndctl_region *region);
/* "cpu_cache", "memory_controller", or NULL */
const char *ndctl_region_get_persistence_domain(struct ndctl_region *region);
/* total sectors listed in badblocks (0 if none / unreadable) */
unsigned long long ndctl_region_get_badblock_count(struct ndctl_region *region);
struct ndctl_namespace *ndctl_region_get_namespace_seed(struct ndctl_region *region);
struct ndctl_btt *ndctl_region_get_btt_seed(struct ndctl_region *region);
int ndctl_region_is_enabled(struct ndctl_region *region);
int ndctl_region_enable(struct ndctl_region *region);
/* disable and forget the children (old pointers stay valid, unlisted) */
int ndctl_region_disable(struct ndctl_region *region);
int ndctl_region_disable_invalidate(struct ndctl_region *region);
/* disable and keep the children listed (stale until the next enable) */
int ndctl_region_disable_preserve(struct ndctl_region *region);
int ndctl_region_get_read_only(struct ndctl_region *region);
int ndctl_region_set_ro(struct ndctl_region *region, int ro);
struct ndctl_dimm *ndctl_region_get_first_dimm(struct ndctl_region *region);
struct ndctl_dimm *ndctl_region_get_next_dimm(struct ndctl_region *region,
		struct ndctl_dimm *dimm);
#define ndctl_dimm_foreach_in_region(region, dimm) \
	for (dimm = ndctl_region_get_first_dimm(region); dimm != NULL; \
	     dimm = ndctl_region_get_next_dimm(region, dimm))

/* ---- mapping ---- */
struct ndctl_mapping *ndctl_mapping_get_first(struct ndctl_region *region);
struct ndctl_mapping *ndctl_mapping_get_next(struct ndctl_mapping *mapping);
#define ndctl_mapping_foreach(region, mapping) \
	for (mapping = ndctl_mapping_get_first(region); mapping != NULL; \
	     mapping = ndctl_mapping_get_next(mapping))
struct ndctl_dimm *ndctl_mapping_get_dimm(struct ndctl_mapping *mapping);
struct ndctl_region *ndctl_mapping_get_region(struct ndctl_mapping *mapping);
struct ndctl_ctx *ndctl_mapping_get_ctx(struct ndctl_mapping *mapping);
unsigned long long ndctl_mapping_get_offset(struct ndctl_mapping *mapping);
unsigned long long ndctl_mapping_get_length(struct ndctl_mapping *mapping);
/* NDCTL_NO_POSITION when the kernel does not export it (v4.2) */
int ndctl_mapping_get_position(struct ndctl_mapping *mapping);

/* ---- namespace ---- */
/* values and aliases binary-compatible with upstream libndctl */
enum ndctl_namespace_mode {
	NDCTL_NS_MODE_MEMORY = 0,	/* claimed by a pfn ("fsdax") */
	NDCTL_NS_MODE_FSDAX = NDCTL_NS_MODE_MEMORY,
	NDCTL_NS_MODE_SAFE = 1,		/* claimed by a btt ("sector") */
	NDCTL_NS_MODE_SECTOR = NDCTL_NS_MODE_SAFE,
	NDCTL_NS_MODE_RAW = 2,
	NDCTL_NS_MODE_DAX = 3,		/* claimed by a dax device ("devdax") */
	NDCTL_NS_MODE_DEVDAX = NDCTL_NS_MODE_DAX,
	NDCTL_NS_MODE_UNKNOWN = 4,	/* last */
};

struct ndctl_namespace *ndctl_namespace_get_first(struct ndctl_region *region);
struct ndctl_namespace *ndctl_namespace_get_next(struct ndctl_namespace *ndns);
#define ndctl_namespace_foreach(region, ndns) \
	for (ndns = ndctl_namespace_get_first(region); ndns != NULL; \
	     ndns = ndctl_namespace_get_next(ndns))
#define ndctl_namespace_foreach_safe(region, ndns, _ndns) \
	for (ndns = ndctl_namespace_get_first(region), \
	     _ndns = ndns ? ndctl_namespace_get_next(ndns) : NULL; \
	     ndns != NULL; \
	     ndns = _ndns, _ndns = _ndns ? ndctl_namespace_get_next(_ndns) : NULL)
struct ndctl_region *ndctl_namespace_get_region(struct ndctl_namespace *ndns);
struct ndctl_bus *ndctl_namespace_get_bus(struct ndctl_namespace *ndns);
struct ndctl_ctx *ndctl_namespace_get_ctx(struct ndctl_namespace *ndns);
unsigned int ndctl_namespace_get_id(struct ndctl_namespace *ndns);
const char *ndctl_namespace_get_devname(struct ndctl_namespace *ndns);
/* ND_DEVICE_NAMESPACE_IO / _PMEM / _BLK */
unsigned int ndctl_namespace_get_type(struct ndctl_namespace *ndns);
const char *ndctl_namespace_get_type_name(struct ndctl_namespace *ndns);
unsigned long long ndctl_namespace_get_size(struct ndctl_namespace *ndns);
unsigned long long ndctl_namespace_get_resource(struct ndctl_namespace *ndns);
/* dpa_extents: number of DPA allocations behind a pmem (one per DIMM of the
 * set) or blk namespace (one per extent); read fresh on every call, -errno
 * when the attribute is not there (io namespaces) */
int ndctl_namespace_get_dpa_extents(struct ndctl_namespace *ndns);
int ndctl_namespace_get_numa_node(struct ndctl_namespace *ndns);
void ndctl_namespace_get_uuid(struct ndctl_namespace *ndns, uuid_t uu);
int ndctl_namespace_set_uuid(struct ndctl_namespace *ndns, uuid_t uu);
const char *ndctl_namespace_get_alt_name(struct ndctl_namespace *ndns);
int ndctl_namespace_set_alt_name(struct ndctl_namespace *ndns,
		const char *alt_name);
int ndctl_namespace_set_size(struct ndctl_namespace *ndns,
		unsigned long long size);
/* selected sector size; 0 when none is selected or not supported */
unsigned int ndctl_namespace_get_sector_size(struct ndctl_namespace *ndns);
int ndctl_namespace_get_num_sector_sizes(struct ndctl_namespace *ndns);
int ndctl_namespace_get_supported_sector_size(struct ndctl_namespace *ndns,
		int i);
int ndctl_namespace_set_sector_size(struct ndctl_namespace *ndns,
		unsigned int sector_size);
int ndctl_namespace_get_raw_mode(struct ndctl_namespace *ndns);
int ndctl_namespace_set_raw_mode(struct ndctl_namespace *ndns, int raw_mode);
/* holder_class: "", "btt", "pfn", "dax"; errors are returned, callers may
 * ignore them (older kernels do not have the attribute) */
int ndctl_namespace_set_holder_class(struct ndctl_namespace *ndns,
		const char *holder_class);
enum ndctl_namespace_mode ndctl_namespace_get_mode(struct ndctl_namespace *ndns);
/* the enabled or configured btt that claims this namespace, or NULL */
struct ndctl_btt *ndctl_namespace_get_btt(struct ndctl_namespace *ndns);
int ndctl_namespace_is_enabled(struct ndctl_namespace *ndns);
/* enabled itself, or claimed by an enabled btt */
int ndctl_namespace_is_active(struct ndctl_namespace *ndns);
/* has a uuid and a non-zero size (io namespaces: always) */
int ndctl_namespace_is_configured(struct ndctl_namespace *ndns);
/* 0 enabled, 1 enabled through a btt that claimed it, < 0 -errno */
int ndctl_namespace_enable(struct ndctl_namespace *ndns);
int ndctl_namespace_disable(struct ndctl_namespace *ndns);
/* if claimed by a btt: delete the btt first; then disable */
int ndctl_namespace_disable_invalidate(struct ndctl_namespace *ndns);
/* block device name under the namespace (or NULL) */
const char *ndctl_namespace_get_block_device(struct ndctl_namespace *ndns);
/* release the capacity (size 0); the namespace must be disabled */
int ndctl_namespace_delete(struct ndctl_namespace *ndns);

/* ---- btt ---- */
struct ndctl_btt *ndctl_btt_get_first(struct ndctl_region *region);
struct ndctl_btt *ndctl_btt_get_next(struct ndctl_btt *btt);
#define ndctl_btt_foreach(region, btt) \
	for (btt = ndctl_btt_get_first(region); btt != NULL; \
	     btt = ndctl_btt_get_next(btt))
struct ndctl_region *ndctl_btt_get_region(struct ndctl_btt *btt);
struct ndctl_bus *ndctl_btt_get_bus(struct ndctl_btt *btt);
struct ndctl_ctx *ndctl_btt_get_ctx(struct ndctl_btt *btt);
unsigned int ndctl_btt_get_id(struct ndctl_btt *btt);
const char *ndctl_btt_get_devname(struct ndctl_btt *btt);
void ndctl_btt_get_uuid(struct ndctl_btt *btt, uuid_t uu);
int ndctl_btt_set_uuid(struct ndctl_btt *btt, uuid_t uu);
/* selected sector size, 0 when none selected */
unsigned int ndctl_btt_get_sector_size(struct ndctl_btt *btt);
int ndctl_btt_get_num_sector_sizes(struct ndctl_btt *btt);
int ndctl_btt_get_supported_sector_size(struct ndctl_btt *btt, int i);
int ndctl_btt_set_sector_size(struct ndctl_btt *btt, unsigned int sector_size);
/* ndns NULL releases the namespace */
int ndctl_btt_set_namespace(struct ndctl_btt *btt, struct ndctl_namespace *ndns);
struct ndctl_namespace *ndctl_btt_get_namespace(struct ndctl_btt *btt);
/* usable size in bytes (only while enabled), ULLONG_MAX when unknown */
unsigned long long ndctl_btt_get_size(struct ndctl_btt *btt);
const char *ndctl_btt_get_block_device(struct ndctl_btt *btt);
int ndctl_btt_is_enabled(struct ndctl_btt *btt);
/* any of uuid, sector size, namespace set */
int ndctl_btt_is_configured(struct ndctl_btt *btt);
int ndctl_btt_enable(struct ndctl_btt *btt);
/* unbind only: the configuration stays, enable brings the disk back */
int ndctl_btt_disable(struct ndctl_btt *btt);
/* unbind and release the namespace (device-model only, media untouched) */
int ndctl_btt_delete(struct ndctl_btt *btt);

/* ---- pfn (fsdax) and dax (devdax) ---- */
/* where the struct page array (memmap) lives; pfn/dax "mode" attribute */
enum ndctl_pfn_loc {
	NDCTL_PFN_LOC_NONE = 0,		/* "none" */
	NDCTL_PFN_LOC_RAM = 1,		/* "ram": -M mem */
	NDCTL_PFN_LOC_PMEM = 2,		/* "pmem": -M dev */
};

struct ndctl_pfn *ndctl_pfn_get_first(struct ndctl_region *region);
struct ndctl_pfn *ndctl_pfn_get_next(struct ndctl_pfn *pfn);
#define ndctl_pfn_foreach(region, pfn) \
	for (pfn = ndctl_pfn_get_first(region); pfn != NULL; \
	     pfn = ndctl_pfn_get_next(pfn))
unsigned int ndctl_pfn_get_id(struct ndctl_pfn *pfn);
const char *ndctl_pfn_get_devname(struct ndctl_pfn *pfn);
struct ndctl_region *ndctl_pfn_get_region(struct ndctl_pfn *pfn);
struct ndctl_bus *ndctl_pfn_get_bus(struct ndctl_pfn *pfn);
struct ndctl_ctx *ndctl_pfn_get_ctx(struct ndctl_pfn *pfn);
void ndctl_pfn_get_uuid(struct ndctl_pfn *pfn, uuid_t uu);
int ndctl_pfn_set_uuid(struct ndctl_pfn *pfn, uuid_t uu);
enum ndctl_pfn_loc ndctl_pfn_get_location(struct ndctl_pfn *pfn);
int ndctl_pfn_set_location(struct ndctl_pfn *pfn, enum ndctl_pfn_loc loc);
int ndctl_pfn_has_align(struct ndctl_pfn *pfn);
/* 0 when the kernel has no "align" attribute */
unsigned long ndctl_pfn_get_align(struct ndctl_pfn *pfn);
/* refused (-EINVAL, nothing written) unless in supported_alignments */
int ndctl_pfn_set_align(struct ndctl_pfn *pfn, unsigned long align);
int ndctl_pfn_get_num_alignments(struct ndctl_pfn *pfn);
unsigned long ndctl_pfn_get_supported_alignment(struct ndctl_pfn *pfn, int i);
/* ndns NULL releases the namespace */
int ndctl_pfn_set_namespace(struct ndctl_pfn *pfn, struct ndctl_namespace *ndns);
struct ndctl_namespace *ndctl_pfn_get_namespace(struct ndctl_pfn *pfn);
const char *ndctl_pfn_get_block_device(struct ndctl_pfn *pfn);
/* data size / start, read fresh; ULLONG_MAX unless enabled */
unsigned long long ndctl_pfn_get_size(struct ndctl_pfn *pfn);
unsigned long long ndctl_pfn_get_resource(struct ndctl_pfn *pfn);
int ndctl_pfn_is_enabled(struct ndctl_pfn *pfn);
int ndctl_pfn_is_configured(struct ndctl_pfn *pfn);
int ndctl_pfn_enable(struct ndctl_pfn *pfn);
/* unbind and release the namespace (the info block stays on the media) */
int ndctl_pfn_delete(struct ndctl_pfn *pfn);
struct ndctl_pfn *ndctl_region_get_pfn_seed(struct ndctl_region *region);
/* the pfn device claiming the namespace, or NULL */
struct ndctl_pfn *ndctl_namespace_get_pfn(struct ndctl_namespace *ndns);

struct ndctl_dax *ndctl_dax_get_first(struct ndctl_region *region);
struct ndctl_dax *ndctl_dax_get_next(struct ndctl_dax *dax);
#define ndctl_dax_foreach(region, dax) \
	for (dax = ndctl_dax_get_first(region); dax != NULL; \
	     dax = ndctl_dax_get_next(dax))
unsigned int ndctl_dax_get_id(struct ndctl_dax *dax);
const char *ndctl_dax_get_devname(struct ndctl_dax *dax);
struct ndctl_region *ndctl_dax_get_region(struct ndctl_dax *dax);
struct ndctl_bus *ndctl_dax_get_bus(struct ndctl_dax *dax);
struct ndctl_ctx *ndctl_dax_get_ctx(struct ndctl_dax *dax);
void ndctl_dax_get_uuid(struct ndctl_dax *dax, uuid_t uu);
int ndctl_dax_set_uuid(struct ndctl_dax *dax, uuid_t uu);
enum ndctl_pfn_loc ndctl_dax_get_location(struct ndctl_dax *dax);
int ndctl_dax_set_location(struct ndctl_dax *dax, enum ndctl_pfn_loc loc);
int ndctl_dax_has_align(struct ndctl_dax *dax);
unsigned long ndctl_dax_get_align(struct ndctl_dax *dax);
int ndctl_dax_set_align(struct ndctl_dax *dax, unsigned long align);
int ndctl_dax_get_num_alignments(struct ndctl_dax *dax);
unsigned long ndctl_dax_get_supported_alignment(struct ndctl_dax *dax, int i);
int ndctl_dax_set_namespace(struct ndctl_dax *dax, struct ndctl_namespace *ndns);
struct ndctl_namespace *ndctl_dax_get_namespace(struct ndctl_dax *dax);
unsigned long long ndctl_dax_get_size(struct ndctl_dax *dax);
unsigned long long ndctl_dax_get_resource(struct ndctl_dax *dax);
int ndctl_dax_is_enabled(struct ndctl_dax *dax);
int ndctl_dax_is_configured(struct ndctl_dax *dax);
int ndctl_dax_enable(struct ndctl_dax *dax);
int ndctl_dax_delete(struct ndctl_dax *dax);
struct ndctl_dax *ndctl_region_get_dax_seed(struct ndctl_region *region);
struct ndctl_dax *ndctl_namespace_get_dax(struct ndctl_namespace *ndns);
/*
 * Extensions (not in upstream libndctl, which goes through libdaxctl):
 * the sysfs directory of the nd_dax device, and the name of its enabled
 * device-dax instance ("daxX.Y", child of that directory, with a /dev
 * node); -ENOENT when there is none.
 */
const char *ndctl_dax_get_path(struct ndctl_dax *dax);
int ndctl_dax_get_chardev(struct ndctl_dax *dax, char *buf, size_t len);

/* in-use checks: O_EXCL open of the live block device before unbinding */
int ndctl_namespace_check_unused(struct ndctl_namespace *ndns);
/* unused: then as ndctl_namespace_disable_invalidate() (76.1) */
int ndctl_namespace_disable_safe(struct ndctl_namespace *ndns);
int ndctl_region_disable_safe(struct ndctl_region *region);

/* ---- media errors (symbols LIBNDCTL_4; 76.1's names and semantics) ---- */
/* ars.c: bus commands through /dev/ndctlN (sysfs-abi §9.1) */
struct ndctl_range {
	unsigned long long address;
	unsigned long long length;
};
struct ndctl_cmd *ndctl_bus_cmd_new_ars_cap(struct ndctl_bus *bus,
		unsigned long long address, unsigned long long len);
struct ndctl_cmd *ndctl_bus_cmd_new_ars_start(struct ndctl_cmd *ars_cap, int type);
struct ndctl_cmd *ndctl_bus_cmd_new_ars_status(struct ndctl_cmd *ars_cap);
unsigned int ndctl_cmd_ars_cap_get_size(struct ndctl_cmd *ars_cap);
int ndctl_cmd_ars_cap_get_range(struct ndctl_cmd *ars_cap,
		struct ndctl_range *range);
unsigned int ndctl_cmd_ars_cap_get_clear_unit(struct ndctl_cmd *ars_cap);
int ndctl_cmd_ars_in_progress(struct ndctl_cmd *ars_status);
unsigned int ndctl_cmd_ars_num_records(struct ndctl_cmd *ars_stat);
unsigned long long ndctl_cmd_ars_get_record_addr(struct ndctl_cmd *ars_stat,
		unsigned int rec_index);
unsigned long long ndctl_cmd_ars_get_record_len(struct ndctl_cmd *ars_stat,
		unsigned int rec_index);
int ndctl_cmd_ars_stat_get_flag_overflow(struct ndctl_cmd *ars_stat);
struct ndctl_cmd *ndctl_bus_cmd_new_clear_error(unsigned long long address,
		unsigned long long len, struct ndctl_cmd *ars_cap);
unsigned long long ndctl_cmd_clear_error_get_cleared(struct ndctl_cmd *clear_err);
/* the kernel's scrub (ndbusN/nfit/scrub) */
int ndctl_bus_start_scrub(struct ndctl_bus *bus);
/* UINT_MAX when the bus has no scrub */
unsigned int ndctl_bus_get_scrub_count(struct ndctl_bus *bus);
int ndctl_bus_wait_for_scrub_completion(struct ndctl_bus *bus);
/* seconds; 0: no periodic re-read / no limit */
int ndctl_bus_poll_scrub_completion(struct ndctl_bus *bus,
		unsigned int poll_interval, unsigned int timeout);

/* badblocks.c: the kernel's lists, 512-byte sectors */
struct badblock {
	unsigned long long offset;
	unsigned int len;
};
struct badblock *ndctl_region_get_first_badblock(struct ndctl_region *region);
struct badblock *ndctl_region_get_next_badblock(struct ndctl_region *region);
#define ndctl_region_badblock_foreach(region, badblock) \
	for (badblock = ndctl_region_get_first_badblock(region); \
	     badblock != NULL; \
	     badblock = ndctl_region_get_next_badblock(region))
struct badblock *ndctl_namespace_get_first_badblock(struct ndctl_namespace *ndns);
struct badblock *ndctl_namespace_get_next_badblock(struct ndctl_namespace *ndns);
#define ndctl_namespace_badblock_foreach(ndns, badblock) \
	for (badblock = ndctl_namespace_get_first_badblock(ndns); \
	     badblock != NULL; \
	     badblock = ndctl_namespace_get_next_badblock(ndns))
struct ndctl_region *ndctl_bus_get_region_by_physical_address(
		struct ndctl_bus *bus, unsigned long long address);
/* a non-interleaved region's DIMM; NULL for interleaved ones (no Translate SPA) */
struct ndctl_dimm *ndctl_bus_get_dimm_by_physical_address(
		struct ndctl_bus *bus, unsigned long long address);

/* inject.c: NFIT error injection (ND_CMD_CALL, functions 7-9) */
int ndctl_bus_has_error_injection(struct ndctl_bus *bus);
enum ndctl_namespace_inject_flags {
	NDCTL_NS_INJECT_NOTIFY = 0,
	NDCTL_NS_INJECT_SATURATE,
};
int ndctl_namespace_inject_error(struct ndctl_namespace *ndns,
		unsigned long long block, unsigned long long count, bool notify);
int ndctl_namespace_inject_error2(struct ndctl_namespace *ndns,
		unsigned long long block, unsigned long long count,
		unsigned int flags);
int ndctl_namespace_uninject_error(struct ndctl_namespace *ndns,
		unsigned long long block, unsigned long long count);
int ndctl_namespace_uninject_error2(struct ndctl_namespace *ndns,
		unsigned long long block, unsigned long long count,
		unsigned int flags);
int ndctl_namespace_injection_status(struct ndctl_namespace *ndns);
struct ndctl_bb;
unsigned long long ndctl_bb_get_block(struct ndctl_bb *bb);
unsigned long long ndctl_bb_get_count(struct ndctl_bb *bb);
struct ndctl_bb *ndctl_namespace_injection_get_first_bb(
		struct ndctl_namespace *ndns);
struct ndctl_bb *ndctl_namespace_injection_get_next_bb(
		struct ndctl_namespace *ndns, struct ndctl_bb *bb);
#define ndctl_namespace_bb_foreach(ndns, bb) \
	for (bb = ndctl_namespace_injection_get_first_bb(ndns); \
	     bb != NULL; \
	     bb = ndctl_namespace_injection_get_next_bb(ndns, bb))

/* ---- DIMM health (smart.c): the Intel family's SMART functions ---- */
#ifndef ND_SMART_HEALTH_VALID
#define ND_SMART_HEALTH_VALID		(1 << 0)
#define ND_SMART_SPARES_VALID		(1 << 1)
#define ND_SMART_USED_VALID		(1 << 2)
#define ND_SMART_MTEMP_VALID		(1 << 3)
#define ND_SMART_TEMP_VALID		ND_SMART_MTEMP_VALID
#define ND_SMART_CTEMP_VALID		(1 << 4)
#define ND_SMART_SHUTDOWN_COUNT_VALID	(1 << 5)
#define ND_SMART_AIT_STATUS_VALID	(1 << 6)
#define ND_SMART_PTEMP_VALID		(1 << 7)
#define ND_SMART_ALARM_VALID		(1 << 9)
#define ND_SMART_SHUTDOWN_VALID		(1 << 10)
#define ND_SMART_VENDOR_VALID		(1 << 11)
#define ND_SMART_SPARE_TRIP		(1 << 0)
#define ND_SMART_MTEMP_TRIP		(1 << 1)
#define ND_SMART_TEMP_TRIP		ND_SMART_MTEMP_TRIP
#define ND_SMART_CTEMP_TRIP		(1 << 2)
#define ND_SMART_NON_CRITICAL_HEALTH	(1 << 0)
#define ND_SMART_CRITICAL_HEALTH	(1 << 1)
#define ND_SMART_FATAL_HEALTH		(1 << 2)
#endif

enum ndctl_smart_inject {
	ND_SMART_INJECT_SPARES_REMAINING = 1 << 0,
	ND_SMART_INJECT_MEDIA_TEMPERATURE = 1 << 1,
	ND_SMART_INJECT_CTRL_TEMPERATURE = 1 << 2,
	ND_SMART_INJECT_HEALTH_STATE = 1 << 3,
	ND_SMART_INJECT_UNCLEAN_SHUTDOWN = 1 << 4,
};

struct ndctl_cmd *ndctl_dimm_cmd_new_smart(struct ndctl_dimm *dimm);
unsigned int ndctl_cmd_smart_get_flags(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_get_health(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_get_temperature(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_get_media_temperature(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_get_ctrl_temperature(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_get_spares(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_get_alarm_flags(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_get_life_used(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_get_shutdown_state(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_get_shutdown_count(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_get_vendor_size(struct ndctl_cmd *cmd);
unsigned char *ndctl_cmd_smart_get_vendor_data(struct ndctl_cmd *cmd);
struct ndctl_cmd *ndctl_dimm_cmd_new_smart_threshold(struct ndctl_dimm *dimm);
unsigned int ndctl_cmd_smart_threshold_get_alarm_control(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_threshold_get_temperature(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_threshold_get_media_temperature(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_threshold_get_ctrl_temperature(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_threshold_get_spares(struct ndctl_cmd *cmd);
unsigned int ndctl_cmd_smart_threshold_get_supported_alarms(struct ndctl_cmd *cmd);
struct ndctl_cmd *ndctl_dimm_cmd_new_smart_set_threshold(struct ndctl_cmd *cmd);
int ndctl_cmd_smart_threshold_set_alarm_control(struct ndctl_cmd *cmd, unsigned int val);
int ndctl_cmd_smart_threshold_set_temperature(struct ndctl_cmd *cmd, unsigned int val);
int ndctl_cmd_smart_threshold_set_media_temperature(struct ndctl_cmd *cmd, unsigned int val);
int ndctl_cmd_smart_threshold_set_ctrl_temperature(struct ndctl_cmd *cmd, unsigned int val);
int ndctl_cmd_smart_threshold_set_spares(struct ndctl_cmd *cmd, unsigned int val);
int ndctl_dimm_smart_inject_supported(struct ndctl_dimm *dimm);
struct ndctl_cmd *ndctl_dimm_cmd_new_smart_inject(struct ndctl_dimm *dimm);
int ndctl_cmd_smart_inject_media_temperature(struct ndctl_cmd *cmd, bool enable, unsigned int mtemp);
int ndctl_cmd_smart_inject_spares(struct ndctl_cmd *cmd, bool enable, unsigned int spares);
int ndctl_cmd_smart_inject_fatal(struct ndctl_cmd *cmd, bool enable);
int ndctl_cmd_smart_inject_unsafe_shutdown(struct ndctl_cmd *cmd, bool enable);
double ndctl_decode_smart_temperature(unsigned int temp);
unsigned int ndctl_encode_smart_temperature(double temp);
int ndctl_dimm_get_health_eventfd(struct ndctl_dimm *dimm);
long long ndctl_dimm_get_dirty_shutdown(struct ndctl_dimm *dimm);
/*
 * Passphrase security (lib/security.c): commands to nmemN/security naming
 * keys by serial (0: none); 0 or -errno (the kernel's).
 */
const char *ndctl_dimm_refresh_security(struct ndctl_dimm *dimm);
int ndctl_dimm_security_is_frozen(struct ndctl_dimm *dimm);
int ndctl_dimm_update_passphrase(struct ndctl_dimm *dimm, long ckey, long nkey);
int ndctl_dimm_update_master_passphrase(struct ndctl_dimm *dimm, long ckey,
		long nkey);
int ndctl_dimm_disable_passphrase(struct ndctl_dimm *dimm, long key);
/* LIBNDCTL_28: -EINVAL from 6.1, which has no "disable_master" */
int ndctl_dimm_disable_master_passphrase(struct ndctl_dimm *dimm, long key);
int ndctl_dimm_freeze_security(struct ndctl_dimm *dimm);
int ndctl_dimm_secure_erase(struct ndctl_dimm *dimm, long key);
int ndctl_dimm_master_secure_erase(struct ndctl_dimm *dimm, long key);
int ndctl_dimm_overwrite(struct ndctl_dimm *dimm, long key);
int ndctl_dimm_wait_overwrite(struct ndctl_dimm *dimm);

/*
 * ---- DIMM firmware update and activation (firmware.c, LIBNDCTL_6) ----
 * The update calls return -errno when the command could not be sent and
 * otherwise the firmware's answer as an enum ndctl_fw_status (0: success).
 */
enum ndctl_fw_status {
	NDCTL_FW_SUCCESS = 0,
	NDCTL_FW_UNSUPPORTED,	/* the DIMM does not implement the function */
	NDCTL_FW_INVALID_PARAM,	/* bad offset, length, flags */
	NDCTL_FW_BUSY,		/* start: an update is already in progress */
	NDCTL_FW_BAD_CONTEXT,	/* send/finish/query: wrong or stale context */
	NDCTL_FW_DONE,		/* finish: the update was already finished */
	NDCTL_FW_VERIFYING,	/* query: still verifying, ask again */
	NDCTL_FW_BAD_IMAGE,	/* finish/query: the image failed verification */
	NDCTL_FW_ABORTED,	/* finish with abort: the update was dropped */
	NDCTL_FW_SEQUENCE,	/* query: no update was finished */
	NDCTL_FW_ERROR,		/* any other status */
};

struct ndctl_fw_info {
	unsigned int storage_size;	/* bytes an image may have */
	unsigned int max_send_len;	/* bytes per send */
	unsigned int query_interval_us;
	unsigned int max_query_time_us;
	unsigned int update_cap;
	unsigned int fis_version;
	unsigned long long run_version;
	unsigned long long next_version;	/* 0: nothing staged */
};

int ndctl_fw_xlat_status(unsigned int func, unsigned int status);
const char *ndctl_fw_status_str(int status);
int ndctl_dimm_fw_update_supported(struct ndctl_dimm *dimm);
int ndctl_dimm_fw_get_info(struct ndctl_dimm *dimm, struct ndctl_fw_info *info);
int ndctl_fw_image_check(const struct ndctl_fw_info *info,
		unsigned long long len);
int ndctl_dimm_fw_start(struct ndctl_dimm *dimm, unsigned int *context);
int ndctl_dimm_fw_send(struct ndctl_dimm *dimm, unsigned int context,
		unsigned int offset, unsigned int len, const void *data);
int ndctl_dimm_fw_finish(struct ndctl_dimm *dimm, unsigned int context);
int ndctl_dimm_fw_abort(struct ndctl_dimm *dimm, unsigned int context);
int ndctl_dimm_fw_query(struct ndctl_dimm *dimm, unsigned int context,
		unsigned long long *version);

/* activation: 6.1's firmware/ attributes; getters return the enum or -errno */
enum ndctl_fwa_state {
	NDCTL_FWA_IDLE,
	NDCTL_FWA_ARMED,
	NDCTL_FWA_BUSY,
	NDCTL_FWA_ARM_OVERFLOW,	/* bus only */
};

enum ndctl_fwa_result {
	NDCTL_FWA_RESULT_NONE,
	NDCTL_FWA_RESULT_SUCCESS,
	NDCTL_FWA_RESULT_FAIL,
	NDCTL_FWA_RESULT_NOTSTAGED,
	NDCTL_FWA_RESULT_NEEDRESET,
	NDCTL_FWA_RESULT_BUSY,
};

enum ndctl_fwa_method {
	NDCTL_FWA_METHOD_RESET,		/* no runtime activation */
	NDCTL_FWA_METHOD_SUSPEND,	/* capability "quiesce" */
	NDCTL_FWA_METHOD_LIVE,		/* capability "live" */
};

const char *ndctl_fwa_state_str(int state);
const char *ndctl_fwa_result_str(int result);
int ndctl_dimm_get_fw_activate_state(struct ndctl_dimm *dimm);
int ndctl_dimm_get_fw_activate_result(struct ndctl_dimm *dimm);
int ndctl_dimm_fw_activate_arm(struct ndctl_dimm *dimm, bool arm);
int ndctl_bus_get_fw_activate_state(struct ndctl_bus *bus);
int ndctl_bus_get_fw_activate_method(struct ndctl_bus *bus);
int ndctl_bus_activate_firmware(struct ndctl_bus *bus, bool live);
int ndctl_bus_set_fw_activate_noidle(struct ndctl_bus *bus, bool noidle);
int ndctl_bus_get_fw_activate_noidle(struct ndctl_bus *bus);

#ifdef __cplusplus
}
#endif

#endif /* _NDCTL_LIBNDCTL_H_ */
