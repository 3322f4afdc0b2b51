// SPDX-License-Identifier: GPL-2.0-only
/*
 * NFIT (ACPI 6 NVDIMM Firmware Interface Table) walker: bounds checks,
 * cross-reference validation and lookups over a table in a caller's
 * buffer.  Nothing here reads outside [buf, buf + len).
 *
 * Validation runs in passes so that the order of subtables in the table
 * does not matter: sizes first, then the self-contained checks of each
 * type, then the references (block windows to control regions, memory
 * device maps to everything), and finally the completeness of each
 * persistent memory interleave set.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "table.h"

/* Range type GUIDs, in the byte order they have inside the table. */
static const struct {
	u8 guid[16];
	enum nfit_spa_kind kind;
} nfit_spa_guids[] = {
	{	/* 7305944f-fdda-44e3-b16c-3f22d252e5d0 */
		{ 0x4f, 0x94, 0x05, 0x73, 0xda, 0xfd, 0xe3, 0x44,
		  0xb1, 0x6c, 0x3f, 0x22, 0xd2, 0x52, 0xe5, 0xd0 },
		NFIT_SPA_VOLATILE
	}, {	/* 66f0d379-b4f3-4074-ac43-0d3318b78cdb */
		{ 0x79, 0xd3, 0xf0, 0x66, 0xf3, 0xb4, 0x74, 0x40,
		  0xac, 0x43, 0x0d, 0x33, 0x18, 0xb7, 0x8c, 0xdb },
		NFIT_SPA_PM
	}, {	/* 92f701f6-13b4-405d-910b-299367e8234c */
		{ 0xf6, 0x01, 0xf7, 0x92, 0xb4, 0x13, 0x5d, 0x40,
		  0x91, 0x0b, 0x29, 0x93, 0x67, 0xe8, 0x23, 0x4c },
		NFIT_SPA_DCR
	}, {	/* 91af0530-5d86-470e-a6b0-0a2db9408249 */
		{ 0x30, 0x05, 0xaf, 0x91, 0x86, 0x5d, 0x0e, 0x47,
		  0xa6, 0xb0, 0x0a, 0x2d, 0xb9, 0x40, 0x82, 0x49 },
		NFIT_SPA_BDW
	}, {	/* 77ab535a-45fc-624b-5560-f7b281d1f96e */
		{ 0x5a, 0x53, 0xab, 0x77, 0xfc, 0x45, 0x4b, 0x62,
		  0x55, 0x60, 0xf7, 0xb2, 0x81, 0xd1, 0xf9, 0x6e },
		NFIT_SPA_VDISK
	}, {	/* 3d5abd30-4175-87ce-6d64-d2ade523c4bb */
		{ 0x30, 0xbd, 0x5a, 0x3d, 0x75, 0x41, 0xce, 0x87,
		  0x6d, 0x64, 0xd2, 0xad, 0xe5, 0x23, 0xc4, 0xbb },
		NFIT_SPA_VCD
	}, {	/* 5cea02c9-4d07-69d3-269f-4496fbe096f9 */
		{ 0xc9, 0x02, 0xea, 0x5c, 0x07, 0x4d, 0xd3, 0x69,
		  0x26, 0x9f, 0x44, 0x96, 0xfb, 0xe0, 0x96, 0xf9 },
		NFIT_SPA_PDISK
	}, {	/* 08018188-42cd-bb48-100f-5387d53ded3d */
		{ 0x88, 0x81, 0x01, 0x08, 0xcd, 0x42, 0x48, 0xbb,
		  0x10, 0x0f, 0x53, 0x87, 0xd5, 0x3d, 0xed, 0x3d },
		NFIT_SPA_PCD
	},
};

static const char * const nfit_type_name[ACPI_NFIT_TYPE_RESERVED] = {
	[ACPI_NFIT_TYPE_SYSTEM_ADDRESS] = "SPA range",
	[ACPI_NFIT_TYPE_MEMORY_MAP] = "memory device map",
	[ACPI_NFIT_TYPE_INTERLEAVE] = "interleave table",
	[ACPI_NFIT_TYPE_SMBIOS] = "SMBIOS info",
	[ACPI_NFIT_TYPE_CONTROL_REGION] = "control region",
	[ACPI_NFIT_TYPE_DATA_REGION] = "block data window",
	[ACPI_NFIT_TYPE_FLUSH_ADDRESS] = "flush hint",
	[ACPI_NFIT_TYPE_CAPABILITIES] = "platform capabilities",
};

/*
 * Shortest legal length of each known subtable type, not counting the
 * variable parts.  An SPA range may stop before the ACPI 6.4 location
 * cookie and a control region before its block window fields.
 */
static const u16 nfit_fixed_len[ACPI_NFIT_TYPE_RESERVED] = {
	[ACPI_NFIT_TYPE_SYSTEM_ADDRESS] =
		offsetofend(struct acpi_nfit_system_address, memory_mapping),
	[ACPI_NFIT_TYPE_MEMORY_MAP] = sizeof(struct acpi_nfit_memory_map),
	[ACPI_NFIT_TYPE_INTERLEAVE] =
		offsetof(struct acpi_nfit_interleave, line_offset),
	[ACPI_NFIT_TYPE_SMBIOS] = offsetof(struct acpi_nfit_smbios, data),
	[ACPI_NFIT_TYPE_CONTROL_REGION] =
		offsetofend(struct acpi_nfit_control_region, windows),
	[ACPI_NFIT_TYPE_DATA_REGION] = sizeof(struct acpi_nfit_data_region),
	[ACPI_NFIT_TYPE_FLUSH_ADDRESS] =
		offsetof(struct acpi_nfit_flush_address, hint_address),
	[ACPI_NFIT_TYPE_CAPABILITIES] = sizeof(struct acpi_nfit_capabilities),
};

