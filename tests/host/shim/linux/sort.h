/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host shim: the kernel's sort(), the bottom-up heapsort of 6.1's
 * lib/sort.c (byte swaps only; a custom swap function is not supported).
 *
 * Not qsort(): glibc's merge sort only asks whether cmp() <= 0, so a
 * comparator that answers 0 for "less" sorts correctly there and not in
 * the kernel, which asks cmp() >= 0.  The tests must see what the kernel
 * does with the comparator.
 */
#ifndef NFIT_SHIM_LINUX_SORT_H
#define NFIT_SHIM_LINUX_SORT_H

#include <stddef.h>

static inline void nd_shim_sort_swap(char *a, char *b, size_t size)
{
	while (size--) {
		char t = *a;

		*a++ = *b;
		*b++ = t;
	}
}

/* the parent of the element at byte offset @i (non-zero), see lib/sort.c */
static inline size_t nd_shim_sort_parent(size_t i, size_t lsbit, size_t size)
{
	i -= size;
	i -= size & -(i & lsbit);
	return i / 2;
}

static inline void sort(void *base, size_t num, size_t size,
			int (*cmp)(const void *, const void *),
			void (*swap)(void *, void *, int))
{
	char *p = base;
	size_t n = num * size, a = (num / 2) * size;
	const size_t lsbit = size & -size;

	(void)swap;
	if (!a)
		return;
	for (;;) {
		size_t b, c, d;

		if (a)
			a -= size;
		else if (n -= size)
			nd_shim_sort_swap(p, p + n, size);
		else
			break;
		for (b = a; c = 2 * b + size, (d = c + size) < n;)
			b = cmp(p + c, p + d) >= 0 ? c : d;
		if (d == n)
			b = c;
		while (b != a && cmp(p + a, p + b) >= 0)
			b = nd_shim_sort_parent(b, lsbit, size);
		c = b;
		while (b != a) {
			b = nd_shim_sort_parent(b, lsbit, size);
			nd_shim_sort_swap(p + b, p + c, size);
		}
	}
}

#endif
