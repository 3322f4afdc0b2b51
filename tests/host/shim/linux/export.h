/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim: nothing is exported from a user-space test binary. */
#ifndef LABEL_SHIM_LINUX_EXPORT_H
#define LABEL_SHIM_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#endif
