// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ndctl setup-passphrase / update-passphrase / remove-passphrase /
 * freeze-security / sanitize-dimm / wait-overwrite DIMM...: passphrase
 * security (docs/security.md) with keys kept as ndctl 76.1 keeps them:
 * an encrypted key "nvdimm:<dimm id>" (master passphrase:
 * "nvdimm-master:<dimm id>") of 32 bytes sealed by a key-encryption key
 * (-k user:NAME or trusted:NAME) in the user keyring, its blob in
 * /etc/ndctl/keys/nvdimm_<id>_<hostname>.blob (nvdimm-master_...), so a
 * key missing from the keyring is loaded from its blob.  The kernel gets
 * the keys' serials through libndctl (lib/security.c).  Each command
 * prints 76.1's summary ("passphrase enabled for N nmem.", "security froze
 * N nmem.", ...) and exits 0 when every DIMM succeeded, else 1 after a
 * "Failed <what> for nmemX: <error>" line per failure.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keys.h"
#include "util.h"

static long key_add(const char *type, const char *desc, const char *payload)
{
	return nd_key_add(type, desc, payload, strlen(payload));
}

static long key_search(const char *desc)
{
	return nd_key_search("encrypted", desc);
}

struct dimm_keys {
	char desc[128];		/* nvdimm:<id> or nvdimm-master:<id> */
	char path[PATH_MAX];	/* its blob file */
};

static void dimm_keys(struct ndctl_dimm *dimm, bool master,
		struct dimm_keys *k)
{
	const char *id = ndctl_dimm_get_unique_id(dimm);
	char host[HOST_NAME_MAX + 1] = "localhost";

	gethostname(host, sizeof(host) - 1);
	snprintf(k->desc, sizeof(k->desc), "%s:%s",
			master ? "nvdimm-master" : "nvdimm", id ? id : "");
	snprintf(k->path, sizeof(k->path), KEY_DIR "/%s_%s_%s.blob",
			master ? "nvdimm-master" : "nvdimm", id ? id : "", host);
}

/* the DIMM's key: in the keyring, else loaded from its blob; or -errno */
static long dimm_key(const struct dimm_keys *k)
{
	char blob[KEY_BLOB_MAX], cmd[KEY_BLOB_MAX + 8];
	long id = key_search(k->desc);
	FILE *f;
	size_t n;

	if (id > 0)
		return id;
	f = fopen(k->path, "r");
	if (!f) {
		fprintf(stderr, "failed to open file %s: %s\n", k->path,
				strerror(errno));
		return -ENOKEY;
	}
	n = fread(blob, 1, sizeof(blob) - 1, f);
	fclose(f);
	blob[n] = 0;
	blob[strcspn(blob, "\n")] = 0;
	snprintf(cmd, sizeof(cmd), "load %s", blob);
	return key_add("encrypted", k->desc, cmd);
}

