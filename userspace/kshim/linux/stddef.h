/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* User-space shim: offsetof() and the kernel's offsetofend(). */
#ifndef NFIT_SHIM_LINUX_STDDEF_H
#define NFIT_SHIM_LINUX_STDDEF_H

#include_next <linux/stddef.h>
#include <stddef.h>

#ifndef offsetofend
#define offsetofend(TYPE, MEMBER) \
	(offsetof(TYPE, MEMBER) + sizeof(((TYPE *)0)->MEMBER))
#endif

#endif
