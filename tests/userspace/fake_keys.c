// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A kernel keyring in a file, for the host tests of the key commands
 * (ndctl-fakekeys: ndctl with this in place of userspace/ndctl/keys.c):
 * the host's own keyring is never touched.
 *
 * NDCTL_FAKE_KEYRING names the file: one key per line, "SERIAL TYPE DESC
 * HEX", HEX the payload's bytes (an encrypted key's: the blob reading it
 * gives, "FORMAT MASTER LEN HEXBLOB").  The kernel's rules that the
 * commands meet are kept:
 *  - types user and encrypted; trusted only with NDCTL_FAKE_TRUSTED=1
 *    (else, as a kernel without the type: add ENODEV, search ENOKEY);
 *  - user: 1 to 32767 bytes; adding an existing key replaces its payload;
 *  - encrypted: "load FORMAT MASTER LEN HEXBLOB" only (FORMAT enc32 or
 *    default, MASTER user:NAME or trusted:NAME, which must be in the
 *    keyring: else ENOKEY; LEN a number, HEXBLOB an even number of hex
 *    digits; anything else EINVAL); adding an existing key is an update,
 *    which a "load" is not: EINVAL;
 *  - trusted: "load HEXBLOB keyhandle=HANDLE" (else EINVAL).
 * An unreadable or malformed file is EIO (the test is broken).
 */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

#define MAX_KEYS 64
#define PAYLOAD_MAX 32767

struct fkey {
	long serial;
	char type[16];
	char desc[256];
	size_t len;
	unsigned char data[PAYLOAD_MAX];
};

static struct fkey ring[MAX_KEYS];
static int nkeys;

static const char *ring_path(void)
{
	return getenv("NDCTL_FAKE_KEYRING");
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int load(void)
{
	static char hex[2 * PAYLOAD_MAX + 2];
	const char *p = ring_path();
	struct fkey *k;
	size_t i;
	FILE *f;

	nkeys = 0;
	if (!p)
		return -EIO;
	f = fopen(p, "r");
	if (!f)
		return errno == ENOENT ? 0 : -EIO;
	while (nkeys < MAX_KEYS) {
		k = &ring[nkeys];
		if (fscanf(f, "%ld %15s %255s %65535s", &k->serial, k->type,
				k->desc, hex) != 4)
			break;
		k->len = strlen(hex) / 2;
		for (i = 0; i < k->len; i++)
			k->data[i] = hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]);
		nkeys++;
	}
	fclose(f);
	return 0;
}

static int save(void)
{
	FILE *f = fopen(ring_path(), "w");
	size_t i;
	int j;

	if (!f)
		return -EIO;
	for (j = 0; j < nkeys; j++) {
		fprintf(f, "%ld %s %s ", ring[j].serial, ring[j].type,
				ring[j].desc);
		for (i = 0; i < ring[j].len; i++)
			fprintf(f, "%02x", ring[j].data[i]);
		fputc('\n', f);
	}
	return fclose(f) ? -EIO : 0;
}

static bool known_type(const char *type)
{
	const char *t = getenv("NDCTL_FAKE_TRUSTED");

	return !strcmp(type, "user") || !strcmp(type, "encrypted") ||
		(!strcmp(type, "trusted") && t && !strcmp(t, "1"));
}

static struct fkey *find(const char *type, const char *desc)
{
	int j;

	for (j = 0; j < nkeys; j++)
		if (!strcmp(ring[j].type, type) && !strcmp(ring[j].desc, desc))
			return &ring[j];
	return NULL;
}

static bool is_hex(const char *s)
{
	size_t n = strlen(s), i;

	for (i = 0; i < n; i++)
		if (hexval(s[i]) < 0)
			return false;
	return n && !(n % 2);
}

/* the payload of an encrypted "load" into @out (NUL-terminated text) */
static int encrypted_load(const char *payload, char *out, size_t outlen)
{
	char fmt[32], master[300], len[32], blob[KEY_BLOB_MAX + 1], rest[2];
	char *colon;
	int n;

	n = sscanf(payload, "load %31s %299s %31s %4096s %1s", fmt, master,
			len, blob, rest);
	if (n != 4 || (strcmp(fmt, "enc32") && strcmp(fmt, "default")) ||
	    strspn(len, "0123456789") != strlen(len) || !is_hex(blob))
		return -EINVAL;
	colon = strchr(master, ':');
	if (!colon)
		return -EINVAL;
	*colon = 0;
	if ((strcmp(master, "user") && strcmp(master, "trusted")) ||
	    !find(master, colon + 1))
		return -ENOKEY;
	*colon = ':';
	snprintf(out, outlen, "%s %s %s %s", fmt, master, len, blob);
	return 0;
}

long nd_key_add(const char *type, const char *desc, const void *payload,
		size_t len)
{
	static char text[PAYLOAD_MAX + 1], out[PAYLOAD_MAX + 1];
	char blob[KEY_BLOB_MAX + 1], handle[80], rest[2];
	const void *data = payload;
	struct fkey *k;
	long serial = 1000;
	int j, rc;

	if (load())
		return -EIO;
	if (!known_type(type))
		return -ENODEV;
	if (!len || len > PAYLOAD_MAX)
		return -EINVAL;
	memcpy(text, payload, len);
	text[len] = 0;
	if (!strcmp(type, "encrypted")) {
		if (find(type, desc))
			return -EINVAL;
		rc = encrypted_load(text, out, sizeof(out));
		if (rc)
			return rc;
		data = out;
		len = strlen(out);
	} else if (!strcmp(type, "trusted")) {
		if (sscanf(text, "load %4096s keyhandle=%79s %1s", blob, handle,
				rest) != 2 || !is_hex(blob))
			return -EINVAL;
		data = blob;
		len = strlen(blob);
	}
	k = find(type, desc);
	if (!k) {
		if (nkeys == MAX_KEYS)
			return -EDQUOT;
		for (j = 0; j < nkeys; j++)
			if (ring[j].serial >= serial)
				serial = ring[j].serial + 1;
		k = &ring[nkeys++];
		k->serial = serial;
		snprintf(k->type, sizeof(k->type), "%s", type);
		snprintf(k->desc, sizeof(k->desc), "%s", desc);
	}
	memcpy(k->data, data, len);
	k->len = len;
	return save() ? -EIO : k->serial;
}

long nd_key_search(const char *type, const char *desc)
{
	struct fkey *k;

	if (load())
		return -EIO;
	if (!known_type(type))
		return -ENOKEY;
	k = find(type, desc);
	return k ? k->serial : -ENOKEY;
}

void nd_key_unlink(long id)
{
	int j;

	if (id <= 0 || load())
		return;
	for (j = 0; j < nkeys; j++)
		if (ring[j].serial == id) {
			ring[j] = ring[--nkeys];
			save();
			return;
		}
}

int nd_key_read(long id, char *buf, size_t len)
{
	int j;

	if (load())
		return -EIO;
	for (j = 0; j < nkeys; j++) {
		if (ring[j].serial != id)
			continue;
		if (ring[j].len >= len)
			return -E2BIG;
		memcpy(buf, ring[j].data, ring[j].len);
		buf[ring[j].len] = 0;
		return 0;
	}
	return -ENOKEY;
}
