// SPDX-License-Identifier: LGPL-2.1-or-later
/* label storage area format helpers shared by libndctl and the ndctl CLI
 * (media-formats §1.2, §2.3 - §2.6) */
#include <stdlib.h>
#include <string.h>

#include "label-format.h"

uint64_t nd_fletcher64(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t lo = 0;
	uint64_t hi = 0;
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t w = p[i] | (p[i + 1] << 8) | (p[i + 2] << 16)
			| ((uint32_t)p[i + 3] << 24);

		lo += w;
		hi += lo;
	}
	return (hi << 32) | lo;
}


unsigned int nd_label_index_size(unsigned int config_size, unsigned int lsize)
{
	unsigned int t = config_size / lsize;
	unsigned int sz = NSINDEX_HDR + (t + 7) / 8;

	return (sz + NSINDEX_ALIGN - 1) / NSINDEX_ALIGN * NSINDEX_ALIGN;
}

uint64_t nd_get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/*
 * Check index block i of an area read into buf, for label size lsize and
 * index size isize.  Returns the sequence number (1..3) or 0 if invalid.
 */
static int index_valid(const unsigned char *area, unsigned int config_size,
		unsigned int isize, unsigned int lsize, int i, int *minor)
{
	const unsigned char *b = area + (size_t)i * isize;
	unsigned char *copy;
	uint64_t sum, stored;
	unsigned int major, min, seq, nslot;
	uint64_t myoff, mysize, otheroff, labeloff;

	if (memcmp(b, NSINDEX_SIG, 16))
		return 0;
	major = nd_get_le(b + 60, 2);
	min = nd_get_le(b + 62, 2);
	if (major != 1 || (min != 1 && min != 2))
		return 0;
	if (min >= 2) {
		unsigned int ls = b[19];

		if (ls > 1 || (128u << ls) != lsize)
			return 0;
	} else if (lsize != 128) {
		return 0;
	}
	copy = malloc(isize);
	if (!copy)
		return 0;
	memcpy(copy, b, isize);
	memset(copy + 64, 0, 8);
	sum = nd_fletcher64(copy, isize);
	free(copy);
	stored = nd_get_le(b + 64, 8);
	if (sum != stored)
		return 0;
	seq = nd_get_le(b + 20, 4) & 3;
	if (!seq)
		return 0;
	myoff = nd_get_le(b + 24, 8);
	mysize = nd_get_le(b + 32, 8);
	otheroff = nd_get_le(b + 40, 8);
	labeloff = nd_get_le(b + 48, 8);
	nslot = nd_get_le(b + 56, 4);
	if (myoff != (uint64_t)i * isize || otheroff != (uint64_t)(1 - i) * isize)
		return 0;
	if (labeloff != 2ULL * isize)
		return 0;
	if (mysize < NSINDEX_HDR || mysize > isize)
		return 0;
	if ((uint64_t)nslot * lsize + 2ULL * isize > config_size)
		return 0;
	*minor = min;
	return seq;
}

static int seq_next(int seq)
{
	static const int next[] = { 0, 2, 3, 1 };

	return next[seq & 3];
}

/* 0: none valid, else 11 / 12 with the geometry filled in */
int nd_label_index_find(const unsigned char *area, unsigned int config_size,
		unsigned int *isizep, unsigned int *lsizep, int *curp)
{
	static const unsigned int lsizes[] = { 128, 256 };
	unsigned int k;

	for (k = 0; k < 2; k++) {
		unsigned int lsize = lsizes[k];
		unsigned int isize = nd_label_index_size(config_size, lsize);
		int m0 = 0, m1 = 0, s0, s1, cur;

		if (2ULL * isize + 2ULL * lsize > config_size)
			continue;
		s0 = index_valid(area, config_size, isize, lsize, 0, &m0);
		s1 = index_valid(area, config_size, isize, lsize, 1, &m1);
		if (!s0 && !s1)
			continue;
		if (s0 && s1)
			cur = (s0 == s1 || seq_next(s0) == s1) ? 1 : 0;
		else
			cur = s0 ? 0 : 1;
		*isizep = isize;
		*lsizep = lsize;
		*curp = cur;
		return 10 + (cur ? m1 : m0);
	}
	return 0;
}

