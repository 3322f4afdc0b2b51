// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Prints the sysfs and dev roots a new libndctl context uses, and whether
 * the process runs in secure-execution mode (AT_SECURE: setuid, setgid,
 * file capabilities).  run.sh runs a set-user-ID copy of it with
 * NDCTL_SYSFS_ROOT/NDCTL_DEV_ROOT set: the library must ignore them.
 */
#include <stdio.h>
#include <sys/auxv.h>

#include <ndctl/libndctl.h>

/* LeakSanitizer cannot run in a set-user-ID process */
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

int main(void)
{
	struct ndctl_ctx *ctx;

	if (ndctl_new(&ctx))
		return 2;
	printf("secure %lu sysfs %s dev %s\n", getauxval(AT_SECURE),
			ndctl_get_sysfs_root(ctx), ndctl_get_dev_root(ctx));
	ndctl_unref(ctx);
	return 0;
}
