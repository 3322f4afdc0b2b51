// SPDX-License-Identifier: GPL-2.0-only
/*
 * Byte-level NFIT builder: see nfit_builder.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfit_builder.h"

static void nb_die(const char *what)
{
	fprintf(stderr, "nfit_builder: %s\n", what);
	abort();
}

void nb_init(struct nfit_builder *b)
{
	struct acpi_table_nfit *nfit = (void *)b->buf;

	memset(b, 0, sizeof(*b));
	memcpy(nfit->header.signature, "NFIT", 4);
	nfit->header.revision = 1;
	memcpy(nfit->header.oem_id, "LIBNVD", 6);
	memcpy(nfit->header.oem_table_id, "HOSTTEST", 8);
	nfit->header.oem_revision = 1;
	memcpy(nfit->header.asl_compiler_id, "NBLD", 4);
	nfit->header.asl_compiler_revision = 1;
	b->len = sizeof(*nfit);
}

void nb_append_bytes(struct nfit_builder *b, const void *data, u32 n)
{
	if (n > NB_CAP - b->len)
		nb_die("table too big");
	memcpy(b->buf + b->len, data, n);
	b->len += n;
}

void *nb_append(struct nfit_builder *b, u16 type, u16 length)
{
	struct acpi_nfit_header *hdr;

	if (length > NB_CAP - b->len)
		nb_die("table too big");
	hdr = (void *)(b->buf + b->len);
	memset(hdr, 0, length);
	/* lengths below the header size are for the malformed-table cases */
	if (length >= 2)
		hdr->type = type;
	if (length >= 4)
		hdr->length = length;
	b->len += length;
	return hdr;
}

void nb_resize(struct nfit_builder *b, void *entry, u16 new_len)
{
	struct acpi_nfit_header *hdr = entry;
	u32 at = (u32)((u8 *)entry - b->buf);
	u32 old_len = hdr->length;
	u32 tail = b->len - at - old_len;

	if (new_len > old_len && new_len - old_len > NB_CAP - b->len)
		nb_die("table too big");
	memmove(b->buf + at + new_len, b->buf + at + old_len, tail);
	if (new_len > old_len)
		memset(b->buf + at + old_len, 0, new_len - old_len);
	b->len = b->len - old_len + new_len;
	if (new_len >= 4)
		hdr->length = new_len;
}

void nb_insert(struct nfit_builder *b, void *before, const void *data, u32 n)
{
	u32 at = (u32)((u8 *)before - b->buf);

	if (n > NB_CAP - b->len)
		nb_die("table too big");
	memmove(b->buf + at + n, b->buf + at, b->len - at);
	memcpy(b->buf + at, data, n);
	b->len += n;
}

u32 nb_finish(struct nfit_builder *b)
{
	struct acpi_table_nfit *nfit = (void *)b->buf;
	u8 sum = 0;
	u32 i;

	nfit->header.length = b->len;
	nfit->header.checksum = 0;
	for (i = 0; i < b->len; i++)
		sum += b->buf[i];
	nfit->header.checksum = (u8)-sum;
	return b->len;
}

/* The range type GUIDs, written out independently of table.c. */
static const char *const nb_guid_str[] = {
	[NFIT_SPA_VOLATILE] = "7305944f-fdda-44e3-b16c-3f22d252e5d0",
	[NFIT_SPA_PM] = "66f0d379-b4f3-4074-ac43-0d3318b78cdb",
	[NFIT_SPA_DCR] = "92f701f6-13b4-405d-910b-299367e8234c",
	[NFIT_SPA_BDW] = "91af0530-5d86-470e-a6b0-0a2db9408249",
	[NFIT_SPA_VDISK] = "77ab535a-45fc-624b-5560-f7b281d1f96e",
	[NFIT_SPA_VCD] = "3d5abd30-4175-87ce-6d64-d2ade523c4bb",
	[NFIT_SPA_PDISK] = "5cea02c9-4d07-69d3-269f-4496fbe096f9",
	[NFIT_SPA_PCD] = "08018188-42cd-bb48-100f-5387d53ded3d",
};

/* Text GUID to the mixed-endian byte layout ACPI tables use. */
void nb_guid(u8 guid[16], enum nfit_spa_kind kind)
{
	static const int order[16] = {
		3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15
	};
	u8 raw[16];
	const char *s;
	int i;

	if (kind == NFIT_SPA_UNKNOWN) {
		for (i = 0; i < 16; i++)
			guid[i] = (u8)(0xa0 + i);
		return;
	}
	s = nb_guid_str[kind];
	for (i = 0; i < 16; i++) {
		unsigned int v;

		if (*s == '-')
			s++;
		if (sscanf(s, "%2x", &v) != 1)
			nb_die("bad guid");
		raw[i] = (u8)v;
		s += 2;
	}
	for (i = 0; i < 16; i++)
		guid[i] = raw[order[i]];
}