struct nfit_parse {
	struct nfit_table *t;
	nfit_log_fn log;
	void *ctx;
};

static __printf(3, 4) void nfit_log_nop(void *ctx, bool error,
					const char *fmt, ...)
{
}

static u32 nfit_offset(const struct nfit_table *t,
		       const struct acpi_nfit_header *hdr)
{
	return (u32)((const u8 *)hdr - (const u8 *)t->nfit);
}

/* Bytes the entry needs, given its type and its own count fields. */
static u64 nfit_needed_len(const struct acpi_nfit_header *hdr)
{
	u64 need = nfit_fixed_len[hdr->type];
	const struct acpi_nfit_interleave *idt;
	const struct acpi_nfit_flush_address *flush;

	if (hdr->length < need)
		return need;

	switch (hdr->type) {
	case ACPI_NFIT_TYPE_INTERLEAVE:
		idt = (const void *)hdr;
		need += (u64)idt->line_count * sizeof(u32);
		break;
	case ACPI_NFIT_TYPE_FLUSH_ADDRESS:
		flush = (const void *)hdr;
		need += (u64)flush->hint_count * sizeof(u64);
		break;
	}
	return need;
}

/* Long enough that every field of the fixed part (and counts) is readable */
static bool nfit_sized(const struct acpi_nfit_header *hdr)
{
	return hdr->length >= nfit_needed_len(hdr);
}

/* The key that must be unique among the entries of one type. */
static u64 nfit_key(const struct acpi_nfit_header *hdr)
{
	const struct acpi_nfit_system_address *spa = (const void *)hdr;
	const struct acpi_nfit_memory_map *memdev = (const void *)hdr;
	const struct acpi_nfit_interleave *idt = (const void *)hdr;
	const struct acpi_nfit_control_region *dcr = (const void *)hdr;
	const struct acpi_nfit_data_region *bdw = (const void *)hdr;
	const struct acpi_nfit_flush_address *flush = (const void *)hdr;

	switch (hdr->type) {
	case ACPI_NFIT_TYPE_SYSTEM_ADDRESS:
		return spa->range_index;
	case ACPI_NFIT_TYPE_MEMORY_MAP:
		return (u64)memdev->device_handle << 16 | memdev->range_index;
	case ACPI_NFIT_TYPE_INTERLEAVE:
		return idt->interleave_index;
	case ACPI_NFIT_TYPE_CONTROL_REGION:
		return dcr->region_index;
	case ACPI_NFIT_TYPE_DATA_REGION:
		return bdw->region_index;
	case ACPI_NFIT_TYPE_FLUSH_ADDRESS:
		return flush->device_handle;
	}
	return 0;
}

/*
 * Whether an earlier entry of the same type, long enough to carry its
 * key, has the key of entry @i.  Earlier entries count even when they
 * were rejected for their content: the key is ambiguous either way.
 */
static bool nfit_dup_before(const struct nfit_table *t, unsigned int i)
{
	const struct acpi_nfit_header *hdr = t->subs[i].hdr;
	u64 key = nfit_key(hdr);
	unsigned int j;

	for (j = 0; j < i; j++) {
		const struct acpi_nfit_header *prev = t->subs[j].hdr;

		if (prev->type == hdr->type && nfit_sized(prev) &&
		    nfit_key(prev) == key)
			return true;
	}
	return false;
}

/* Last byte of the range, false when the range is empty or wraps. */
static bool nfit_spa_last(const struct acpi_nfit_system_address *spa,
			  u64 *last)
{
	if (!spa->length || spa->length - 1 > ~0ULL - spa->address)
		return false;
	*last = spa->address + (spa->length - 1);
	return true;
}

static bool nfit_spa_is_memory(const struct acpi_nfit_system_address *spa)
{
	enum nfit_spa_kind kind = nfit_spa_kind(spa);

	return kind == NFIT_SPA_PM || kind == NFIT_SPA_VOLATILE;
}

/*
 * First usable earlier PM or volatile range overlapping entry @i,
 * which must itself be such a range with a valid extent.
 */
static const struct acpi_nfit_system_address *
nfit_spa_overlap(const struct nfit_table *t, unsigned int i)
{
	const struct acpi_nfit_system_address *spa = (const void *)t->subs[i].hdr;
	u64 last, prev_last;
	unsigned int j;

	if (!nfit_spa_last(spa, &last))
		return NULL;

	for (j = 0; j < i; j++) {
		const struct acpi_nfit_system_address *prev;

		if (!t->subs[j].usable ||
		    t->subs[j].hdr->type != ACPI_NFIT_TYPE_SYSTEM_ADDRESS)
			continue;
		prev = (const void *)t->subs[j].hdr;
		if (!nfit_spa_is_memory(prev) ||
		    !nfit_spa_last(prev, &prev_last))
			continue;
		if (spa->address <= prev_last && prev->address <= last)
			return prev;
	}
	return NULL;
}

static void nfit_check_sizes(struct nfit_parse *p)
{
	struct nfit_table *t = p->t;
	unsigned int i;

	for (i = 0; i < t->nr_subs; i++) {
		struct nfit_sub *s = &t->subs[i];

		if (nfit_sized(s->hdr))
			continue;
		s->usable = false;
		p->log(p->ctx, true,
		       "NFIT: %s at offset %#x: length %u, needs %llu, ignored\n",
		       nfit_type_name[s->hdr->type], nfit_offset(t, s->hdr),
		       s->hdr->length, nfit_needed_len(s->hdr));
	}
}

