// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parse-result invariants: see nfit_invariants.h.  The expectations are
 * written out here independently of table.c's internals.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nfit_invariants.h"

#define FAIL(msg) do { return (msg); } while (0)

static u64 min_len(const struct acpi_nfit_header *h)
{
	const u8 *p = (const u8 *)h;
	u32 lines;
	u16 hints;

	switch (h->type) {
	case ACPI_NFIT_TYPE_SYSTEM_ADDRESS:
		return 56;
	case ACPI_NFIT_TYPE_MEMORY_MAP:
		return 48;
	case ACPI_NFIT_TYPE_INTERLEAVE:
		if (h->length < 16)
			return 16;
		memcpy(&lines, p + 8, 4);
		return 16 + 4ULL * lines;
	case ACPI_NFIT_TYPE_SMBIOS:
		return 8;
	case ACPI_NFIT_TYPE_CONTROL_REGION:
		return 32;
	case ACPI_NFIT_TYPE_DATA_REGION:
		return 40;
	case ACPI_NFIT_TYPE_FLUSH_ADDRESS:
		if (h->length < 16)
			return 16;
		memcpy(&hints, p + 8, 2);
		return 16 + 8ULL * hints;
	case ACPI_NFIT_TYPE_CAPABILITIES:
		return 16;
	}
	return ~0ULL;
}

static int spa_last(const struct acpi_nfit_system_address *spa, u64 *last)
{
	if (!spa->length || spa->address + (spa->length - 1) < spa->address)
		return 0;
	*last = spa->address + (spa->length - 1);
	return 1;
}

static int is_mem(const struct acpi_nfit_system_address *spa)
{
	enum nfit_spa_kind k = nfit_spa_kind(spa);

	return k == NFIT_SPA_PM || k == NFIT_SPA_VOLATILE;
}

static const char *check_refused(const struct nfit_table *t)
{
	unsigned int pos = 0;

	if (t->nr_subs || t->nfit || t->length)
		FAIL("refused table left entries behind");
	if (nfit_spa_by_index(t, 1) || nfit_dcr_by_index(t, 1) ||
	    nfit_bdw_by_dcr(t, 1) || nfit_flush_by_handle(t, 1) ||
	    nfit_idt_by_index(t, 1) || nfit_spa_nr_memdevs(t, 1) ||
	    nfit_next(t, ACPI_NFIT_TYPE_SYSTEM_ADDRESS, &pos))
		FAIL("lookup succeeded on a refused table");
	return NULL;
}

static const char *check_layout(const struct nfit_table *t, const u8 *buf,
				u32 len, unsigned int max_subs)
{
	const u8 *end = buf + t->length;
	const u8 *prev_end = buf + sizeof(struct acpi_table_nfit);
	unsigned int i;

	if ((const void *)t->nfit != buf || t->length > len ||
	    t->length < sizeof(struct acpi_table_nfit))
		FAIL("bad table extent");
	if (t->nr_subs > max_subs ||
	    t->nr_subs > nfit_table_max_subs(len))
		FAIL("more subs than the bound");
	for (i = 0; i < t->nr_subs; i++) {
		const struct nfit_sub *s = &t->subs[i];
		const u8 *p = (const u8 *)s->hdr;

		if (p < prev_end || p + 4 > end || s->hdr->length < 4 ||
		    s->hdr->length > end - p)
			FAIL("sub outside the table or out of order");
		if (s->hdr->type >= ACPI_NFIT_TYPE_RESERVED)
			FAIL("reserved type listed");
		if (s->usable && s->hdr->length < min_len(s->hdr))
			FAIL("too short entry usable");
		prev_end = p + s->hdr->length;
	}
	return NULL;
}

static const char *check_spas(const struct nfit_table *t)
{
	const struct acpi_nfit_system_address *spa, *o;
	u64 last, olast, cookie;

	nfit_for_each_usable(t, spa, ACPI_NFIT_TYPE_SYSTEM_ADDRESS) {
		if (!spa->range_index || !spa_last(spa, &last))
			FAIL("usable SPA with index 0, empty or wrapping");
		if (nfit_spa_by_index(t, spa->range_index) != spa)
			FAIL("SPA index not unique");
		if (nfit_spa_location_cookie(spa, &cookie) &&
		    spa->header.length < 64)
			FAIL("location cookie beyond entry");
		if (!is_mem(spa))
			continue;
		nfit_for_each_usable(t, o, ACPI_NFIT_TYPE_SYSTEM_ADDRESS) {
			if (o == spa || !is_mem(o) || !spa_last(o, &olast))
				continue;
			if (spa->address <= olast && o->address <= last)
				FAIL("usable memory ranges overlap");
		}
	}
	return NULL;
}

