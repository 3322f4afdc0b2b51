/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * User-space shim: check_{add,sub,mul}_overflow() as the kernel has them,
 * true when the result does not fit in *d, which then holds it wrapped.
 * The compiler builtins do exactly that; the kernel also insists that the
 * three types agree, which its own build checks.
 */
#ifndef ND_SHIM_LINUX_OVERFLOW_H
#define ND_SHIM_LINUX_OVERFLOW_H

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d) __builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)

#endif