static void nfit_check_spa(struct nfit_parse *p, unsigned int i)
{
	struct nfit_table *t = p->t;
	struct nfit_sub *s = &t->subs[i];
	const struct acpi_nfit_system_address *spa = (const void *)s->hdr;
	const struct acpi_nfit_system_address *other;
	u32 off = nfit_offset(t, s->hdr);
	u64 last;

	if (!spa->range_index) {
		p->log(p->ctx, true,
		       "NFIT: SPA range at offset %#x: index 0 is reserved, ignored\n",
		       off);
	} else if (nfit_dup_before(t, i)) {
		p->log(p->ctx, true,
		       "NFIT: SPA range %u at offset %#x: duplicate index, ignored\n",
		       spa->range_index, off);
	} else if (!spa->length) {
		p->log(p->ctx, true,
		       "NFIT: SPA range %u: zero length, ignored\n",
		       spa->range_index);
	} else if (!nfit_spa_last(spa, &last)) {
		p->log(p->ctx, true,
		       "NFIT: SPA range %u: address %#llx + length %#llx overflows, ignored\n",
		       spa->range_index, spa->address, spa->length);
	} else {
		other = nfit_spa_is_memory(spa) ? nfit_spa_overlap(t, i) : NULL;
		if (!other)
			return;
		p->log(p->ctx, true,
		       "NFIT: SPA range %u [%#llx-%#llx] overlaps SPA range %u, ignored\n",
		       spa->range_index, spa->address, last,
		       other->range_index);
	}
	s->usable = false;
}

static void nfit_check_dcr(struct nfit_parse *p, unsigned int i)
{
	struct nfit_table *t = p->t;
	struct nfit_sub *s = &t->subs[i];
	const struct acpi_nfit_control_region *dcr = (const void *)s->hdr;
	u32 off = nfit_offset(t, s->hdr);

	if (!dcr->region_index) {
		p->log(p->ctx, true,
		       "NFIT: control region at offset %#x: index 0 is reserved, ignored\n",
		       off);
	} else if (nfit_dup_before(t, i)) {
		p->log(p->ctx, true,
		       "NFIT: control region %u at offset %#x: duplicate index, ignored\n",
		       dcr->region_index, off);
	} else {
		if (dcr->windows && !nfit_dcr_windows(dcr))
			p->log(p->ctx, true,
			       "NFIT: control region %u: %u block windows but no window fields (length %u), windows ignored\n",
			       dcr->region_index, dcr->windows,
			       dcr->header.length);
		return;
	}
	s->usable = false;
}

static void nfit_check_idt(struct nfit_parse *p, unsigned int i)
{
	struct nfit_table *t = p->t;
	struct nfit_sub *s = &t->subs[i];
	const struct acpi_nfit_interleave *idt = (const void *)s->hdr;
	u32 off = nfit_offset(t, s->hdr);

	if (!idt->interleave_index) {
		p->log(p->ctx, true,
		       "NFIT: interleave table at offset %#x: index 0 is reserved, ignored\n",
		       off);
	} else if (nfit_dup_before(t, i)) {
		p->log(p->ctx, true,
		       "NFIT: interleave table %u at offset %#x: duplicate index, ignored\n",
		       idt->interleave_index, off);
	} else if (!idt->line_count || !idt->line_size) {
		p->log(p->ctx, true,
		       "NFIT: interleave table %u: %u lines of %u bytes, ignored\n",
		       idt->interleave_index, idt->line_count,
		       idt->line_size);
	} else {
		return;
	}
	s->usable = false;
}

static void nfit_check_flush(struct nfit_parse *p, unsigned int i)
{
	struct nfit_table *t = p->t;
	struct nfit_sub *s = &t->subs[i];
	const struct acpi_nfit_flush_address *flush = (const void *)s->hdr;

	if (!nfit_dup_before(t, i))
		return;
	p->log(p->ctx, true,
	       "NFIT: flush hint at offset %#x: duplicate device handle %#x, ignored\n",
	       nfit_offset(t, s->hdr), flush->device_handle);
	s->usable = false;
}

static void nfit_check_bdw(struct nfit_parse *p, unsigned int i)
{
	struct nfit_table *t = p->t;
	struct nfit_sub *s = &t->subs[i];
	const struct acpi_nfit_data_region *bdw = (const void *)s->hdr;
	u32 off = nfit_offset(t, s->hdr);

	if (!nfit_dcr_by_index(t, bdw->region_index)) {
		p->log(p->ctx, true,
		       "NFIT: block data window at offset %#x: references missing control region %u, ignored\n",
		       off, bdw->region_index);
	} else if (nfit_dup_before(t, i)) {
		p->log(p->ctx, true,
		       "NFIT: block data window at offset %#x: second one for control region %u, ignored\n",
		       off, bdw->region_index);
	} else {
		return;
	}
	s->usable = false;
}

static void nfit_check_memdev(struct nfit_parse *p, unsigned int i)
{
	struct nfit_table *t = p->t;
	struct nfit_sub *s = &t->subs[i];
	const struct acpi_nfit_memory_map *m = (const void *)s->hdr;
	u32 off = nfit_offset(t, s->hdr);

	if (!m->interleave_ways) {
		p->log(p->ctx, true,
		       "NFIT: memory device map at offset %#x (handle %#x): zero interleave ways, ignored\n",
		       off, m->device_handle);
	} else if (nfit_dup_before(t, i)) {
		p->log(p->ctx, true,
		       "NFIT: memory device map at offset %#x: handle %#x already mapped to SPA range %u, ignored\n",
		       off, m->device_handle, m->range_index);
	} else if (m->range_index && !nfit_spa_by_index(t, m->range_index)) {
		p->log(p->ctx, true,
		       "NFIT: memory device map at offset %#x (handle %#x): references missing SPA range %u, ignored\n",
		       off, m->device_handle, m->range_index);
	} else if (!nfit_dcr_by_index(t, m->region_index)) {
		p->log(p->ctx, true,
		       "NFIT: memory device map at offset %#x (handle %#x): references missing control region %u, ignored\n",
		       off, m->device_handle, m->region_index);
	} else if (m->interleave_index &&
		   !nfit_idt_by_index(t, m->interleave_index)) {
		p->log(p->ctx, true,
		       "NFIT: memory device map at offset %#x (handle %#x): references missing interleave table %u, ignored\n",
		       off, m->device_handle, m->interleave_index);
	} else {
		return;
	}
	s->usable = false;
}

