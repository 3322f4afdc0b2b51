/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libndctl internals: object layout, logging, sysfs helpers */
#ifndef _LIBNDCTL_PRIVATE_H_
#define _LIBNDCTL_PRIVATE_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <syslog.h>
#include <uuid/uuid.h>

#include "ndctl/libndctl.h"

#define NDCTL_EXPORT __attribute__((visibility("default")))

/* ndctl reads at most this many bytes per attribute (sysfs-abi §1.1) */
#define ND_ATTR_MAX 1024
/*
 * The label's name field is 64 bytes: a name we write is at most 63
 * characters and its NUL.  A name read back is kept whatever its length:
 * labels written elsewhere fill all 64 bytes, and 6.1 shows them so.
 */
#define ND_ALT_NAME_MAX 64
#define ND_SECTOR_SIZES_MAX 16

struct kmod_ctx;

struct ndctl_ctx {
	int refcount;
	ndctl_log_fn log_fn;
	int log_priority;
	void *userdata;
	char *sysfs_root;
	char *dev_root;
	bool no_modprobe;
	struct kmod_ctx *kmod;
	bool buses_init;
	struct ndctl_bus *buses;
	int scan_errors;
};

struct ndctl_bus {
	struct ndctl_ctx *ctx;
	struct ndctl_bus *next;
	unsigned int id, major, minor;
	char *path;		/* realpath of ndbusN */
	char *devname;		/* ndbusN */
	char *provider;
	unsigned long long cmd_mask;
	bool has_nfit;
	bool dimms_init, regions_init;
	struct ndctl_dimm *dimms;
	struct ndctl_region *regions;
	char scrub_state[16];
};

#define DIMM_FLAG_SAVE_FAIL	(1 << 0)
#define DIMM_FLAG_RESTORE_FAIL	(1 << 1)
#define DIMM_FLAG_FLUSH_FAIL	(1 << 2)
#define DIMM_FLAG_NOT_ARMED	(1 << 3)
#define DIMM_FLAG_SMART_EVENT	(1 << 4)
#define DIMM_FLAG_MAP_FAIL	(1 << 5)
#define DIMM_FLAG_SMART_NOTIFY	(1 << 6)

struct ndctl_dimm {
	struct ndctl_bus *bus;
	struct ndctl_dimm *next;
	unsigned int id, major, minor;
	char *path;
	char *devname;
	unsigned long long cmd_mask;
	unsigned int handle;
	unsigned short phys_id, vendor, device, revision, format;
	unsigned int serial;
	char *unique_id;
	unsigned int nfit_flags;
	char security[32];
	long long dirty_shutdown;	/* nfit/dirty_shutdown at scan, or -ENOENT */
};

struct ndctl_mapping {
	struct ndctl_region *region;
	struct ndctl_mapping *next;
	struct ndctl_dimm *dimm;
	unsigned long long offset, length;
	int position;
};

struct ndctl_region {
	struct ndctl_bus *bus;
	struct ndctl_region *next;
	unsigned int id;
	char *path;
	char *devname;
	unsigned long long size, align, resource, set_cookie;
	unsigned int mappings_count;
	unsigned int nstype;
	unsigned int type;		/* ND_DEVICE_REGION_PMEM / _BLK */
	unsigned int range_index;
	int read_only;
	int numa_node;
	struct ndctl_mapping *mappings;
	bool namespaces_init, btts_init, pfns_init, daxs_init;
	struct ndctl_namespace *namespaces;
	struct ndctl_btt *btts;
	/* pfnR.N and daxR.N (the latter allocated as struct ndctl_dax) */
	struct ndctl_pfn *pfns, *daxs;
	/* children no longer listed: freed with the context */
	struct ndctl_namespace *dead_namespaces;
	struct ndctl_btt *dead_btts;
	struct ndctl_pfn *dead_pfns;
	char persistence_domain[32];
	/* badblocks.c: the last read of badblocks, and the iterator */
	struct badblock *bbs;
	unsigned int n_bbs, bb_next;
};

struct sector_sizes {
	int num;
	unsigned int sizes[ND_SECTOR_SIZES_MAX];
	unsigned int current;	/* 0: none selected */
};

struct ndctl_namespace {
	struct ndctl_region *region;
	struct ndctl_namespace *next;
	unsigned int id;
	char *path;
	char *devname;
	unsigned int type;
	unsigned long long size;
	uuid_t uuid;
	bool has_uuid_attr;
	bool has_alt_name_attr;
	char *alt_name;		/* NULL: no alt_name attribute (io) */
	bool has_sector_size;
	struct sector_sizes lbasize;
	int raw_mode;
	int numa_node;
	char blockdev[256];
	/* badblocks.c */
	struct badblock *bbs;
	unsigned int n_bbs, bb_next;
	/* inject.c: the last ndctl_namespace_injection_status() */
	struct ndctl_bb *injected;
	unsigned int n_injected;
};

