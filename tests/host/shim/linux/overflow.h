/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host shim: check_{add,sub,mul}_overflow() as the kernel defines them
 * (the builtins; the kernel adds a check that the three types match).
 */
#ifndef NFIT_SHIM_LINUX_OVERFLOW_H
#define NFIT_SHIM_LINUX_OVERFLOW_H

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d) __builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)

#endif