/*
 * Every persistent memory range backed by DIMMs needs all the members of
 * its interleave set: as many usable maps as each of them says ways.  An
 * incomplete set takes its range and its maps out of service.  A range
 * that no map references at all is left to the caller.
 */
static void nfit_check_iset(struct nfit_parse *p, unsigned int i)
{
	struct nfit_table *t = p->t;
	const struct acpi_nfit_system_address *spa = (const void *)t->subs[i].hdr;
	const struct acpi_nfit_memory_map *m;
	unsigned int count = 0, j;
	bool mixed = false;
	u16 ways = 0;

	if (nfit_spa_kind(spa) != NFIT_SPA_PM)
		return;

	nfit_for_each_usable(t, m, ACPI_NFIT_TYPE_MEMORY_MAP) {
		if (m->range_index != spa->range_index)
			continue;
		if (!count)
			ways = m->interleave_ways;
		else if (m->interleave_ways != ways)
			mixed = true;
		count++;
	}
	if (!count || (!mixed && count == ways))
		return;

	if (mixed)
		p->log(p->ctx, true,
		       "NFIT: SPA range %u: interleave set incomplete (%u maps disagree on interleave ways), range ignored\n",
		       spa->range_index, count);
	else
		p->log(p->ctx, true,
		       "NFIT: SPA range %u: interleave set incomplete (%u of %u ways mapped), range ignored\n",
		       spa->range_index, count, ways);

	t->subs[i].usable = false;
	for (j = 0; j < t->nr_subs; j++) {
		if (!t->subs[j].usable ||
		    t->subs[j].hdr->type != ACPI_NFIT_TYPE_MEMORY_MAP)
			continue;
		m = (const void *)t->subs[j].hdr;
		if (m->range_index == spa->range_index)
			t->subs[j].usable = false;
	}
}

/* Run @check on every still usable entry of @type, in table order. */
static void nfit_check_type(struct nfit_parse *p, u16 type,
			    void (*check)(struct nfit_parse *p, unsigned int i))
{
	unsigned int i;

	for (i = 0; i < p->t->nr_subs; i++)
		if (p->t->subs[i].usable && p->t->subs[i].hdr->type == type)
			check(p, i);
}

/* Checks the table header; returns the table length to walk, or 0. */
static u32 nfit_check_header(struct nfit_parse *p, const void *buf, u32 len)
{
	const struct acpi_table_nfit *nfit = buf;
	const u8 *bytes = buf;
	u32 tlen, i;
	u8 sum = 0;

	if (!buf || len < sizeof(*nfit)) {
		p->log(p->ctx, true,
		       "NFIT: %u bytes cannot hold the table header, table refused\n",
		       len);
		return 0;
	}
	if (memcmp(nfit->header.signature, ACPI_SIG_NFIT,
		   sizeof(nfit->header.signature))) {
		p->log(p->ctx, true, "NFIT: bad signature, table refused\n");
		return 0;
	}
	tlen = nfit->header.length;
	if (tlen < sizeof(*nfit)) {
		p->log(p->ctx, true,
		       "NFIT: header length %u is shorter than the header, table refused\n",
		       tlen);
		return 0;
	}
	if (tlen > len) {
		p->log(p->ctx, true,
		       "NFIT: header length %u but only %u bytes present, table refused\n",
		       tlen, len);
		return 0;
	}

	for (i = 0; i < tlen; i++)
		sum += bytes[i];
	if (sum)
		p->log(p->ctx, true,
		       "NFIT: checksum mismatch (sum %#x), using the table anyway\n",
		       sum);
	return tlen;
}

/* Lists the subtables; fails when their lengths do not tile the table. */
static int nfit_walk(struct nfit_parse *p, struct nfit_sub *subs,
		     unsigned int max_subs)
{
	struct nfit_table *t = p->t;
	const u8 *base = (const u8 *)t->nfit;
	u32 off = sizeof(*t->nfit);

	while (off < t->length) {
		const struct acpi_nfit_header *hdr = (const void *)(base + off);

		if (t->length - off < sizeof(*hdr)) {
			p->log(p->ctx, true,
			       "NFIT: %u stray bytes at offset %#x, table refused\n",
			       t->length - off, off);
			return -EINVAL;
		}
		if (hdr->length < sizeof(*hdr)) {
			p->log(p->ctx, true,
			       "NFIT: subtable at offset %#x has length %u, table refused\n",
			       off, hdr->length);
			return -EINVAL;
		}
		if (hdr->length > t->length - off) {
			p->log(p->ctx, true,
			       "NFIT: subtable at offset %#x (length %u) runs past the table end, table refused\n",
			       off, hdr->length);
			return -EINVAL;
		}

		if (hdr->type < ACPI_NFIT_TYPE_RESERVED &&
		    t->nr_subs >= max_subs) {
			p->log(p->ctx, true,
			       "NFIT: more than %u subtables\n", max_subs);
			return -ENOSPC;
		}

		if (hdr->type >= ACPI_NFIT_TYPE_RESERVED) {
			p->log(p->ctx, false,
			       "NFIT: skipping subtable of unknown type %u at offset %#x\n",
			       hdr->type, off);
			t->nr_unknown++;
		} else {
			subs[t->nr_subs].hdr = hdr;
			subs[t->nr_subs].usable = true;
			t->nr_subs++;
		}
		off += hdr->length;
	}
	return 0;
}

/**
 * nfit_table_max_subs() - size the subtable array for nfit_table_parse()
 * @len: bytes in the buffer that holds the table
 *
 * Return: the most subtables a table of @len bytes can contain.
 */
