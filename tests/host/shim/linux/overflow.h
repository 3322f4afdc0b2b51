/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim: check_add_overflow() as the kernel defines it (the builtin). */
#ifndef NFIT_SHIM_LINUX_OVERFLOW_H
#define NFIT_SHIM_LINUX_OVERFLOW_H

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)

#endif