static int write_blob(const struct dimm_keys *k, long id)
{
	char blob[KEY_BLOB_MAX];
	FILE *f;
	int rc = nd_key_read(id, blob, sizeof(blob));

	if (rc)
		return rc;
	f = fopen(k->path, "w");
	if (!f)
		return -errno;
	if (fputs(blob, f) < 0)
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

/* a new 32-byte encrypted key @desc sealed by @kek ("user:NAME") */
static long new_key(const char *desc, const char *kek)
{
	char cmd[288];	/* a kek name of up to 255 characters */

	snprintf(cmd, sizeof(cmd), "new enc32 %s 32", kek);
	return key_add("encrypted", desc, cmd);
}

/* the kek a key's blob names ("enc32 user:NAME 32 ...") */
static int blob_kek(long id, char *kek, size_t len)
{
	char blob[KEY_BLOB_MAX], fmt[32];
	int rc = nd_key_read(id, blob, sizeof(blob));

	if (rc)
		return rc;
	if (sscanf(blob, "%31s %255s", fmt, kek) != 2 || strlen(kek) >= len)
		return -EINVAL;
	return 0;
}

enum sec_action { SETUP, UPDATE, REMOVE, FREEZE, SANITIZE, WAIT_OW };

struct sec_opts {
	const char *kek;
	bool master;
	bool overwrite;
	bool zero_key;
};

static int do_setup(struct ndctl_dimm *dimm, const struct sec_opts *o)
{
	struct dimm_keys k;
	long id;
	int rc;

	dimm_keys(dimm, o->master, &k);
	if (key_search(k.desc) > 0) {
		fprintf(stderr, "%s: key %s already in the keyring\n",
				ndctl_dimm_get_devname(dimm), k.desc);
		return -EEXIST;
	}
	id = new_key(k.desc, o->kek);
	if (id < 0)
		return id;
	rc = write_blob(&k, id);
	if (!rc)
		rc = o->master ? ndctl_dimm_update_master_passphrase(dimm, 0, id)
			: ndctl_dimm_update_passphrase(dimm, 0, id);
	if (rc) {
		nd_key_unlink(id);
		unlink(k.path);
	}
	return rc;
}

static int do_update(struct ndctl_dimm *dimm, const struct sec_opts *o)
{
	char kek[256], tmp[160], blob[KEY_BLOB_MAX + 8], raw[KEY_BLOB_MAX];
	struct dimm_keys k;
	long old, nid;
	int rc;

	dimm_keys(dimm, o->master, &k);
	old = dimm_key(&k);
	if (old < 0)
		return old;
	if (o->kek)
		snprintf(kek, sizeof(kek), "%s", o->kek);
	else if ((rc = blob_kek(old, kek, sizeof(kek))))
		return rc;
	snprintf(tmp, sizeof(tmp), "%s-new", k.desc);
	nid = new_key(tmp, kek);
	if (nid < 0)
		return nid;
	rc = o->master ? ndctl_dimm_update_master_passphrase(dimm, old, nid)
		: ndctl_dimm_update_passphrase(dimm, old, nid);
	if (!rc)
		rc = nd_key_read(nid, raw, sizeof(raw));
	if (rc) {
		nd_key_unlink(nid);
		return rc;
	}
	/* the new passphrase under the DIMM's name, and its blob */
	nd_key_unlink(old);
	nd_key_unlink(nid);
	snprintf(blob, sizeof(blob), "load %s", raw);
	nid = key_add("encrypted", k.desc, blob);
	if (nid < 0)
		return nid;
	return write_blob(&k, nid);
}

/* remove, crypto erase (user or master) */
static int do_with_key(struct ndctl_dimm *dimm, const struct sec_opts *o,
		enum sec_action a)
{
	struct dimm_keys k;
	long id;
	int rc;

	dimm_keys(dimm, o->master, &k);
	id = dimm_key(&k);
	if (id < 0)
		return id;
	if (a == REMOVE && o->master)
		rc = ndctl_dimm_disable_master_passphrase(dimm, id);
	else if (a == REMOVE)
		rc = ndctl_dimm_disable_passphrase(dimm, id);
	else if (o->master)
		rc = ndctl_dimm_master_secure_erase(dimm, id);
	else
		rc = ndctl_dimm_secure_erase(dimm, id);
	/* a removed passphrase, or a user one erased: its key goes too */
	if (!rc && (a == REMOVE || !o->master)) {
		nd_key_unlink(id);
		unlink(k.path);
	}
	return rc;
}

static int do_overwrite(struct ndctl_dimm *dimm, const struct sec_opts *o)
{
	const char *st = ndctl_dimm_refresh_security(dimm);
	struct dimm_keys k;
	long id = 0;
	int rc;

	dimm_keys(dimm, false, &k);
	if (!o->zero_key && st && strcmp(st, "disabled")) {
		id = dimm_key(&k);
		if (id < 0)
			return id;
	}
	rc = ndctl_dimm_overwrite(dimm, id);
	if (!rc && id > 0) {
		nd_key_unlink(id);
		unlink(k.path);
	}
	/*
	 * the label area is being cleared: an enabled DIMM is re-enabled so
	 * that the kernel drops the labels it holds (as 76.1)
	 */
	if (!rc && ndctl_dimm_is_enabled(dimm) == 1) {
		rc = ndctl_dimm_disable(dimm);
		if (!rc)
			rc = ndctl_dimm_enable(dimm);
	}
	return rc;
}

/* 76.1's summary ("... N nmem.") and failure ("Failed ... for nmemX") */
static const char *const done_msg[] = {
	[SETUP] = "passphrase enabled for", [UPDATE] = "passphrase updated for",
	[REMOVE] = "passphrase removed for", [FREEZE] = "security froze",
	[SANITIZE] = "sanitized", [WAIT_OW] = "",
};
static const char *const fail_msg[] = {
	[SETUP] = "enable passphrase", [UPDATE] = "update passphrase",
	[REMOVE] = "remove passphrase", [FREEZE] = "freeze security",
	[SANITIZE] = "crypto erase", [WAIT_OW] = "wait overwrite",
};

/*
 * The kernel refused "disable_master": 6.1's has no such command (it came
 * later), a later kernel refuses a wrong master passphrase so
 */
#define NO_DISABLE_MASTER " (the kernel refused 'disable_master': " \
	"Linux 6.1 cannot remove a master passphrase; a later kernel: " \
	"wrong master passphrase)"

#define SEC_DIMMS "<nmem0> [<nmem1>..<nmemN>] [<options>]"
#define SEC_VH "    -v, --verbose         turn on debug\n" \
	"    -h, --help            show this help\n"
#define SEC_M "    -m, --master-passphrase  the master passphrase\n"

static const struct cmd_help help[] = {
	[SETUP] = { "ndctl setup-passphrase " SEC_DIMMS,
		"    -k, --key-handle <type:name>  key-encryption key: user:NAME or trusted:NAME\n"
		SEC_M SEC_VH },
	[UPDATE] = { "ndctl update-passphrase " SEC_DIMMS,
		"    -k, --key-handle <type:name>  key-encryption key (default: the old key's)\n"
		SEC_M SEC_VH },
	[REMOVE] = { "ndctl remove-passphrase " SEC_DIMMS, SEC_M SEC_VH },
	[FREEZE] = { "ndctl freeze-security " SEC_DIMMS, SEC_VH },
	[SANITIZE] = { "ndctl sanitize-dimm " SEC_DIMMS,
		"    -c, --crypto-erase    cryptographic erase (the default)\n"
		"    -o, --overwrite       overwrite the media\n"
		"    -z, --zero-key        with --overwrite: no passphrase\n"
		SEC_M SEC_VH },
	[WAIT_OW] = { "ndctl wait-overwrite " SEC_DIMMS, SEC_VH },
};

static int sec_action(int argc, char **argv, enum sec_action a)
{
	static const struct option lopts[] = {
		{ "key-handle", required_argument, NULL, 'k' },	/* 76.1's */
		{ "master-passphrase", no_argument, NULL, 'm' },	/* 76.1's -m */
		{ "crypto-erase", no_argument, NULL, 'c' },
		{ "overwrite", no_argument, NULL, 'o' },
		{ "zero-key", no_argument, NULL, 'z' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const shorts[] = {
		[SETUP] = "k:mvh", [UPDATE] = "k:mvh", [REMOVE] = "mvh",
		[FREEZE] = "vh", [SANITIZE] = "comzvh", [WAIT_OW] = "vh",
	};
	struct sec_opts o = { 0 };
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	struct ndctl_dimm *dimm;
	int c, i, rc, first_rc = 0, done = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, shorts[a], lopts, NULL)) != -1) {
		if (!opt_allowed(shorts[a], c))
			return print_help(&help[a], stderr);
		switch (c) {
		case 'k': o.kek = optarg; break;
		case 'm': o.master = true; break;
		case 'c': break;
		case 'o': o.overwrite = true; break;
		case 'z': o.zero_key = true; break;
		case 'v': verbose = 1; break;
		case 'h': return print_help(&help[a], stdout);
		default: return print_help(&help[a], stderr);
		}
	}
	if (optind >= argc) {
		fail("at least one DIMM is required");
		return EXIT_USAGE;
	}
	if (a == SETUP && (!o.kek || (strncmp(o.kek, "user:", 5) &&
			strncmp(o.kek, "trusted:", 8)))) {
		fail("-k user:NAME or trusted:NAME (the key-encryption key) is required");
		return EXIT_USAGE;
	}
	if (a == SANITIZE && o.overwrite && o.master) {
		fail("--overwrite takes the user passphrase only");
		return EXIT_USAGE;
	}
	if (cli_ctx_new(&ctx))
		return 1;
	for (i = optind; i < argc; i++) {
		int found = 0;

		ndctl_bus_foreach(ctx, bus) ndctl_dimm_foreach(bus, dimm) {
			if (!match_dimm(dimm, argv[i]))
				continue;
			found++;
			if (!ndctl_dimm_refresh_security(dimm)) {
				rc = -EOPNOTSUPP;
			} else if (a == SETUP) {
				rc = do_setup(dimm, &o);
			} else if (a == UPDATE) {
				rc = do_update(dimm, &o);
			} else if (a == REMOVE) {
				rc = do_with_key(dimm, &o, REMOVE);
			} else if (a == FREEZE) {
				rc = ndctl_dimm_freeze_security(dimm);
			} else if (a == SANITIZE) {
				rc = o.overwrite ? do_overwrite(dimm, &o)
					: do_with_key(dimm, &o, SANITIZE);
			} else {
				rc = ndctl_dimm_wait_overwrite(dimm);
				rc = rc > 0 ? 0 : rc;
			}
			if (rc) {
				fprintf(stderr, "Failed %s for %s: %s%s\n",
						a == SANITIZE && o.overwrite ?
						"overwrite" : a == REMOVE &&
						o.master ? "remove master passphrase" :
						fail_msg[a],
						ndctl_dimm_get_devname(dimm),
						strerror(-rc),
						a == REMOVE && o.master &&
						rc == -EINVAL ? NO_DISABLE_MASTER : "");
				if (!first_rc)
					first_rc = rc;
				continue;
			}
			done++;
		}
		if (!found && !first_rc) {
			fail("%s: no such DIMM", argv[i]);
			first_rc = -ENXIO;
		}
	}
	ndctl_unref(ctx);
	if (a != WAIT_OW)
		fprintf(stderr, "%s %d nmem.\n",
				a == SANITIZE && o.overwrite ?
				"overwrite issued for" : done_msg[a], done);
	return first_rc ? 1 : 0;
}

int cmd_setup_passphrase(int argc, char **argv)
{
	return sec_action(argc, argv, SETUP);
}

int cmd_update_passphrase(int argc, char **argv)
{
	return sec_action(argc, argv, UPDATE);
}

int cmd_remove_passphrase(int argc, char **argv)
{
	return sec_action(argc, argv, REMOVE);
}

int cmd_freeze_security(int argc, char **argv)
{
	return sec_action(argc, argv, FREEZE);
}

int cmd_sanitize_dimm(int argc, char **argv)
{
	return sec_action(argc, argv, SANITIZE);
}

int cmd_wait_overwrite(int argc, char **argv)
{
	return sec_action(argc, argv, WAIT_OW);
}