unsigned int nfit_table_max_subs(u32 len)
{
	if (len <= sizeof(struct acpi_table_nfit))
		return 0;
	return (len - sizeof(struct acpi_table_nfit)) /
		sizeof(struct acpi_nfit_header);
}

/**
 * nfit_table_parse() - validate and index an NFIT
 * @t: filled in; on failure it describes an empty table
 * @buf: the table, starting with its ACPI header
 * @len: bytes available at @buf; the header's length may not exceed it
 * @subs: array that receives one entry per subtable of known type
 * @max_subs: size of @subs, see nfit_table_max_subs()
 * @log: message sink, or NULL for silence
 * @ctx: passed to @log
 *
 * Refuses the table when its header is bad or its subtable lengths do
 * not tile it.  Otherwise every subtable of known type gets an entry in
 * @subs, marked unusable (and logged) when it is too short, inconsistent
 * with itself or with the entries it references, or part of an
 * incomplete interleave set.  A checksum mismatch is only logged, and
 * subtables of reserved types are skipped and counted.  Nothing outside
 * [@buf, @buf + @len) is read, then or later through the lookups.
 *
 * Return: 0 when the table is usable, -EINVAL when it is refused,
 * -ENOSPC when @max_subs is too small for it.
 */
int nfit_table_parse(struct nfit_table *t, const void *buf, u32 len,
		     struct nfit_sub *subs, unsigned int max_subs,
		     nfit_log_fn log, void *ctx)
{
	struct nfit_parse p = {
		.t = t,
		.log = log ? log : nfit_log_nop,
		.ctx = ctx,
	};
	u32 tlen;
	int rc;

	memset(t, 0, sizeof(*t));
	t->subs = subs;

	tlen = nfit_check_header(&p, buf, len);
	if (!tlen)
		return -EINVAL;
	t->nfit = buf;
	t->length = tlen;
	t->revision = t->nfit->header.revision;

	rc = nfit_walk(&p, subs, max_subs);
	if (rc) {
		t->nfit = NULL;
		t->length = 0;
		t->nr_subs = 0;
		return rc;
	}

	nfit_check_sizes(&p);
	nfit_check_type(&p, ACPI_NFIT_TYPE_SYSTEM_ADDRESS, nfit_check_spa);
	nfit_check_type(&p, ACPI_NFIT_TYPE_CONTROL_REGION, nfit_check_dcr);
	nfit_check_type(&p, ACPI_NFIT_TYPE_INTERLEAVE, nfit_check_idt);
	nfit_check_type(&p, ACPI_NFIT_TYPE_FLUSH_ADDRESS, nfit_check_flush);
	nfit_check_type(&p, ACPI_NFIT_TYPE_DATA_REGION, nfit_check_bdw);
	nfit_check_type(&p, ACPI_NFIT_TYPE_MEMORY_MAP, nfit_check_memdev);
	nfit_check_type(&p, ACPI_NFIT_TYPE_SYSTEM_ADDRESS, nfit_check_iset);
	return 0;
}

/**
 * nfit_spa_kind() - classify an SPA range by its range type GUID
 * @spa: a usable SPA range
 *
 * Return: the kind, NFIT_SPA_UNKNOWN for a GUID this code does not know.
 */
enum nfit_spa_kind nfit_spa_kind(const struct acpi_nfit_system_address *spa)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(nfit_spa_guids); i++)
		if (!memcmp(spa->range_guid, nfit_spa_guids[i].guid,
			    sizeof(spa->range_guid)))
			return nfit_spa_guids[i].kind;
	return NFIT_SPA_UNKNOWN;
}

/**
 * nfit_spa_location_cookie() - the ACPI 6.4 location cookie of a range
 * @spa: a usable SPA range
 * @cookie: receives the cookie
 *
 * Older firmware writes SPA ranges that end before the cookie field.
 *
 * Return: true when the entry holds the cookie and flags it valid.
 */
bool nfit_spa_location_cookie(const struct acpi_nfit_system_address *spa,
			      u64 *cookie)
{
#ifdef ACPI_NFIT_LOCATION_COOKIE_VALID
	if (spa->header.length >=
	    offsetofend(struct acpi_nfit_system_address, location_cookie) &&
	    (spa->flags & ACPI_NFIT_LOCATION_COOKIE_VALID)) {
		*cookie = spa->location_cookie;
		return true;
	}
#endif
	return false;
}

static bool nfit_dcr_has_bw_fields(const struct acpi_nfit_control_region *dcr)
{
	return dcr->header.length >= sizeof(*dcr);
}

/**
 * nfit_dcr_windows() - number of block control windows of a control region
 * @dcr: a usable control region
 *
 * A short (32 byte) control region has no block window fields: it has no
 * windows whatever its windows field says.  The fields from window_size
 * on may be read only when this returns non-zero.
 *
 * Return: the number of block control windows.
 */
u16 nfit_dcr_windows(const struct acpi_nfit_control_region *dcr)
{
	return nfit_dcr_has_bw_fields(dcr) ? dcr->windows : 0;
}

/**
 * nfit_dcr_flags() - flags of a control region (ACPI_NFIT_CONTROL_*)
 * @dcr: a usable control region
 *
 * Return: the flags, 0 for a short control region.
 */
u16 nfit_dcr_flags(const struct acpi_nfit_control_region *dcr)
{
	return nfit_dcr_has_bw_fields(dcr) ? dcr->flags : 0;
}

/**
 * nfit_next() - next usable subtable of a type
 * @t: parsed table
 * @type: an ACPI_NFIT_TYPE_* value
 * @pos: index in @t->subs to search from (start at 0); advanced past
 *	the entry returned
 *
 * Return: the subtable (cast to the ACPICA struct of @type), or NULL
 * when there are no more.
 */
