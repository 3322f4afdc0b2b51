/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim: ARRAY_SIZE() (no type check, unlike the kernel's). */
#ifndef NFIT_SHIM_LINUX_KERNEL_H
#define NFIT_SHIM_LINUX_KERNEL_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
