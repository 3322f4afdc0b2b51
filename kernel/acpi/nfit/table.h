/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * NFIT (ACPI 6 NVDIMM Firmware Interface Table) walker.
 *
 * Pure-format code: it validates and indexes a table held in a caller's
 * buffer, keeps no state of its own and allocates nothing, so that the
 * same source builds into nfit.ko and into the host unit tests (where
 * userspace/kshim and tests/host/shim stand in for the few kernel
 * headers used here).
 *
 * The subtable layouts are ACPICA's (struct acpi_nfit_*), reached through
 * <linux/acpi.h>.
 */
#ifndef __NFIT_TABLE_H__
#define __NFIT_TABLE_H__

#include <linux/types.h>
#include <linux/acpi.h>

/* What a System Physical Address range describes, from its range GUID. */
enum nfit_spa_kind {
	NFIT_SPA_UNKNOWN,
	NFIT_SPA_VOLATILE,
	NFIT_SPA_PM,
	NFIT_SPA_DCR,
	NFIT_SPA_BDW,
	NFIT_SPA_VDISK,
	NFIT_SPA_VCD,
	NFIT_SPA_PDISK,
	NFIT_SPA_PCD,
};

/**
 * struct nfit_sub - one subtable of known type
 * @hdr: start of the subtable, inside the caller's table buffer
 * @usable: false when validation rejected the entry (the reason was logged)
 */
struct nfit_sub {
	const struct acpi_nfit_header *hdr;
	bool usable;
};

/**
 * struct nfit_table - an indexed NFIT
 * @nfit: the table header, inside the caller's buffer
 * @length: table length actually used (the header's length field)
 * @revision: table revision from the header
 * @nr_subs: number of entries filled in @subs
 * @subs: caller-provided array, in table order; only subtables of the
 *	known types (below ACPI_NFIT_TYPE_RESERVED) are listed
 * @nr_unknown: subtables of reserved/unknown type, skipped
 */
struct nfit_table {
	const struct acpi_table_nfit *nfit;
	u32 length;
	u8 revision;
	unsigned int nr_subs;
	struct nfit_sub *subs;
	unsigned int nr_unknown;
};

/*
 * Log callback: @error is true for firmware problems worth a warning
 * (rejected entries, bad checksum, refused table) and false for debug
 * notes.  Each message is one line ending in "\n".
 */
typedef void (*nfit_log_fn)(void *ctx, bool error, const char *fmt, ...)
	__printf(3, 4);

unsigned int nfit_table_max_subs(u32 len);
int nfit_table_parse(struct nfit_table *t, const void *buf, u32 len,
		     struct nfit_sub *subs, unsigned int max_subs,
		     nfit_log_fn log, void *ctx);

enum nfit_spa_kind nfit_spa_kind(const struct acpi_nfit_system_address *spa);
bool nfit_spa_location_cookie(const struct acpi_nfit_system_address *spa,
			      u64 *cookie);
u16 nfit_dcr_windows(const struct acpi_nfit_control_region *dcr);
u16 nfit_dcr_flags(const struct acpi_nfit_control_region *dcr);

const void *nfit_next(const struct nfit_table *t, u16 type, unsigned int *pos);

const struct acpi_nfit_system_address *
nfit_spa_by_index(const struct nfit_table *t, u16 range_index);
const struct acpi_nfit_control_region *
nfit_dcr_by_index(const struct nfit_table *t, u16 dcr_index);
const struct acpi_nfit_data_region *
nfit_bdw_by_dcr(const struct nfit_table *t, u16 dcr_index);
const struct acpi_nfit_flush_address *
nfit_flush_by_handle(const struct nfit_table *t, u32 device_handle);
const struct acpi_nfit_interleave *
nfit_idt_by_index(const struct nfit_table *t, u16 interleave_index);
unsigned int nfit_spa_nr_memdevs(const struct nfit_table *t, u16 range_index);

