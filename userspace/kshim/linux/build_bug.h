/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * User-space shim: static_assert() with an optional message, as the kernel has
 * it (C11's _Static_assert() requires the message before C2x).
 */
#ifndef LABEL_SHIM_LINUX_BUILD_BUG_H
#define LABEL_SHIM_LINUX_BUILD_BUG_H

#undef static_assert
#define static_assert(expr, ...) __shim_static_assert(expr, ##__VA_ARGS__, #expr)
#define __shim_static_assert(expr, msg, ...) _Static_assert(expr, msg)

#endif
