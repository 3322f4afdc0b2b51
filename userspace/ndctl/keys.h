/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel keyring as the security commands use it: keys in the user
 * keyring (@u), made and found with the add_key and keyctl system calls
 * (no libkeyutils).  Each call returns a key serial or 0, or -errno.
 * The host tests link tests/userspace/fake_keys.c instead (a keyring in
 * a file), so these four are the commands' only way to the kernel's.
 */
#ifndef _NDCTL_CLI_KEYS_H_
#define _NDCTL_CLI_KEYS_H_

#include <stddef.h>

/* the passphrases' encrypted keys, and where 76.1 keeps their blobs */
#define KEY_DIR "/etc/ndctl/keys"
#define KEY_BLOB_MAX 4096

/* a key of @type and @desc with @len bytes of @payload, in @u */
long nd_key_add(const char *type, const char *desc, const void *payload,
		size_t len);
/* the serial of the key of @type and @desc @u holds (-ENOKEY: none) */
long nd_key_search(const char *type, const char *desc);
/* drop key @id from @u (ids <= 0 are ignored) */
void nd_key_unlink(long id);
/* key @id's payload (an encrypted key: its blob) as a string in @buf */
int nd_key_read(long id, char *buf, size_t len);

#endif
