/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * User-space shim: the kernel types and attributes that
 * kernel/acpi/nfit/table.c and kernel/nvdimm/label-format.c use, for
 * building them in user space (label-format.c into libndctl and ndctl,
 * both into the host tests).
 * The uapi header of the same name comes first, so libc headers that
 * include it still get what they need.
 */
#ifndef NFIT_SHIM_LINUX_TYPES_H
#define NFIT_SHIM_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;	/* as in the kernel, for %llu */
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;

#ifndef __force
#define __force
#endif

#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif

#endif
