/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim: ARRAY_SIZE(), min(), max() (no type checks, unlike the kernel's). */
#ifndef NFIT_SHIM_LINUX_KERNEL_H
#define NFIT_SHIM_LINUX_KERNEL_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* min()/max() without the kernel's type checks (statement expressions) */
#define min(a, b) ({ __typeof__(a) a_ = (a); __typeof__(b) b_ = (b); \
		     a_ < b_ ? a_ : b_; })
#define max(a, b) ({ __typeof__(a) a_ = (a); __typeof__(b) b_ = (b); \
		     a_ > b_ ? a_ : b_; })

#ifndef U64_MAX
#define U64_MAX (~(unsigned long long)0)
#endif

#endif
