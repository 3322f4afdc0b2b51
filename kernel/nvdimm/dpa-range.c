// SPDX-License-Identifier: GPL-2.0
/*
 * DPA range arithmetic: free space between busy ranges, and the BLK
 * extent policy (not-aliased space first, lowest DPA first).  See
 * dpa-range.h; the policy itself is described in docs/namespaces.md.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/sort.h>
#include "dpa-range.h"

/**
 * nd_dpa_end - the exclusive end of a range, saturated at U64_MAX
 * @r: the range
 *
 * Ranges come from labels on media and from users: a start and size
 * whose sum wraps must not turn into a small end.
 */
u64 nd_dpa_end(const struct nd_dpa_range *r)
{
	u64 end;

	if (check_add_overflow(r->start, r->size, &end))
		return U64_MAX;
	return end;
}

static int nd_dpa_cmp(const void *a, const void *b)
{
	const struct nd_dpa_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/**
 * nd_dpa_normalize - sort ranges and merge overlapping or touching ones
 * @r: ranges; entries of size 0 are dropped
 * @n: entries in @r
 *
 * Returns the number of ranges left at the front of @r.
 */
u32 nd_dpa_normalize(struct nd_dpa_range *r, u32 n)
{
	u32 i, k = 0;

	for (i = 0; i < n; i++)
		if (r[i].size)
			r[k++] = r[i];
	n = k;
	if (!n)
		return 0;
	sort(r, n, sizeof(*r), nd_dpa_cmp, NULL);
	k = 0;
	for (i = 1; i < n; i++) {
		u64 end = nd_dpa_end(&r[k]);

		if (r[i].start <= end) {
			if (nd_dpa_end(&r[i]) > end)
				r[k].size = nd_dpa_end(&r[i]) - r[k].start;
		} else {
			r[++k] = r[i];
		}
	}
	return k + 1;
}

/**
 * nd_dpa_free - the parts of [lo, hi) no busy range covers
 * @busy: normalized busy ranges (nd_dpa_normalize())
 * @nbusy: entries in @busy
 * @lo: first address of the window
 * @hi: end of the window (exclusive)
 * @out: free ranges, ascending
 * @max: room in @out (nbusy + 1 always suffices)
 *
 * Returns the number of free ranges written.
 */
u32 nd_dpa_free(const struct nd_dpa_range *busy, u32 nbusy, u64 lo, u64 hi,
		struct nd_dpa_range *out, u32 max)
{
	u64 at = lo;
	u32 i, n = 0;

	for (i = 0; i < nbusy && at < hi; i++) {
		u64 bs = busy[i].start, be = nd_dpa_end(&busy[i]);

		if (be <= at)
			continue;
		if (bs >= hi)
			break;
		if (bs > at && n < max)
			out[n++] = (struct nd_dpa_range){ at, bs - at };
		at = max(at, be);
	}
	if (at < hi && n < max)
		out[n++] = (struct nd_dpa_range){ at, hi - at };
	return n;
}

/**
 * nd_dpa_align_trim - shrink free ranges to whole alignment units
 * @r: free ranges
 * @n: entries in @r
 * @base: address the units count from (a mapping's first DPA)
 * @align: unit in bytes (0 or 1: no trimming)
 *
 * Each range's start is rounded up and its end down to @base plus a
 * multiple of @align, as 6.1 trims free DPA to the region's alignment;
 * ranges left empty are dropped.  Returns the number of ranges left at
 * the front of @r.
 */
u32 nd_dpa_align_trim(struct nd_dpa_range *r, u32 n, u64 base, u64 align)
{
	u32 i, k = 0;

	if (align <= 1)
		return n;
	for (i = 0; i < n; i++) {
		u64 s, e;

		if (r[i].start < base)
			continue;	/* callers pass ranges above @base */
		s = r[i].start - base;
		e = nd_dpa_end(&r[i]) - base;
		if (s % align &&
		    check_add_overflow(s, align - s % align, &s))
			continue;
		e -= e % align;
		if (e > s)
			r[k++] = (struct nd_dpa_range){ base + s, e - s };
	}
	return k;
}

/**
 * nd_dpa_total - bytes covered by ranges
 * @r: ranges
 * @n: entries
 */
u64 nd_dpa_total(const struct nd_dpa_range *r, u32 n)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < n; i++)
		sum += r[i].size;
	return sum;
}