/**
 * struct nfit_ileave - where a DIMM's device offsets land in an SPA range
 * @base: region_offset of the DIMM's memory device map of the range
 * @line_size: interleave line size, 0 when the map has no interleave table
 * @num_lines: line_count of the interleave table
 * @table_size: bytes one pass of the table spans in the range: line_count
 *	x interleave ways x line_size
 * @idt: the interleave table, NULL when @line_size is 0
 *
 * Device offset o is at range offset T(o): base + o without a table,
 * else base + line_offset[i] x line_size + r x table_size + o % line_size
 * with line number n = o / line_size, i = n % num_lines, r = n / num_lines
 * (ACPI 6.0 5.2.25.3-6).
 */
struct nfit_ileave {
	u64 base;
	u32 line_size;
	u32 num_lines;
	u64 table_size;
	const struct acpi_nfit_interleave *idt;
};

/**
 * struct nfit_blk_geom - one DIMM's block windows, checked against the table
 * @handle: NFIT device handle of the DIMM
 * @dcr: its control region
 * @bdw: its block-data-window description
 * @spa_dcr: the range holding its control registers
 * @spa_bdw: the range holding its block-data windows (apertures)
 * @memdev_dcr: its memory device map of @spa_dcr
 * @memdev_bdw: its memory device map of @spa_bdw
 * @windows: windows usable: the lower of the control region's and the
 *	block-data window's counts, at least 1
 * @cmd_offset: device offset of window 0's command register (8 bytes)
 * @status_offset: device offset of window 0's status register (4 bytes)
 * @ctl_stride: from one window's registers to the next (DCR window_size)
 * @win_offset: device offset of window 0's aperture (BDW offset)
 * @win_size: bytes of one aperture (BDW size), at least 64
 * @dpa_start: first DPA the windows reach (BDW start_address)
 * @dpa_size: bytes of DPA they reach (BDW capacity); start + size <= 2^54
 * @ctl: device offsets to @spa_dcr offsets
 * @data: device offsets to @spa_bdw offsets
 *
 * Once nfit_blk_geom() accepted it, every register of every window (at
 * cmd_offset + k x ctl_stride and status_offset + k x ctl_stride, k <
 * @windows) lies inside @spa_dcr without crossing an interleave line, and
 * every byte of every aperture (win_offset + k x win_size + j, j <
 * win_size) lies inside @spa_bdw: nfit_ileave_xlate() of those offsets
 * cannot overflow.
 */
struct nfit_blk_geom {
	u32 handle;
	const struct acpi_nfit_control_region *dcr;
	const struct acpi_nfit_data_region *bdw;
	const struct acpi_nfit_system_address *spa_dcr;
	const struct acpi_nfit_system_address *spa_bdw;
	const struct acpi_nfit_memory_map *memdev_dcr;
	const struct acpi_nfit_memory_map *memdev_bdw;
	u16 windows;
	u64 cmd_offset;
	u64 status_offset;
	u64 ctl_stride;
	u64 win_offset;
	u64 win_size;
	u64 dpa_start;
	u64 dpa_size;
	struct nfit_ileave ctl;
	struct nfit_ileave data;
};

/* register widths of the block-window protocol */
#define NFIT_BLK_CMD_BYTES	8
#define NFIT_BLK_STATUS_BYTES	4
/* the command addresses DPA in 64-byte lines, 48 bits of line number */
#define NFIT_BLK_LINE		64U
#define NFIT_BLK_DPA_LIMIT	((u64)NFIT_BLK_LINE << 48)

int nfit_blk_geom(const struct nfit_table *t,
		  const struct acpi_nfit_memory_map *memdev_bdw,
		  struct nfit_blk_geom *g, nfit_log_fn log, void *ctx);
u64 nfit_ileave_xlate(const struct nfit_ileave *il, u64 off);
u64 nfit_ileave_run(const struct nfit_ileave *il, u64 off);

/**
 * nfit_for_each_usable - iterate over the usable subtables of one type
 * @t: parsed table
 * @ptr: cursor, a pointer to the ACPICA struct of @type
 * @type: an ACPI_NFIT_TYPE_* value
 *
 * Walks in table order; loops may nest (each has its own position).
 */
#define nfit_for_each_usable(t, ptr, type)				\
	for (unsigned int __nfit_pos = 0;				\
	     ((ptr) = nfit_next(t, type, &__nfit_pos)) != NULL;)

#endif /* __NFIT_TABLE_H__ */
