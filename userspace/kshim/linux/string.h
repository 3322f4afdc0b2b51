/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* User-space shim: memcmp(), memset() and friends come from libc. */
#include <string.h>
