/* SPDX-License-Identifier: GPL-2.0-only */
/* Host shim: memcmp(), memset() and friends come from libc. */
#include <string.h>
