/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DIMM physical address (DPA) range arithmetic for namespace allocation.
 *
 * Pure code on caller-owned arrays (no locking, no allocation), so the
 * allocation policy (docs/namespaces.md) builds into libnvdimm.ko and
 * into the host unit tests alike.
 */
#ifndef __ND_DPA_RANGE_H__
#define __ND_DPA_RANGE_H__

#include <linux/types.h>

/**
 * struct nd_dpa_range - [start, start + size)
 * @start: first DPA (or offset)
 * @size: bytes; 0 marks an unused entry
 */
struct nd_dpa_range {
	u64 start;
	u64 size;
};

u64 nd_dpa_end(const struct nd_dpa_range *r);
u32 nd_dpa_align_trim(struct nd_dpa_range *r, u32 n, u64 base, u64 align);
u32 nd_dpa_normalize(struct nd_dpa_range *r, u32 n);
u32 nd_dpa_free(const struct nd_dpa_range *busy, u32 nbusy, u64 lo, u64 hi,
		struct nd_dpa_range *out, u32 max);
u64 nd_dpa_total(const struct nd_dpa_range *r, u32 n);
u64 nd_dpa_largest(const struct nd_dpa_range *r, u32 n);
bool nd_dpa_overlap(const struct nd_dpa_range *a,
		    const struct nd_dpa_range *b);
int nd_dpa_blk_grow(const struct nd_dpa_range *free, u32 nfree,
		    const struct nd_dpa_range *aliased, u32 naliased, u64 want,
		    struct nd_dpa_range *ext, u32 next, u32 max);
u32 nd_dpa_shrink(struct nd_dpa_range *ext, u32 next, u64 drop);

#endif /* __ND_DPA_RANGE_H__ */