const void *nfit_next(const struct nfit_table *t, u16 type, unsigned int *pos)
{
	unsigned int i;

	for (i = *pos; i < t->nr_subs; i++) {
		if (t->subs[i].usable && t->subs[i].hdr->type == type) {
			*pos = i + 1;
			return t->subs[i].hdr;
		}
	}
	*pos = t->nr_subs;
	return NULL;
}

/**
 * nfit_spa_by_index() - find a usable SPA range
 * @t: parsed table
 * @range_index: SPA range structure index
 *
 * Return: the range, or NULL.
 */
const struct acpi_nfit_system_address *
nfit_spa_by_index(const struct nfit_table *t, u16 range_index)
{
	const struct acpi_nfit_system_address *spa;

	nfit_for_each_usable(t, spa, ACPI_NFIT_TYPE_SYSTEM_ADDRESS)
		if (spa->range_index == range_index)
			return spa;
	return NULL;
}

/**
 * nfit_dcr_by_index() - find a usable control region
 * @t: parsed table
 * @dcr_index: control region structure index
 *
 * Return: the control region, or NULL.
 */
const struct acpi_nfit_control_region *
nfit_dcr_by_index(const struct nfit_table *t, u16 dcr_index)
{
	const struct acpi_nfit_control_region *dcr;

	nfit_for_each_usable(t, dcr, ACPI_NFIT_TYPE_CONTROL_REGION)
		if (dcr->region_index == dcr_index)
			return dcr;
	return NULL;
}

/**
 * nfit_bdw_by_dcr() - find the usable block data window of a control region
 * @t: parsed table
 * @dcr_index: control region structure index
 *
 * Return: the block data window region, or NULL.
 */
const struct acpi_nfit_data_region *
nfit_bdw_by_dcr(const struct nfit_table *t, u16 dcr_index)
{
	const struct acpi_nfit_data_region *bdw;

	nfit_for_each_usable(t, bdw, ACPI_NFIT_TYPE_DATA_REGION)
		if (bdw->region_index == dcr_index)
			return bdw;
	return NULL;
}

/**
 * nfit_flush_by_handle() - find the usable flush hints of a DIMM
 * @t: parsed table
 * @device_handle: NFIT device handle of the DIMM
 *
 * All hint_count hint addresses of the result lie inside its entry.
 *
 * Return: the flush hint structure, or NULL.
 */
const struct acpi_nfit_flush_address *
nfit_flush_by_handle(const struct nfit_table *t, u32 device_handle)
{
	const struct acpi_nfit_flush_address *flush;

	nfit_for_each_usable(t, flush, ACPI_NFIT_TYPE_FLUSH_ADDRESS)
		if (flush->device_handle == device_handle)
			return flush;
	return NULL;
}

/**
 * nfit_idt_by_index() - find a usable interleave table
 * @t: parsed table
 * @interleave_index: interleave structure index
 *
 * All line_count line offsets of the result lie inside its entry, and
 * line_count and line_size are non-zero.
 *
 * Return: the interleave table, or NULL.
 */
const struct acpi_nfit_interleave *
nfit_idt_by_index(const struct nfit_table *t, u16 interleave_index)
{
	const struct acpi_nfit_interleave *idt;

	nfit_for_each_usable(t, idt, ACPI_NFIT_TYPE_INTERLEAVE)
		if (idt->interleave_index == interleave_index)
			return idt;
	return NULL;
}

/**
 * nfit_spa_nr_memdevs() - count the usable maps of DIMMs into a range
 * @t: parsed table
 * @range_index: SPA range structure index (0 matches nothing)
 *
 * Return: the number of usable memory device maps that reference
 * @range_index.
 */
unsigned int nfit_spa_nr_memdevs(const struct nfit_table *t, u16 range_index)
{
	const struct acpi_nfit_memory_map *m;
	unsigned int count = 0;

	if (!range_index)
		return 0;
	nfit_for_each_usable(t, m, ACPI_NFIT_TYPE_MEMORY_MAP)
		if (m->range_index == range_index)
			count++;
	return count;
}

/* Line offset @i of an interleave table (the array may sit unaligned). */
static u32 nfit_idt_line(const struct acpi_nfit_interleave *idt, u32 i)
{
	u32 v;

	memcpy(&v, (const u8 *)idt +
	       offsetof(struct acpi_nfit_interleave, line_offset) +
	       (size_t)i * sizeof(v), sizeof(v));
	return v;
}

/**
 * nfit_ileave_xlate() - SPA range offset of a device offset
 * @il: layout accepted by nfit_blk_geom()
 * @off: device offset inside the registers or apertures it checked
 *
 * Return: T(@off), see struct nfit_ileave.
 */
u64 nfit_ileave_xlate(const struct nfit_ileave *il, u64 off)
{
	u64 line;

	if (!il->line_size)
		return il->base + off;
	line = off / il->line_size;
	return il->base +
		(u64)nfit_idt_line(il->idt, line % il->num_lines) * il->line_size +
		line / il->num_lines * il->table_size + off % il->line_size;
}

/**
 * nfit_ileave_run() - bytes from a device offset that are contiguous in the range
 * @il: a layout
 * @off: device offset
 *
 * Return: the bytes up to the end of @off's interleave line, U64_MAX
 * when the layout has no interleave table.
 */
u64 nfit_ileave_run(const struct nfit_ileave *il, u64 off)
{
	if (!il->line_size)
		return U64_MAX;
	return il->line_size - off % il->line_size;
}

