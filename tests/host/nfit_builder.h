/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Byte-level NFIT builder for the host tests and the fuzz seed corpus.
 *
 * Entries are appended zeroed with their header filled in; the returned
 * pointers stay valid (the buffer is inside the builder) so a test can
 * tweak any field afterwards, then call nb_finish() to set the table
 * length and checksum.
 */
#ifndef NFIT_BUILDER_H
#define NFIT_BUILDER_H

#include "table.h"

#define NB_CAP 16384

struct nfit_builder {
	u32 len;
	u8 buf[NB_CAP];
};

/* Sizes as ACPI 6.0 firmware (QEMU) writes them. */
#define NB_SPA_LEN_ACPI60	56
#define NB_DCR_LEN_SHORT	32
#define NB_DCR_LEN_FULL		80

void nb_init(struct nfit_builder *b);
void *nb_append(struct nfit_builder *b, u16 type, u16 length);
void nb_append_bytes(struct nfit_builder *b, const void *data, u32 n);
u32 nb_finish(struct nfit_builder *b);

/*
 * Layout variations: both move the bytes after the point, so pointers to
 * later entries go stale (tests then look at the parse result by index).
 * nb_resize() sets the entry's length field too.
 */
void nb_resize(struct nfit_builder *b, void *entry, u16 new_len);
void nb_insert(struct nfit_builder *b, void *before, const void *data, u32 n);

void nb_guid(u8 guid[16], enum nfit_spa_kind kind);

struct acpi_nfit_system_address *
nb_spa(struct nfit_builder *b, u16 length, u16 index, enum nfit_spa_kind kind,
       u64 address, u64 size);
struct acpi_nfit_memory_map *
nb_memdev(struct nfit_builder *b, u32 handle, u16 range_index, u16 dcr_index,
	  u64 size, u64 dpa, u16 ways);
struct acpi_nfit_control_region *
nb_dcr(struct nfit_builder *b, u16 length, u16 index, u32 serial, u16 windows);
struct acpi_nfit_data_region *
nb_bdw(struct nfit_builder *b, u16 dcr_index, u64 capacity);
struct acpi_nfit_interleave *
nb_idt(struct nfit_builder *b, u16 index, u32 lines, u32 line_size);
struct acpi_nfit_flush_address *
nb_flush(struct nfit_builder *b, u32 handle, u16 hints);
struct acpi_nfit_capabilities *nb_cap(struct nfit_builder *b, u32 caps);
struct acpi_nfit_smbios *nb_smbios(struct nfit_builder *b, u16 data_len);

/* Pointers to the entries of the two canned topologies, for tweaking. */
struct nb_qemu {
	struct acpi_nfit_system_address *spa[2];
	struct acpi_nfit_memory_map *memdev[2];
	struct acpi_nfit_control_region *dcr[2];
	struct acpi_nfit_capabilities *cap;
};

#define NB_T0_DIMMS 4
struct nb_t0 {
	struct acpi_nfit_system_address *spa_pm[2];
	struct acpi_nfit_system_address *spa_dcr[NB_T0_DIMMS];
	struct acpi_nfit_system_address *spa_bdw[NB_T0_DIMMS];
	struct acpi_nfit_memory_map *memdev_pm0[2];	/* spa 1, 2-way */
	struct acpi_nfit_memory_map *memdev_pm1[NB_T0_DIMMS];	/* spa 2, 4-way */
	struct acpi_nfit_memory_map *memdev_dcr[NB_T0_DIMMS];
	struct acpi_nfit_memory_map *memdev_bdw[NB_T0_DIMMS];
	struct acpi_nfit_control_region *dcr[NB_T0_DIMMS];
	struct acpi_nfit_data_region *bdw[NB_T0_DIMMS];
};

/* QEMU (7.2) style handles and indexes for NVDIMM slot n. */
#define NB_QEMU_HANDLE(n)	((n) + 1)
#define NB_QEMU_SPA(n)		(((n) + 1) << 1)
#define NB_QEMU_DCR(n)		(NB_QEMU_SPA(n) + 1)
#define NB_QEMU_BASE		0x140000000ULL
#define NB_QEMU_SIZE		0x8000000ULL

void nb_build_qemu(struct nfit_builder *b, struct nb_qemu *q);

#define NB_T0_HANDLE(imc, dimm)	(((imc) << 8) | (dimm))
#define NB_T0_DIMM_SIZE		(32ULL << 20)
#define NB_T0_PM0_BASE		0x200000000ULL
#define NB_T0_PM1_BASE		0x210000000ULL

extern const u32 nb_t0_handle[NB_T0_DIMMS];
void nb_build_t0(struct nfit_builder *b, struct nb_t0 *t0);

#endif