struct ndctl_btt {
	struct ndctl_region *region;
	struct ndctl_btt *next;
	unsigned int id;
	char *path;
	char *devname;
	uuid_t uuid;
	struct sector_sizes lbasize;
	char ns_name[256];
	char blockdev[256];
};

#define ND_ALIGNS_MAX 8

/*
 * pfnR.N (fsdax) and daxR.N (devdax) share the kernel's attribute set
 * (uuid, mode, align, supported_alignments, namespace, resource, size);
 * a dax object is a pfn object with a different prefix.
 */
struct ndctl_pfn {
	struct ndctl_region *region;
	struct ndctl_pfn *next;
	unsigned int id;
	bool is_dax;
	char *path;
	char *devname;
	uuid_t uuid;
	int loc;		/* enum ndctl_pfn_loc */
	bool has_align;
	unsigned long align;
	int num_aligns;
	unsigned long aligns[ND_ALIGNS_MAX];
	char ns_name[256];
	char blockdev[256];
};

struct ndctl_dax {
	struct ndctl_pfn pfn;	/* first: lists hold &dax->pfn */
};

struct ndctl_cmd {
	struct ndctl_dimm *dimm;	/* NULL: a bus command (ars.c, inject.c) */
	struct ndctl_bus *bus;
	void *buf;			/* bus command envelope */
	unsigned int buf_size;
	int refcount;
	int type;
	int status;
	unsigned int fw_status;
	unsigned int config_size, max_xfer;
	unsigned int offset, len;	/* transfer range of read/write */
	unsigned char *data;		/* config_size bytes for read/write */
	struct ndctl_cmd *source;
};

/* DIMM ND_CMD_CALL packages (smart.c), submitted on the open /dev/nmemN */
int nd_dimm_call_submit(struct ndctl_cmd *cmd, int fd);

/* Intel family packages (smart.c), also for firmware.c */
bool nd_intel_func(struct ndctl_dimm *dimm, unsigned int func);
struct ndctl_cmd *nd_intel_cmd(struct ndctl_dimm *dimm, unsigned int func,
		unsigned int in, unsigned int out);

/* bus commands (ars.c): submit through /dev/ndctlN */
int nd_bus_cmd_submit(struct ndctl_cmd *cmd);
struct ndctl_cmd *nd_bus_cmd_alloc(struct ndctl_bus *bus, int type,
		unsigned int size);

/* logging */
void ndctl_log(struct ndctl_ctx *ctx, int priority, const char *file,
		int line, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

#define nd_log_cond(ctx, prio, ...) \
	do { \
		if ((ctx) && (ctx)->log_priority >= (prio)) \
			ndctl_log(ctx, prio, __FILE__, __LINE__, __func__, \
					__VA_ARGS__); \
	} while (0)
#define err(ctx, ...) nd_log_cond(ctx, LOG_ERR, __VA_ARGS__)
#define info(ctx, ...) nd_log_cond(ctx, LOG_INFO, __VA_ARGS__)
#define dbg(ctx, ...) nd_log_cond(ctx, LOG_DEBUG, __VA_ARGS__)

/* sysfs helpers (sysfs.c) */
int nd_path(char *out, size_t len, const char *dir, const char *name);
int nd_read_file(struct ndctl_ctx *ctx, const char *path, char *buf);
int nd_read_attr(struct ndctl_ctx *ctx, const char *dir, const char *attr,
		char *buf);
int nd_write_attr(struct ndctl_ctx *ctx, const char *dir, const char *attr,
		const char *val);
int nd_parse_ull(const char *s, unsigned long long *val);
int nd_parse_uint(const char *s, unsigned int *val);
int nd_parse_int(const char *s, int *val);
int nd_read_ull(struct ndctl_ctx *ctx, const char *dir, const char *attr,
		unsigned long long *val);
int nd_read_uint(struct ndctl_ctx *ctx, const char *dir, const char *attr,
		unsigned int *val);
int nd_parse_devname_id(const char *name, const char *prefix,
		unsigned int *id);
int nd_parse_child_id(const char *name, const char *prefix,
		unsigned int region_id, unsigned int *id);
int nd_parse_sector_sizes(const char *buf, struct sector_sizes *ss);
unsigned long long nd_parse_cmd_mask(const char *buf, bool dimm);
const char *nd_cmd_name(int cmd, bool dimm);
int nd_is_bound(const char *dir);
int nd_single_block_device(const char *dir, char *out, size_t len);
int nd_bind(struct ndctl_ctx *ctx, const char *dir, const char *devname);
int nd_bind_quiet(struct ndctl_ctx *ctx, const char *dir, const char *devname);
void nd_bind_failed(struct ndctl_ctx *ctx, const char *dir, const char *devname);
int nd_unbind(struct ndctl_ctx *ctx, const char *dir, const char *devname);
char *nd_strdup(const char *s);

#endif