/* nfit_ileave_xlate() with every step overflow-checked */
static bool nfit_ileave_checked(const struct nfit_ileave *il, u64 off,
				u64 *out)
{
	u64 line, pass, v;

	if (!il->line_size)
		return !check_add_overflow(il->base, off, out);
	line = off / il->line_size;
	v = (u64)nfit_idt_line(il->idt, line % il->num_lines) * il->line_size;
	if (check_mul_overflow(line / il->num_lines, il->table_size, &pass) ||
	    check_add_overflow(v, pass, &v) ||
	    check_add_overflow(v, il->base, &v) ||
	    check_add_overflow(v, off % il->line_size, out))
		return false;
	return true;
}

/*
 * The highest range offset T(o) for o in [lo, hi].  With a table: for
 * each line index, the last line at or below hi's with that index (a
 * later pass is table_size >= line_size further, more than any offset
 * inside a line), if it is not below lo's line.
 */
static bool nfit_ileave_max(const struct nfit_ileave *il, u64 lo, u64 hi,
			    u64 *max)
{
	u64 l0, l1, best = 0;
	u32 i;

	if (!il->line_size)
		return nfit_ileave_checked(il, hi, max);
	l0 = lo / il->line_size;
	l1 = hi / il->line_size;
	for (i = 0; i < il->num_lines; i++) {
		u64 back = (l1 % il->num_lines + il->num_lines - i) %
			il->num_lines;
		u64 line, off, v;

		if (back > l1 || l1 - back < l0)
			continue;
		line = l1 - back;
		off = line == l1 ? hi : line * il->line_size + il->line_size - 1;
		if (!nfit_ileave_checked(il, off, &v))
			return false;
		if (v > best)
			best = v;
	}
	*max = best;
	return true;
}

/* The layout of the device offsets of map @m in its range. */
static int nfit_ileave_init(const struct nfit_table *t,
			    const struct acpi_nfit_memory_map *m,
			    struct nfit_ileave *il, const char *what,
			    nfit_log_fn log, void *ctx)
{
	const struct acpi_nfit_interleave *idt;
	u16 ways = m->interleave_ways;
	u64 lines;

	memset(il, 0, sizeof(*il));
	il->base = m->region_offset;
	if (!m->interleave_index)
		return 0;
	idt = nfit_idt_by_index(t, m->interleave_index);
	if (!idt || !idt->line_count || !idt->line_size) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: %s range %u: interleave table %u unusable\n",
		    m->device_handle, what, m->range_index, m->interleave_index);
		return -EINVAL;
	}
	if (!ways) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: %s range %u: interleave table %u with 0 ways\n",
		    m->device_handle, what, m->range_index, m->interleave_index);
		return -EINVAL;
	}
	if (check_mul_overflow((u64)idt->line_count, (u64)ways, &lines) ||
	    check_mul_overflow(lines, (u64)idt->line_size, &il->table_size)) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: %s range %u: interleave table %u x %u ways overflows\n",
		    m->device_handle, what, m->range_index, m->interleave_index,
		    ways);
		return -EINVAL;
	}
	il->idt = idt;
	il->line_size = idt->line_size;
	il->num_lines = idt->line_count;
	return 0;
}

/* The map of DIMM @handle into a control-register range of @dcr_index. */
static const struct acpi_nfit_memory_map *
nfit_memdev_dcr(const struct nfit_table *t, u32 handle, u16 dcr_index)
{
	const struct acpi_nfit_memory_map *m;

	nfit_for_each_usable(t, m, ACPI_NFIT_TYPE_MEMORY_MAP) {
		const struct acpi_nfit_system_address *spa;

		if (m->device_handle != handle || m->region_index != dcr_index ||
		    !m->range_index)
			continue;
		spa = nfit_spa_by_index(t, m->range_index);
		if (spa && nfit_spa_kind(spa) == NFIT_SPA_DCR)
			return m;
	}
	return NULL;
}

/* One register of window @k: inside the range, not across a line. */
static int nfit_blk_check_reg(const struct nfit_blk_geom *g, u64 reg, u16 k,
			      u64 width, const char *name, nfit_log_fn log,
			      void *ctx)
{
	const struct nfit_ileave *il = &g->ctl;
	u64 off, at, end;

	if (check_mul_overflow((u64)k, g->ctl_stride, &off) ||
	    check_add_overflow(off, reg, &off)) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: %s register of window %u: offset overflows\n",
		    g->handle, name, k);
		return -EINVAL;
	}
	if (il->line_size && off % il->line_size + width > il->line_size) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: %s register of window %u (offset %#llx) crosses an interleave line of %u bytes\n",
		    g->handle, name, k, off, il->line_size);
		return -EINVAL;
	}
	if (!nfit_ileave_checked(il, off, &at) ||
	    check_add_overflow(at, width, &end) || end > g->spa_dcr->length) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: %s register of window %u (offset %#llx, %llu bytes) outside control range %u (%#llx bytes)\n",
		    g->handle, name, k, off, width, g->spa_dcr->range_index,
		    g->spa_dcr->length);
		return -EINVAL;
	}
	return 0;
}

static int nfit_blk_check_regs(const struct nfit_blk_geom *g,
			       nfit_log_fn log, void *ctx)
{
	u64 c = g->cmd_offset, s = g->status_offset, lo, hi;
	u16 k;
	int rc;

	/* [c, c + 8) and [s, s + 4): fields are u64, the sums cannot wrap */
	if (c >= U64_MAX - 8 || s >= U64_MAX - 4) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: register offsets %#llx/%#llx overflow\n",
		    g->handle, c, s);
		return -EINVAL;
	}
	if (c < s + NFIT_BLK_STATUS_BYTES && s < c + NFIT_BLK_CMD_BYTES) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: command register (offset %#llx) and status register (offset %#llx) overlap\n",
		    g->handle, c, s);
		return -EINVAL;
	}
	lo = min(c, s);
	hi = max(c + NFIT_BLK_CMD_BYTES, s + NFIT_BLK_STATUS_BYTES);
	if (g->windows > 1 && g->ctl_stride < hi - lo) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: control window size %#llx smaller than its registers (%llu bytes)\n",
		    g->handle, g->ctl_stride, hi - lo);
		return -EINVAL;
	}
	for (k = 0; k < g->windows; k++) {
		rc = nfit_blk_check_reg(g, c, k, NFIT_BLK_CMD_BYTES, "command",
					log, ctx);
		if (!rc)
			rc = nfit_blk_check_reg(g, s, k, NFIT_BLK_STATUS_BYTES,
						"status", log, ctx);
		if (rc)
			return rc;
	}
	return 0;
}