static const char *check_others(const struct nfit_table *t)
{
	const struct acpi_nfit_control_region *dcr;
	const struct acpi_nfit_data_region *bdw;
	const struct acpi_nfit_interleave *idt;
	const struct acpi_nfit_flush_address *fl;

	nfit_for_each_usable(t, dcr, ACPI_NFIT_TYPE_CONTROL_REGION) {
		if (!dcr->region_index ||
		    nfit_dcr_by_index(t, dcr->region_index) != dcr)
			FAIL("DCR index 0 or not unique");
		if (nfit_dcr_windows(dcr) && dcr->header.length < 80)
			FAIL("DCR windows from a short entry");
		(void)nfit_dcr_flags(dcr);
	}
	nfit_for_each_usable(t, bdw, ACPI_NFIT_TYPE_DATA_REGION) {
		if (!nfit_dcr_by_index(t, bdw->region_index))
			FAIL("BDW without DCR");
		if (nfit_bdw_by_dcr(t, bdw->region_index) != bdw)
			FAIL("two BDWs for one DCR");
	}
	nfit_for_each_usable(t, idt, ACPI_NFIT_TYPE_INTERLEAVE) {
		if (!idt->interleave_index || !idt->line_count ||
		    !idt->line_size ||
		    nfit_idt_by_index(t, idt->interleave_index) != idt)
			FAIL("bad usable interleave table");
	}
	nfit_for_each_usable(t, fl, ACPI_NFIT_TYPE_FLUSH_ADDRESS) {
		if (nfit_flush_by_handle(t, fl->device_handle) != fl)
			FAIL("flush handle not unique");
	}
	return NULL;
}

static const char *check_memdevs(const struct nfit_table *t)
{
	const struct acpi_nfit_system_address *spa;
	const struct acpi_nfit_memory_map *m, *o;
	unsigned int n;

	nfit_for_each_usable(t, m, ACPI_NFIT_TYPE_MEMORY_MAP) {
		if (!m->interleave_ways)
			FAIL("memdev with zero ways");
		if (m->range_index && !nfit_spa_by_index(t, m->range_index))
			FAIL("memdev with missing SPA");
		if (!nfit_dcr_by_index(t, m->region_index))
			FAIL("memdev with missing DCR");
		if (m->interleave_index &&
		    !nfit_idt_by_index(t, m->interleave_index))
			FAIL("memdev with missing interleave table");
		nfit_for_each_usable(t, o, ACPI_NFIT_TYPE_MEMORY_MAP)
			if (o != m && o->device_handle == m->device_handle &&
			    o->range_index == m->range_index)
				FAIL("duplicate memdev");
	}
	nfit_for_each_usable(t, spa, ACPI_NFIT_TYPE_SYSTEM_ADDRESS) {
		if (nfit_spa_kind(spa) != NFIT_SPA_PM)
			continue;
		n = nfit_spa_nr_memdevs(t, spa->range_index);
		nfit_for_each_usable(t, m, ACPI_NFIT_TYPE_MEMORY_MAP)
			if (m->range_index == spa->range_index &&
			    m->interleave_ways != n)
				FAIL("incomplete interleave set kept");
	}
	return NULL;
}

/*
 * Every map into a block-data-window range: nfit_blk_geom() reads only
 * the table, and what it accepts keeps the registers and windows it
 * promises inside their ranges (checked at the ends of the first and
 * last windows, and for the registers of up to 64 windows).
 */
static const char *check_blk(const struct nfit_table *t)
{
	const struct acpi_nfit_memory_map *m;
	struct nfit_blk_geom g;

	nfit_for_each_usable(t, m, ACPI_NFIT_TYPE_MEMORY_MAP) {
		const struct acpi_nfit_system_address *spa;
		u64 k, o, end;
		int rc;

		spa = m->range_index ? nfit_spa_by_index(t, m->range_index) :
			NULL;
		if (!spa || nfit_spa_kind(spa) != NFIT_SPA_BDW)
			continue;
		rc = nfit_blk_geom(t, m, &g, NULL, NULL);
		if (rc == -ENODEV || rc == -EINVAL)
			continue;
		if (rc)
			FAIL("nfit_blk_geom: unexpected return value");
		if (!g.windows || g.win_size < 64 ||
		    g.dpa_start + g.dpa_size < g.dpa_start ||
		    g.dpa_start + g.dpa_size > (1ULL << 54) ||
		    nfit_spa_kind(g.spa_dcr) != NFIT_SPA_DCR || g.spa_bdw != spa)
			FAIL("nfit_blk_geom: accepted a bad geometry");
		for (k = 0; k < g.windows && k < 64; k++) {
			o = nfit_ileave_xlate(&g.ctl, g.cmd_offset +
					      k * g.ctl_stride);
			end = o + 8;
			if (end < o || end > g.spa_dcr->length)
				FAIL("nfit_blk_geom: command register outside its range");
			o = nfit_ileave_xlate(&g.ctl, g.status_offset +
					      k * g.ctl_stride);
			end = o + 4;
			if (end < o || end > g.spa_dcr->length)
				FAIL("nfit_blk_geom: status register outside its range");
		}
		o = nfit_ileave_xlate(&g.data, g.win_offset);
		if (o >= spa->length)
			FAIL("nfit_blk_geom: first window byte outside its range");
		o = nfit_ileave_xlate(&g.data, g.win_offset +
				      g.windows * g.win_size - 1);
		if (o >= spa->length)
			FAIL("nfit_blk_geom: last window byte outside its range");
	}
	return NULL;
}

const char *nfit_check_invariants(const struct nfit_table *t, int rc,
				  const void *buf, u32 len,
				  unsigned int max_subs)
{
	const char *err;

	if (rc == -EINVAL || rc == -ENOSPC)
		return check_refused(t);
	if (rc)
		FAIL("unexpected return value");
	err = check_layout(t, buf, len, max_subs);
	if (!err)
		err = check_spas(t);
	if (!err)
		err = check_others(t);
	if (!err)
		err = check_memdevs(t);
	if (!err)
		err = check_blk(t);
	return err;
}
