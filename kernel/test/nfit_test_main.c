// SPDX-License-Identifier: GPL-2.0
/*
 * nfit_test.ko is built from two files (test/Kbuild): nfit_test.c, which
 * keeps its name (a composite module cannot have a part named after
 * itself), nfit_test_ars.c and nfit_test_security.c.
 */
#include "nfit_test.c"
