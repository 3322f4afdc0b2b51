/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* User-space shim: the uapi errno values are the kernel's. */
#include_next <linux/errno.h>
