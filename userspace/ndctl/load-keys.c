// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ndctl load-keys [-p DIR] [-t HANDLE]: the key-encryption key and the
 * DIMMs' passphrase keys, from the files setup-passphrase left in the key
 * directory (default /etc/ndctl/keys) into the user keyring, so that the
 * kernel finds "nvdimm:<id>" when it unlocks a DIMM at bind: what an
 * initrd runs before the nd modules load (ndctl 76.1's command and
 * output; docs/security.md, "load-keys"):
 *
 *  - the kek "nvdimm-master" from DIR/nvdimm-master.blob: its bytes are a
 *    user key's payload, or with a TPM handle (-t, else the first word of
 *    DIR/tpm.handle) the sealed blob of a trusted key ("load BLOB
 *    keyhandle=HANDLE").  A kek already in the keyring is kept and its
 *    file not read.  One that cannot be read or loaded fails the command
 *    before any DIMM key: they could not be opened without it.
 *  - every regular file named nvdimm_<id> or nvdimm_<id>_<rest> (76.1
 *    writes nvdimm_<id>_<hostname>.blob), in name order: an encrypted key
 *    "nvdimm:<id>" loaded from its blob ("load BLOB").  A key already in
 *    the keyring is kept; a blob that cannot be read or that the kernel
 *    refuses is reported and skipped.  Master passphrases
 *    (nvdimm-master_<id>_...) are not loaded, as in 76.1: the commands
 *    that use them load them from their blob.
 *
 * Prints "nvdimm master key loaded." when it loaded the kek and "N nvdimm
 * keys loaded" (stdout).  Exit 0 once the kek is there (whatever became
 * of the DIMM keys, as 76.1), 256 - errno when the directory or the kek
 * failed, 129 for bad options.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keys.h"
#include "util.h"

#define KEK_DESC "nvdimm-master"
#define KEK_FILE "nvdimm-master.blob"
#define TPM_FILE "tpm.handle"
#define DIMM_PREFIX "nvdimm_"
#define ID_MAX 128
#define HANDLE_MAX 64

static const struct cmd_help help = {
	"ndctl load-keys [<options>]",
	"    -p, --key-path <dir>  the key directory (default " KEY_DIR ")\n"
	"    -t, --tpm-handle <handle>  the kek is a trusted key sealed by the TPM key HANDLE\n"
	"                          (default: the first word of <dir>/" TPM_FILE ")\n"
	"    -v, --verbose         say what is skipped and why\n"
	"    -h, --help            show this help\n",
};

/*
 * File @name of @dirfd into @buf (up to KEY_BLOB_MAX bytes), its length
 * in *@len; one trailing newline dropped when @text.  0 or -errno, after
 * a message.
 */
static int read_blob(int dirfd, const char *dir, const char *name,
		bool text, char *buf, size_t *len)
{
	struct stat st;
	ssize_t n = 0, r;
	int fd, rc = 0;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		fprintf(stderr, "%s/%s: %s\n", dir, name, strerror(errno));
		return rc;
	}
	if (fstat(fd, &st)) {
		rc = -errno;
	} else if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s/%s: not a regular file\n", dir, name);
		close(fd);
		return -EINVAL;
	} else if (st.st_size == 0 || st.st_size > KEY_BLOB_MAX) {
		fprintf(stderr, "%s/%s: %lld bytes: not a key blob (1 to %d)\n",
				dir, name, (long long)st.st_size, KEY_BLOB_MAX);
		close(fd);
		return -EINVAL;
	}
	while (!rc && n < st.st_size) {
		r = read(fd, buf + n, st.st_size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			rc = r ? -errno : -EIO;
		else
			n += r;
	}
	close(fd);
	if (rc) {
		fprintf(stderr, "%s/%s: %s\n", dir, name, strerror(-rc));
		return rc;
	}
	if (text && n && buf[n - 1] == '\n')
		n--;
	*len = n;
	return 0;
}

