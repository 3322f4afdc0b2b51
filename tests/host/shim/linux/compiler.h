/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim: the attribute macros of <linux/compiler_attributes.h> used here. */
#ifndef NFIT_SHIM_LINUX_COMPILER_H
#define NFIT_SHIM_LINUX_COMPILER_H

#ifndef __packed
#define __packed __attribute__((__packed__))
#endif

#endif
