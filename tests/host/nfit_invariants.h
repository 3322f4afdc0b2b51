/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Properties every parse result must have, whatever the input: shared by
 * the unit tests (on mutated tables) and the libFuzzer target.
 */
#ifndef NFIT_INVARIANTS_H
#define NFIT_INVARIANTS_H

#include "table.h"

/*
 * Check the result of nfit_table_parse(t, buf, len, subs, max_subs, ...)
 * that returned @rc.  Exercises every lookup.  Returns NULL when all
 * holds, else a static description of the first violation.
 */
const char *nfit_check_invariants(const struct nfit_table *t, int rc,
				  const void *buf, u32 len,
				  unsigned int max_subs);

#endif