/* -t, else the first word of DIR/tpm.handle, else none */
static const char *tpm_handle(int dirfd, const char *dir, const char *opt,
		char *buf)
{
	FILE *f;
	int fd;

	if (opt)
		return opt;
	fd = openat(dirfd, TPM_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT || verbose)
			fprintf(stderr, "%s/%s: %s: the kek is a user key\n",
					dir, TPM_FILE, strerror(errno));
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return NULL;
	}
	if (fscanf(f, "%63s", buf) != 1) {
		fprintf(stderr, "%s/%s: no handle: the kek is a user key\n",
				dir, TPM_FILE);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static int load_kek(int dirfd, const char *dir, const char *handle)
{
	const char *type = handle ? "trusted" : "user";
	char blob[KEY_BLOB_MAX], payload[KEY_BLOB_MAX + HANDLE_MAX + 32];
	size_t len;
	long id = nd_key_search(type, KEK_DESC);
	int rc;

	if (id > 0) {
		if (verbose)
			fprintf(stderr, "%s key %s: already in the keyring\n",
					type, KEK_DESC);
		return 0;
	}
	if (id != -ENOKEY) {
		fprintf(stderr, "%s key %s: cannot search the keyring: %s\n",
				type, KEK_DESC, strerror(-id));
		return id;
	}
	rc = read_blob(dirfd, dir, KEK_FILE, handle != NULL, blob, &len);
	if (rc)
		return rc;
	if (handle) {
		len = snprintf(payload, sizeof(payload), "load %.*s keyhandle=%s",
				(int)len, blob, handle);
		id = nd_key_add(type, KEK_DESC, payload, len);
	} else {
		id = nd_key_add(type, KEK_DESC, blob, len);
	}
	if (id < 0) {
		fprintf(stderr, "%s key %s from %s/%s: %s\n", type, KEK_DESC,
				dir, KEK_FILE, strerror(-id));
		return id;
	}
	printf("nvdimm master key loaded.\n");
	return 0;
}

/* the <id> of nvdimm_<id>[_<rest>] into @id, or false */
static bool dimm_file(const char *name, char *id)
{
	size_t n;

	if (strncmp(name, DIMM_PREFIX, strlen(DIMM_PREFIX)))
		return false;
	name += strlen(DIMM_PREFIX);
	n = strcspn(name, "_");
	if (!n || n >= ID_MAX)
		return false;
	memcpy(id, name, n);
	id[n] = 0;
	return true;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the regular files of @dirfd named nvdimm_<id>..., sorted; or -errno */
static int dimm_files(int dirfd, char ***names)
{
	char id[ID_MAX], **list = NULL, **grown;
	struct dirent *de;
	struct stat st;
	int n = 0, fd;
	DIR *d;

	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (!dimm_file(de->d_name, id))
			continue;
		if (de->d_type == DT_UNKNOWN &&
		    !fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			de->d_type = DT_REG;
		if (de->d_type != DT_REG) {
			if (verbose)
				fprintf(stderr, "%s: not a regular file\n",
						de->d_name);
			continue;
		}
		grown = realloc(list, (n + 1) * sizeof(*list));
		if (!grown || !(grown[n] = strdup(de->d_name))) {
			list = grown ? grown : list;
			while (n)
				free(list[--n]);
			free(list);
			closedir(d);
			return -ENOMEM;
		}
		list = grown;
		n++;
	}
	closedir(d);
	if (n)
		qsort(list, n, sizeof(*list), by_name);
	*names = list;
	return n;
}

static int load_dimm_keys(int dirfd, const char *dir)
{
	char id[ID_MAX], desc[ID_MAX + 8], blob[KEY_BLOB_MAX];
	char payload[KEY_BLOB_MAX + 8];
	char **names = NULL;
	int i, n, loaded = 0;
	size_t len;
	long key;

	n = dimm_files(dirfd, &names);
	if (n < 0) {
		fprintf(stderr, "%s: %s\n", dir, strerror(-n));
		n = 0;
	}
	for (i = 0; i < n; i++) {
		dimm_file(names[i], id);
		snprintf(desc, sizeof(desc), "nvdimm:%s", id);
		if (nd_key_search("encrypted", desc) > 0) {
			if (verbose)
				fprintf(stderr, "%s: %s already in the keyring\n",
						names[i], desc);
			continue;
		}
		if (read_blob(dirfd, dir, names[i], true, blob, &len))
			continue;
		len = snprintf(payload, sizeof(payload), "load %.*s",
				(int)len, blob);
		key = nd_key_add("encrypted", desc, payload, len);
		if (key < 0)
			fprintf(stderr, "%s/%s: encrypted key %s: %s\n", dir,
					names[i], desc, strerror(-key));
		else
			loaded++;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	printf("%d nvdimm keys loaded\n", loaded);
	return 0;
}

int cmd_load_keys(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "key-path", required_argument, NULL, 'p' },
		{ "tpm-handle", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = KEY_DIR, *opt_handle = NULL, *handle;
	char hbuf[HANDLE_MAX];
	int c, dirfd, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "p:t:vh", lopts, NULL)) != -1) {
		switch (c) {
		case 'p': dir = optarg; break;
		case 't': opt_handle = optarg; break;
		case 'v': verbose = 1; break;
		case 'h': return print_help(&help, stdout);
		default: return print_help(&help, stderr);
		}
	}
	if (optind < argc) {
		fail("unknown parameter \"%s\" (see '%s %s --help')",
				argv[optind], prog_name, cmd_name);
		return EXIT_USAGE;
	}
	if (!*dir) {
		fail("the key path is empty");
		return EXIT_USAGE;
	}
	/* one word: it becomes the trusted key's keyhandle= option */
	if (opt_handle && (!*opt_handle || strlen(opt_handle) >= HANDLE_MAX ||
			strpbrk(opt_handle, " \t\n"))) {
		fail("'%s': not a TPM handle", opt_handle);
		return EXIT_USAGE;
	}
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		rc = -errno;
		fail("key directory %s: %s", dir, strerror(errno));
		return rc;
	}
	handle = tpm_handle(dirfd, dir, opt_handle, hbuf);
	rc = load_kek(dirfd, dir, handle);
	if (!rc)
		rc = load_dimm_keys(dirfd, dir);
	close(dirfd);
	return rc;
}
