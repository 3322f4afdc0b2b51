/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim: the uapi errno values are the kernel's. */
#include_next <linux/errno.h>
