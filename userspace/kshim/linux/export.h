/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * User-space shim: no module exports; libndctl exports what libndctl.sym
 * names and builds everything else hidden.
 */
#ifndef LABEL_SHIM_LINUX_EXPORT_H
#define LABEL_SHIM_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#endif
