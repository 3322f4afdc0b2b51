// SPDX-License-Identifier: GPL-2.0-or-later
/* the kernel keyring of the security commands (keys.h) */
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/keyctl.h>

#include "keys.h"

long nd_key_add(const char *type, const char *desc, const void *payload,
		size_t len)
{
	long id = syscall(SYS_add_key, type, desc, payload, len,
			KEY_SPEC_USER_KEYRING);

	return id < 0 ? -errno : id;
}

long nd_key_search(const char *type, const char *desc)
{
	long id = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING,
			type, desc, 0);

	return id < 0 ? -errno : id;
}

void nd_key_unlink(long id)
{
	if (id > 0)
		syscall(SYS_keyctl, KEYCTL_UNLINK, id, KEY_SPEC_USER_KEYRING);
}

int nd_key_read(long id, char *buf, size_t len)
{
	long n;

	if (!len)
		return -EINVAL;
	n = syscall(SYS_keyctl, KEYCTL_READ, id, buf, len - 1);
	if (n < 0)
		return -errno;
	if ((size_t)n >= len)
		return -E2BIG;
	buf[n] = 0;
	return 0;
}
