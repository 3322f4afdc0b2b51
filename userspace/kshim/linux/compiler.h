/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* User-space shim: the attribute spellings of <linux/compiler_attributes.h>. */
#ifndef ND_SHIM_LINUX_COMPILER_H
#define ND_SHIM_LINUX_COMPILER_H

#ifndef __packed
#define __packed __attribute__((__packed__))
#endif

#endif