struct acpi_nfit_system_address *
nb_spa(struct nfit_builder *b, u16 length, u16 index, enum nfit_spa_kind kind,
       u64 address, u64 size)
{
	struct acpi_nfit_system_address *spa =
		nb_append(b, ACPI_NFIT_TYPE_SYSTEM_ADDRESS, length);

	if (length < NB_SPA_LEN_ACPI60)
		return spa;	/* truncated entries carry no fields */
	spa->range_index = index;
	spa->flags = ACPI_NFIT_PROXIMITY_VALID;
	nb_guid(spa->range_guid, kind);
	spa->address = address;
	spa->length = size;
	spa->memory_mapping = 0x8008; /* EFI_MEMORY_WB | EFI_MEMORY_NV */
	return spa;
}

struct acpi_nfit_memory_map *
nb_memdev(struct nfit_builder *b, u32 handle, u16 range_index, u16 dcr_index,
	  u64 size, u64 dpa, u16 ways)
{
	struct acpi_nfit_memory_map *m =
		nb_append(b, ACPI_NFIT_TYPE_MEMORY_MAP, sizeof(*m));

	m->device_handle = handle;
	m->physical_id = (u16)handle;
	m->range_index = range_index;
	m->region_index = dcr_index;
	m->region_size = size;
	m->address = dpa;
	m->interleave_ways = ways;
	return m;
}

struct acpi_nfit_control_region *
nb_dcr(struct nfit_builder *b, u16 length, u16 index, u32 serial, u16 windows)
{
	struct acpi_nfit_control_region *dcr =
		nb_append(b, ACPI_NFIT_TYPE_CONTROL_REGION, length);

	if (length < NB_DCR_LEN_SHORT)
		return dcr;
	dcr->region_index = index;
	dcr->vendor_id = 0x8086;
	dcr->device_id = 0x0001;
	dcr->revision_id = 1;
	dcr->subsystem_vendor_id = 0x8086;
	dcr->subsystem_device_id = 0x0001;
	dcr->subsystem_revision_id = 1;
	dcr->serial_number = serial;
	dcr->code = windows ? 0x0201 : 0x0301;
	dcr->windows = windows;
	if (length < NB_DCR_LEN_FULL)
		return dcr;
	if (windows) {
		dcr->window_size = 12;
		dcr->command_offset = 0;
		dcr->command_size = 8;
		dcr->status_offset = 8;
		dcr->status_size = 4;
	}
	return dcr;
}

struct acpi_nfit_data_region *
nb_bdw(struct nfit_builder *b, u16 dcr_index, u64 capacity)
{
	struct acpi_nfit_data_region *bdw =
		nb_append(b, ACPI_NFIT_TYPE_DATA_REGION, sizeof(*bdw));

	bdw->region_index = dcr_index;
	bdw->windows = 1;
	bdw->size = 64 << 8;
	bdw->capacity = capacity;
	return bdw;
}

struct acpi_nfit_interleave *
nb_idt(struct nfit_builder *b, u16 index, u32 lines, u32 line_size)
{
	u32 len = offsetof(struct acpi_nfit_interleave, line_offset) + lines * 4;
	struct acpi_nfit_interleave *idt =
		nb_append(b, ACPI_NFIT_TYPE_INTERLEAVE, (u16)len);
	u8 *off = (u8 *)idt + offsetof(struct acpi_nfit_interleave, line_offset);
	u32 i;

	idt->interleave_index = index;
	idt->line_count = lines;
	idt->line_size = line_size;
	for (i = 0; i < lines; i++) {
		u32 v = i * 2;

		memcpy(off + i * 4, &v, 4);
	}
	return idt;
}

struct acpi_nfit_flush_address *
nb_flush(struct nfit_builder *b, u32 handle, u16 hints)
{
	u32 len = offsetof(struct acpi_nfit_flush_address, hint_address) +
		  hints * 8;
	struct acpi_nfit_flush_address *f =
		nb_append(b, ACPI_NFIT_TYPE_FLUSH_ADDRESS, (u16)len);
	u8 *addr = (u8 *)f + offsetof(struct acpi_nfit_flush_address,
				      hint_address);
	u32 i;

	f->device_handle = handle;
	f->hint_count = hints;
	for (i = 0; i < hints; i++) {
		u64 v = 0xfee00000ULL + handle * 0x1000ULL + i * 64;

		memcpy(addr + i * 8, &v, 8);
	}
	return f;
}

struct acpi_nfit_capabilities *nb_cap(struct nfit_builder *b, u32 caps)
{
	struct acpi_nfit_capabilities *c =
		nb_append(b, ACPI_NFIT_TYPE_CAPABILITIES, sizeof(*c));

