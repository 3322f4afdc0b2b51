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