static int nfit_blk_check_apertures(const struct nfit_blk_geom *g,
				    nfit_log_fn log, void *ctx)
{
	u64 span, last, max;

	if (check_mul_overflow((u64)g->windows, g->win_size, &span) ||
	    check_add_overflow(g->win_offset, span - 1, &last) ||
	    !nfit_ileave_max(&g->data, g->win_offset, last, &max) ||
	    max >= g->spa_bdw->length) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: %u windows of %#llx bytes at offset %#llx do not fit block-data-window range %u (%#llx bytes)\n",
		    g->handle, g->windows, g->win_size, g->win_offset,
		    g->spa_bdw->range_index, g->spa_bdw->length);
		return -EINVAL;
	}
	return 0;
}

/**
 * nfit_blk_geom() - describe and check the block windows of one DIMM
 * @t: parsed table
 * @memdev_bdw: a usable map of the DIMM into a block-data-window range
 * @g: filled in
 * @log: message sink (one line per refusal or warning), or NULL
 * @ctx: passed to @log
 *
 * Finds the DIMM's control region, its block-data-window description and
 * its map into a control-register range, and checks, with every sum
 * overflow-checked: both window counts non-zero (when they differ, the
 * lower is used, with a warning: ACPI 6.0 5.2.25.6 says they match);
 * windows of at least 64 bytes that fit in the block-data-window range;
 * command (8 bytes) and status (4 bytes) registers that do not overlap,
 * fit in the control window size and, for every window, in the control
 * range without crossing an interleave line; interleave tables with
 * non-zero ways; a DPA range the 48-bit line number of the command word
 * can address.
 *
 * Return: 0 when the DIMM's windows are usable; -ENODEV when the DIMM has
 * no block windows (no description, or a capacity of 0: debug note only);
 * -EINVAL when the table describes them wrongly (logged as an error).
 */
int nfit_blk_geom(const struct nfit_table *t,
		  const struct acpi_nfit_memory_map *memdev_bdw,
		  struct nfit_blk_geom *g, nfit_log_fn log, void *ctx)
{
	u32 handle = memdev_bdw->device_handle;
	u16 dcr_windows;
	u64 end;
	int rc;

	if (!log)
		log = nfit_log_nop;
	memset(g, 0, sizeof(*g));
	g->handle = handle;
	g->memdev_bdw = memdev_bdw;
	g->spa_bdw = nfit_spa_by_index(t, memdev_bdw->range_index);
	g->dcr = nfit_dcr_by_index(t, memdev_bdw->region_index);
	g->bdw = nfit_bdw_by_dcr(t, memdev_bdw->region_index);
	if (!g->spa_bdw || nfit_spa_kind(g->spa_bdw) != NFIT_SPA_BDW ||
	    !g->dcr || !g->bdw || !g->bdw->capacity) {
		log(ctx, false,
		    "NFIT: DIMM %#x: SPA range %u: no block window description\n",
		    handle, memdev_bdw->range_index);
		return -ENODEV;
	}
	g->memdev_dcr = nfit_memdev_dcr(t, handle, memdev_bdw->region_index);
	g->spa_dcr = g->memdev_dcr ?
		nfit_spa_by_index(t, g->memdev_dcr->range_index) : NULL;
	if (!g->spa_dcr) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: no control-register range for control region %u\n",
		    handle, memdev_bdw->region_index);
		return -EINVAL;
	}

	dcr_windows = nfit_dcr_windows(g->dcr);
	if (!dcr_windows || !g->bdw->windows) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: %u control windows, %u block-data windows\n",
		    handle, dcr_windows, g->bdw->windows);
		return -EINVAL;
	}
	g->windows = min(dcr_windows, g->bdw->windows);
	if (dcr_windows != g->bdw->windows)
		log(ctx, true,
		    "NFIT: DIMM %#x: %u control windows but %u block-data windows, using %u\n",
		    handle, dcr_windows, g->bdw->windows, g->windows);

	g->cmd_offset = g->dcr->command_offset;
	g->status_offset = g->dcr->status_offset;
	g->ctl_stride = g->dcr->window_size;
	g->win_offset = g->bdw->offset;
	g->win_size = g->bdw->size;
	g->dpa_start = g->bdw->start_address;
	g->dpa_size = g->bdw->capacity;

	if (g->win_size < NFIT_BLK_LINE) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: block-data window size %#llx (at least %u bytes needed)\n",
		    handle, g->win_size, NFIT_BLK_LINE);
		return -EINVAL;
	}
	if (check_add_overflow(g->dpa_start, g->dpa_size, &end) ||
	    end > NFIT_BLK_DPA_LIMIT) {
		log(ctx, true,
		    "NFIT: DIMM %#x: no BLK region: DPA %#llx + %#llx beyond what a block-window command addresses\n",
		    handle, g->dpa_start, g->dpa_size);
		return -EINVAL;
	}

	rc = nfit_ileave_init(t, g->memdev_dcr, &g->ctl, "control", log, ctx);
	if (!rc)
		rc = nfit_ileave_init(t, memdev_bdw, &g->data,
				      "block-data-window", log, ctx);
	if (!rc)
		rc = nfit_blk_check_regs(g, log, ctx);
	if (!rc)
		rc = nfit_blk_check_apertures(g, log, ctx);
	return rc;
}