/**
 * nd_dpa_largest - size of the largest range
 * @r: ranges
 * @n: entries
 */
u64 nd_dpa_largest(const struct nd_dpa_range *r, u32 n)
{
	u64 big = 0;
	u32 i;

	for (i = 0; i < n; i++)
		big = max(big, r[i].size);
	return big;
}

/**
 * nd_dpa_overlap - whether two ranges share a byte
 * @a: a range
 * @b: another
 */
bool nd_dpa_overlap(const struct nd_dpa_range *a, const struct nd_dpa_range *b)
{
	return a->size && b->size && a->start < nd_dpa_end(b) &&
	       b->start < nd_dpa_end(a);
}

/* Take up to *want bytes of [s, e) from the bottom into the extent list. */
static int nd_dpa_take(u64 s, u64 e, u64 *want, struct nd_dpa_range *ext,
		       u32 *next, u32 max)
{
	u64 n = min(e - s, *want);

	if (!n)
		return 0;
	if (*next == max)
		return -ENOSPC;
	ext[(*next)++] = (struct nd_dpa_range){ s, n };
	*want -= n;
	return 0;
}

/**
 * nd_dpa_blk_grow - add DPA to a BLK namespace's extents
 * @free: normalized free ranges of the DIMM (the namespace's own excluded)
 * @nfree: entries in @free
 * @aliased: normalized ranges PMEM regions map on this DIMM
 * @naliased: entries in @aliased
 * @want: bytes to add
 * @ext: the namespace's extents; new ones are appended, then the list is
 *	normalized (adjacent extents merge)
 * @next: extents in @ext
 * @max: room in @ext
 *
 * Free space that no PMEM region maps is used first, then aliased space;
 * within each, lowest DPA first.  Returns the new number of extents, or
 * -ENOSPC when the free space (or @max) does not suffice; @ext is only
 * changed on success.
 */
int nd_dpa_blk_grow(const struct nd_dpa_range *free, u32 nfree,
		    const struct nd_dpa_range *aliased, u32 naliased, u64 want,
		    struct nd_dpa_range *ext, u32 next, u32 max)
{
	u32 pass, i, j, n = next;
	int rc;

	for (pass = 0; pass < 2 && want; pass++) {
		for (i = 0; i < nfree && want; i++) {
			u64 s = free[i].start, e = nd_dpa_end(&free[i]);

			/* walk the free range across the aliased ranges */
			for (j = 0; j <= naliased && s < e && want; j++) {
				u64 as = j < naliased ? aliased[j].start : e;
				u64 ae = j < naliased ? nd_dpa_end(&aliased[j]) : e;

				if (ae <= s)
					continue;
				/* [s, min(as, e)) is not aliased */
				if (as > s) {
					u64 stop = min(as, e);

					rc = pass == 0 ?
						nd_dpa_take(s, stop, &want, ext,
							    &n, max) : 0;
					if (rc)
						return rc;
					s = stop;
				}
				if (s >= e || j == naliased)
					break;
				/* [s, min(ae, e)) is aliased */
				rc = pass == 1 ?
					nd_dpa_take(s, min(ae, e), &want, ext,
						    &n, max) : 0;
				if (rc)
					return rc;
				s = min(ae, e);
			}
		}
	}
	if (want)
		return -ENOSPC;
	return nd_dpa_normalize(ext, n);
}

/**
 * nd_dpa_shrink - give back bytes from the highest-DPA extents
 * @ext: normalized extents
 * @next: entries in @ext
 * @drop: bytes to give back (at most nd_dpa_total(@ext, @next))
 *
 * Returns the number of extents left.
 */
u32 nd_dpa_shrink(struct nd_dpa_range *ext, u32 next, u64 drop)
{
	while (next && drop) {
		struct nd_dpa_range *last = &ext[next - 1];
		u64 n = min(last->size, drop);

		last->size -= n;
		drop -= n;
		if (!last->size)
			next--;
	}
	return next;
}