	c->highest_capability = caps ? (u8)(31 - __builtin_clz(caps)) : 0;
	c->capabilities = caps;
	return c;
}

struct acpi_nfit_smbios *nb_smbios(struct nfit_builder *b, u16 data_len)
{
	u16 len = offsetof(struct acpi_nfit_smbios, data) + data_len;
	struct acpi_nfit_smbios *s =
		nb_append(b, ACPI_NFIT_TYPE_SMBIOS, len);

	memset((u8 *)s + offsetof(struct acpi_nfit_smbios, data), 0x11,
	       data_len);
	return s;
}

/*
 * Shaped like what QEMU 7.2 writes for two NVDIMMs: per slot a 56-byte
 * PM SPA range, a memory device map and an 80-byte control region with
 * no block windows, then one platform capabilities structure.
 */
void nb_build_qemu(struct nfit_builder *b, struct nb_qemu *q)
{
	int n;

	nb_init(b);
	for (n = 0; n < 2; n++) {
		u64 base = NB_QEMU_BASE + n * NB_QEMU_SIZE;

		q->spa[n] = nb_spa(b, NB_SPA_LEN_ACPI60, NB_QEMU_SPA(n),
				   NFIT_SPA_PM, base, NB_QEMU_SIZE);
		q->memdev[n] = nb_memdev(b, NB_QEMU_HANDLE(n), NB_QEMU_SPA(n),
					 NB_QEMU_DCR(n), NB_QEMU_SIZE, 0, 1);
		q->dcr[n] = nb_dcr(b, NB_DCR_LEN_FULL, NB_QEMU_DCR(n),
				   0x123456 + n, 0);
	}
	q->cap = nb_cap(b, ACPI_NFIT_CAPABILITY_CACHE_FLUSH |
			ACPI_NFIT_CAPABILITY_MEM_FLUSH);
	nb_finish(b);
}

const u32 nb_t0_handle[NB_T0_DIMMS] = {
	NB_T0_HANDLE(0, 0), NB_T0_HANDLE(0, 1),
	NB_T0_HANDLE(1, 0), NB_T0_HANDLE(1, 1),
};

/*
 * The nfit_test.0 topology: four DIMMs, each with a control region and a
 * block data window (and SPA ranges for both); SPA range 1 interleaves
 * the first half of DIMMs 0 and 1, SPA range 2 the second halves of all
 * four.  All SPA ranges first, then the maps, the control regions and
 * the block windows, with full-size (64-byte) SPA entries.
 */
void nb_build_t0(struct nfit_builder *b, struct nb_t0 *t0)
{
	const u16 spa_len = sizeof(struct acpi_nfit_system_address);
	const u64 half = NB_T0_DIMM_SIZE / 2;
	int i;

	nb_init(b);
	t0->spa_pm[0] = nb_spa(b, spa_len, 1, NFIT_SPA_PM, NB_T0_PM0_BASE,
			       2 * half);
	t0->spa_pm[1] = nb_spa(b, spa_len, 2, NFIT_SPA_PM, NB_T0_PM1_BASE,
			       4 * half);
	for (i = 0; i < NB_T0_DIMMS; i++)
		t0->spa_dcr[i] = nb_spa(b, spa_len, 3 + i, NFIT_SPA_DCR,
					0x300000000ULL + i * 0x1000, 12);
	for (i = 0; i < NB_T0_DIMMS; i++)
		t0->spa_bdw[i] = nb_spa(b, spa_len, 7 + i, NFIT_SPA_BDW,
					0x400000000ULL + i * NB_T0_DIMM_SIZE,
					NB_T0_DIMM_SIZE);

	for (i = 0; i < 2; i++)
		t0->memdev_pm0[i] = nb_memdev(b, nb_t0_handle[i], 1, 1 + i,
					      half, 0, 2);
	for (i = 0; i < NB_T0_DIMMS; i++)
		t0->memdev_pm1[i] = nb_memdev(b, nb_t0_handle[i], 2, 1 + i,
					      half, half, 4);
	for (i = 0; i < NB_T0_DIMMS; i++)
		t0->memdev_dcr[i] = nb_memdev(b, nb_t0_handle[i], 3 + i, 1 + i,
					      0, 0, 1);
	for (i = 0; i < NB_T0_DIMMS; i++)
		t0->memdev_bdw[i] = nb_memdev(b, nb_t0_handle[i], 7 + i, 1 + i,
					      0, 0, 1);

	for (i = 0; i < NB_T0_DIMMS; i++)
		t0->dcr[i] = nb_dcr(b, NB_DCR_LEN_FULL, 1 + i,
				    ~nb_t0_handle[i], 1);
	for (i = 0; i < NB_T0_DIMMS; i++)
		t0->bdw[i] = nb_bdw(b, 1 + i, NB_T0_DIMM_SIZE);
	nb_finish(b);
}
