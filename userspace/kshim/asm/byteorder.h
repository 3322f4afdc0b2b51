/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * User-space shim: the uapi byte-order macros (__le32_to_cpu() and friends)
 * plus the kernel's short names for them.
 */
#ifndef LABEL_SHIM_ASM_BYTEORDER_H
#define LABEL_SHIM_ASM_BYTEORDER_H

#include_next <asm/byteorder.h>

#define le16_to_cpu(x) __le16_to_cpu(x)
#define le32_to_cpu(x) __le32_to_cpu(x)
#define le64_to_cpu(x) __le64_to_cpu(x)
#define cpu_to_le16(x) __cpu_to_le16(x)
#define cpu_to_le32(x) __cpu_to_le32(x)
#define cpu_to_le64(x) __cpu_to_le64(x)

#endif
