/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef _ND_LABEL_FORMAT_H_
#define _ND_LABEL_FORMAT_H_
#include <stddef.h>
#include <stdint.h>

#define NSINDEX_SIG "NAMESPACE_INDEX"
#define NSINDEX_HDR 72
#define NSINDEX_ALIGN 256

/* fletcher64 over little-endian 32-bit words */
uint64_t nd_fletcher64(const void *buf, size_t len);
uint64_t nd_get_le(const unsigned char *p, int n);
/* modern index block size for a label size (128 or 256) */
unsigned int nd_label_index_size(unsigned int config_size, unsigned int lsize);
/*
 * Find the current index block of a label area image.  Returns 0 when no
 * block is valid, else 11 (v1.1) or 12 (v1.2) with the index size, label
 * size and current block number filled in.
 */
int nd_label_index_find(const unsigned char *area, unsigned int config_size,
		unsigned int *isize, unsigned int *lsize, int *cur);
#endif
