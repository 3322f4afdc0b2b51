// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * read-labels, write-labels, zero-labels, init-labels, check-labels
 * (media-formats §2, §3)
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <asm/byteorder.h>

#include "util.h"
#include "label-format.h"

enum label_op { OP_READ, OP_WRITE, OP_ZERO, OP_INIT, OP_CHECK };

struct label_opts {
	enum label_op op;
	const char *bus, *output, *input, *version;
	bool json, human, force, index_only;
	unsigned long long size, offset;
};

static const struct cmd_help read_help = {
	"ndctl read-labels <nmem0> [<nmem1>..<nmemN>] [-o <filename>]",
	"    <nmem>                nmemX, a dimm id, or 'all'\n"
	"    -b, --bus <bus-id>    <nmem> must be on a bus with an id/provider of <bus-id>\n"
	"    -s, --size <n>        number of label bytes to read (0: all)\n"
	"    -O, --offset <n>      offset into the label area to start at\n"
	"    -o, --output <file>   write the label area here instead of stdout\n"
	"    -j, --json            parse the label data into json\n"
	"    -u, --human           human friendly number formats (implies --json)\n"
	"    -I, --index           limit the read to the index block area\n"
	"    -v, --verbose         emit debug messages\n"
	"    -h, --help            show this help\n",
};

static const struct cmd_help zero_help = {
	"ndctl zero-labels <nmem0> [<nmem1>..<nmemN>] [<options>]",
	"    <nmem>                nmemX, a dimm id, or 'all'\n"
	"    -b, --bus <bus-id>    <nmem> must be on a bus with an id/provider of <bus-id>\n"
	"    -s, --size <n>        number of label bytes to zero (0: to the end)\n"
	"    -O, --offset <n>      offset into the label area to start at\n"
	"    -v, --verbose         emit debug messages\n"
	"    -h, --help            show this help\n",
};

static const struct cmd_help write_help = {
	"ndctl write-labels <nmem> [-i <filename>]",
	"    <nmem>                nmemX or a dimm id\n"
	"    -b, --bus <bus-id>    <nmem> must be on a bus with an id/provider of <bus-id>\n"
	"    -s, --size <n>        number of label bytes to write (0: to the end)\n"
	"    -O, --offset <n>      offset into the label area to start at\n"
	"    -i, --input <file>    read the label data from here instead of stdin\n"
	"    -v, --verbose         emit debug messages\n"
	"    -h, --help            show this help\n",
};

static const struct cmd_help check_help = {
	"ndctl check-labels <nmem0> [<nmem1>..<nmemN>] [<options>]",
	"    <nmem>                nmemX, a dimm id, or 'all'\n"
	"    -b, --bus <bus-id>    <nmem> must be on a bus with an id/provider of <bus-id>\n"
	"    -v, --verbose         emit debug messages (why an index is not valid)\n"
	"    -h, --help            show this help\n",
};

static const struct cmd_help init_help = {
	"ndctl init-labels <nmem0> [<nmem1>..<nmemN>] [<options>]",
	"    <nmem>                nmemX, a dimm id, or 'all'\n"
	"    -b, --bus <bus-id>    <nmem> must be on a bus with an id/provider of <bus-id>\n"
	"    -f, --force           initialise even if a valid index block is present\n"
	"    -V, --label-version <1.1|1.2>\n"
	"                          namespace label specification version (default: 1.1)\n"
	"    -v, --verbose         emit debug messages\n"
	"    -h, --help            show this help\n",
};

/*
 * 76.1 prints type_guid and abstraction_guid as the 16 bytes stand on the
 * media, unparsed like a uuid (no GUID field swapping), so a GUID written
 * in UEFI order reads back with its first three fields reversed.
 */
static void guid_string(const unsigned char *b, char *out)
{
	uuid_t u;

	memcpy(u, b, sizeof(u));
	uuid_unparse(u, out);
}

static struct json_object *label_to_json(const struct nd_lsa_label *l,
		u32 slot, u32 lsize, bool human)
{
	struct json_object *e = json_object_new_object();
	char str[40], name[sizeof(l->name) + 1];
	uuid_t uu;

	memcpy(uu, l->uuid, sizeof(uu));
	uuid_unparse(uu, str);
	json_object_object_add(e, "uuid", json_object_new_string(str));
	memcpy(name, l->name, sizeof(l->name));
	name[sizeof(l->name)] = '\0';
	json_object_object_add(e, "name", json_object_new_string(name));
	json_object_object_add(e, "slot", json_object_new_int64(slot));
	json_object_object_add(e, "position", json_object_new_int(le16_to_cpu(l->position)));
	json_object_object_add(e, "nlabel", json_object_new_int(le16_to_cpu(l->nlabel)));
	json_object_object_add(e, "flags", json_hex(le32_to_cpu(l->flags), human));
	json_object_object_add(e, "isetcookie", json_hex(le64_to_cpu(l->isetcookie), human));
	json_object_object_add(e, "lbasize", json_object_new_int64(le64_to_cpu(l->lbasize)));
	json_object_object_add(e, "dpa", json_hex(le64_to_cpu(l->dpa), human));
	json_object_object_add(e, "rawsize", json_size(le64_to_cpu(l->rawsize), human));
	if (lsize >= ND_LSA_LABEL_V12) {
		guid_string(l->type_guid, str);
		json_object_object_add(e, "type_guid", json_object_new_string(str));
		guid_string(l->abstraction_guid, str);
		json_object_object_add(e, "abstraction_guid", json_object_new_string(str));
	}
	return e;
}

/*
 * The dump 76.1 prints: both index blocks as stored (valid or not), then
 * every slot whose own slot field names it, free or in use, checksum or
 * not: freed labels stay readable until their slot is reused.  Without a
 * valid index the geometry is the v1.1 one (128-byte labels after two
 * index blocks sized for the area).
 */
static struct json_object *labels_to_json(const char *devname,
		const unsigned char *area, unsigned int config_size, bool human)
{
	struct json_object *j = json_object_new_object(), *ji, *jl;
	struct nd_lsa lsa = { .area = (u8 *)area, .size = config_size };
	u32 nslot, k;
	int i;

	json_object_object_add(j, "dev", json_object_new_string(devname));
	if (nd_lsa_validate(&lsa) < 0) {
		lsa.lsize = ND_LSA_LABEL_V11;
		lsa.isize = nd_lsa_index_size(config_size, ND_LSA_LABEL_V11);
		if (!lsa.isize || 2ULL * lsa.isize > config_size)
			return j;
		nslot = (config_size - 2 * lsa.isize) / lsa.lsize;
	} else {
		nslot = nd_lsa_index_nslot(nd_lsa_index(&lsa, lsa.cur));
	}
	ji = json_object_new_array();
	for (i = 0; i < 2; i++) {
		const struct nd_lsa_index *ix = nd_lsa_index(&lsa, i);
		struct json_object *e = json_object_new_object();
		char sig[ND_LSA_SIG_LEN + 1];

		memcpy(sig, ix->sig, ND_LSA_SIG_LEN);
		sig[ND_LSA_SIG_LEN] = '\0';
		json_object_object_add(e, "signature", json_object_new_string(sig));
		json_object_object_add(e, "major", json_object_new_int(le16_to_cpu(ix->major)));
		json_object_object_add(e, "minor", json_object_new_int(le16_to_cpu(ix->minor)));
		json_object_object_add(e, "labelsize", json_object_new_int(lsa.lsize));
		json_object_object_add(e, "seq", json_object_new_int64(le32_to_cpu(ix->seq)));
		json_object_object_add(e, "nslot", json_object_new_int64(le32_to_cpu(ix->nslot)));
		json_object_array_add(ji, e);
	}
	json_object_object_add(j, "index", ji);
	jl = json_object_new_array();
	for (k = 0; k < nslot; k++) {
		const struct nd_lsa_label *l = nd_lsa_label(&lsa, k);

		/* a valid index's nslot fits the area (nd_lsa_validate) */
		if (le32_to_cpu(l->slot) != k)
			continue;
		json_object_array_add(jl, label_to_json(l, k, lsa.lsize, human));
	}
	json_object_object_add(j, "label", jl);
	return j;
}

static int write_all(FILE *f, const void *buf, size_t len)
{
	return fwrite(buf, 1, len, f) == len ? 0 : -EIO;
}

static int do_read(struct ndctl_dimm *dimm, struct label_opts *o, FILE *out,
		struct json_object *jarr)
{
	const char *devname = ndctl_dimm_get_devname(dimm);
	unsigned int config_size, off = o->offset, len;
	unsigned char *area;
	int rc;

	rc = ndctl_dimm_get_config_size(dimm, &config_size, NULL);
	if (rc) {
		fail("%s: cannot get the label area size: %s", devname, strerror(-rc));
		return rc;
	}
	if (o->json)
		off = 0, len = config_size;
	else if (o->index_only) {
		unsigned int i128 = nd_lsa_index_size(config_size, ND_LSA_LABEL_V11);

		off = 0;
		len = i128 && 2 * i128 < config_size ? 2 * i128 : config_size;
	} else {
		if (o->offset >= config_size) {
			fail("%s: offset %llu beyond the %u byte label area", devname,
					o->offset, config_size);
			return -EINVAL;
		}
		len = config_size - off;
		if (o->size && o->size < len)
			len = o->size;
	}
	area = calloc(1, config_size);
	if (!area)
		return -ENOMEM;
	rc = ndctl_dimm_read_label_area(dimm, area + off, off, len);
	if (rc) {
		fail("%s: label read failed: %s", devname, strerror(-rc));
	} else if (o->json) {
		/* the buffer was filled from offset 0: parse it whole */
		json_object_array_add(jarr, labels_to_json(devname, area,
					config_size, o->human));
	} else if ((rc = write_all(out, area + off, len))) {
		fail("%s: cannot write the label data: %s", devname, strerror(-rc));
	}
	free(area);
	return rc;
}

static void label_fail(struct ndctl_dimm *dimm, int rc)
{
	fail("%s: %s", ndctl_dimm_get_devname(dimm), rc == -EBUSY
			? "DIMM is active, disable the regions that use it first"
			: rc == -EOPNOTSUPP ? "no label area (label commands not supported)"
			: strerror(-rc));
}

/*
 * The range -s/-O select in the DIMM's label area: [*off, *off + *len),
 * size 0 meaning to the end.  -EINVAL, with the error line, when it does
 * not lie inside the area (nothing is then read or written).
 */
static int label_range(struct ndctl_dimm *dimm, const struct label_opts *o,
		unsigned int *off, unsigned int *len)
{
	const char *devname = ndctl_dimm_get_devname(dimm);
	unsigned int config_size;
	int rc;

	rc = ndctl_dimm_get_config_size(dimm, &config_size, NULL);
	if (rc) {
		label_fail(dimm, rc);
		return rc;
	}
	if (o->offset >= config_size) {
		fail("%s: offset %llu beyond the %u byte label area", devname,
				o->offset, config_size);
		return -EINVAL;
	}
	*off = o->offset;
	*len = config_size - *off;
	if (o->size > *len) {
		fail("%s: %llu bytes at offset %u do not fit the %u byte label area",
				devname, o->size, *off, config_size);
		return -EINVAL;
	}
	if (o->size)
		*len = o->size;
	return 0;
}

/*
 * Write @len bytes of @buf at @off of an idle DIMM's label area, then
 * rebind an enabled DIMM: the kernel reads the labels when it binds.
 */
static int write_labels_at(struct ndctl_dimm *dimm, const void *buf,
		unsigned int off, unsigned int len)
{
	const char *devname = ndctl_dimm_get_devname(dimm);
	int rc;

	if (!ndctl_dimm_has_labels_support(dimm))
		rc = -EOPNOTSUPP;
	else if (ndctl_dimm_is_active(dimm))
		rc = -EBUSY;
	else
		rc = ndctl_dimm_write_label_area(dimm, buf, off, len);
	if (rc) {
		label_fail(dimm, rc);
		return rc;
	}
	if (!ndctl_dimm_is_enabled(dimm))
		return 0;
	rc = ndctl_dimm_disable(dimm);
	if (!rc)
		rc = ndctl_dimm_enable(dimm);
	if (rc)
		fail("%s: labels written, but the DIMM did not bind again: %s",
				devname, strerror(-rc));
	return rc;
}

static int do_zero(struct ndctl_dimm *dimm, const struct label_opts *o)
{
	unsigned int off, len;
	unsigned char *zero;
	int rc;

	if (!o->size && !o->offset) {
		rc = ndctl_dimm_zero_labels(dimm);
		if (rc)
			label_fail(dimm, rc);
		return rc;
	}
	/* -s/-O: that range only (76.1 ignores -O and zeroes from 0) */
	rc = label_range(dimm, o, &off, &len);
	if (rc)
		return rc;
	zero = calloc(1, len);
	if (!zero)
		return -ENOMEM;
	rc = write_labels_at(dimm, zero, off, len);
	free(zero);
	return rc;
}

/* read up to @len bytes of @fd (a file or stdin); bytes read, or -errno */
static ssize_t read_input(int fd, unsigned char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		done += n;
	}
	return done;
}

/*
 * write-labels: the input's bytes at -O, at most -s of them (or up to the
 * end of the area); a shorter input leaves the rest of the area as it was,
 * a longer one is cut at the end of the range, as 76.1 does.
 */
static int do_write(struct ndctl_dimm *dimm, const struct label_opts *o, int in)
{
	const char *devname = ndctl_dimm_get_devname(dimm);
	unsigned int off, len;
	unsigned char *buf;
	ssize_t n;
	int rc;

	if (!ndctl_dimm_has_labels_support(dimm)) {
		label_fail(dimm, -EOPNOTSUPP);
		return -EOPNOTSUPP;
	}
	if (ndctl_dimm_is_active(dimm)) {
		label_fail(dimm, -EBUSY);
		return -EBUSY;
	}
	rc = label_range(dimm, o, &off, &len);
	if (rc)
		return rc;
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	n = read_input(in, buf, len);
	if (n < 0) {
		rc = (int)n;
		fail("cannot read %s: %s", o->input ? o->input : "stdin",
				strerror(-rc));
	} else if (n) {
		rc = write_labels_at(dimm, buf, off, (unsigned int)n);
	} else if (verbose) {
		note("%s: no input, nothing written", devname);
	}
	free(buf);
	return rc;
}

/*
 * check-labels: a DIMM passes when its label area has a valid namespace
 * index block (either of the two); -v says why one does not.
 */
static int do_check(struct ndctl_dimm *dimm)
{
	const char *devname = ndctl_dimm_get_devname(dimm);
	int rc;

	if (!ndctl_dimm_has_labels_support(dimm)) {
		if (verbose)
			note("%s: no label area (label commands not supported)", devname);
		return -EOPNOTSUPP;
	}
	rc = ndctl_dimm_get_label_version(dimm);
	if (rc > 0) {
		if (verbose)
			note("%s: valid v1.%d namespace index", devname, rc % 10);
		return 0;
	}
	if (verbose)
		note("%s: %s%s", devname, rc ? "cannot read the label area: "
				: "no valid namespace index block",
				rc ? strerror(-rc) : "");
	return rc ? rc : -ENXIO;
}

static int do_init(struct ndctl_dimm *dimm, struct label_opts *o)
{
	const char *devname = ndctl_dimm_get_devname(dimm);
	enum ndctl_label_version v = NDCTL_LABEL_V1_1;
	int rc;

	if (o->version && !strcmp(o->version, "1.2"))
		v = NDCTL_LABEL_V1_2;
	if (!ndctl_dimm_has_labels_support(dimm)) {
		fail("%s: no label area (label commands not supported)", devname);
		return -EOPNOTSUPP;
	}
	if (ndctl_dimm_is_active(dimm)) {
		fail("%s: DIMM is active, disable the regions that use it first",
				devname);
		return -EBUSY;
	}
	if (!o->force) {
		rc = ndctl_dimm_get_label_version(dimm);
		if (rc < 0) {
			fail("%s: cannot read the label area: %s", devname,
					strerror(-rc));
			return rc;
		}
		if (rc > 0) {
			fail("%s: has a valid v1.%d namespace index, use --force to overwrite",
					devname, rc % 10);
			return -EEXIST;
		}
	}
	rc = ndctl_dimm_init_labels(dimm, v);
	if (rc)
		fail("%s: label initialisation failed: %s", devname, strerror(-rc));
	return rc;
}

static int count_matches(struct ndctl_ctx *ctx, const char *bus_f,
		const char *target)
{
	struct ndctl_bus *bus;
	struct ndctl_dimm *dimm;
	int n = 0;

	ndctl_bus_foreach(ctx, bus)
		if (match_bus(bus, bus_f))
			ndctl_dimm_foreach(bus, dimm)
				n += match_dimm(dimm, target);
	return n;
}

static int label_cmd(int argc, char **argv, struct label_opts *o)
{
	static const struct option lopts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "size", required_argument, NULL, 's' },
		{ "offset", required_argument, NULL, 'O' },
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "human", no_argument, NULL, 'u' },
		{ "index", no_argument, NULL, 'I' },
		{ "force", no_argument, NULL, 'f' },
		{ "label-version", required_argument, NULL, 'V' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct {
		const struct cmd_help *help;
		const char *short_opts, *done;
	} ops[] = {
		[OP_READ] = { &read_help, "b:s:O:o:juIvh", "read" },
		[OP_WRITE] = { &write_help, "b:s:O:i:vh", "wrote" },
		[OP_ZERO] = { &zero_help, "b:s:O:vh", "zeroed" },
		[OP_INIT] = { &init_help, "b:fV:vh", "initialized" },
		[OP_CHECK] = { &check_help, "b:vh", NULL },
	};
	const struct cmd_help *help = ops[o->op].help;
	const char *short_opts = ops[o->op].short_opts;
	int in = -1;
	struct json_object *jarr = NULL;
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	FILE *out = stdout;
	int c, i, found = 0, done = 0, failed = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, short_opts, lopts, NULL)) != -1) {
		/* the table is shared: another label command's option is unknown */
		if (!opt_allowed(short_opts, c))
			return print_help(help, stderr);
		switch (c) {
		case 'b': o->bus = optarg; break;
		case 's':
			if (parse_size(optarg, &o->size)) {
				fail("invalid size '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'O':
			if (parse_size(optarg, &o->offset)) {
				fail("invalid offset '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'o': o->output = optarg; break;
		case 'i': o->input = optarg; break;
		case 'j': o->json = true; break;
		case 'u': o->json = o->human = true; break;
		case 'I': o->index_only = true; break;
		case 'f': o->force = true; break;
		case 'V': o->version = optarg; break;
		case 'v': verbose = 1; break;
		case 'h': return print_help(help, stdout);
		default: return print_help(help, stderr);
		}
	}
	if (optind >= argc) {
		fail("specify the DIMM(s): nmemX, a dimm id, or 'all'");
		return EXIT_USAGE;
	}
	if (o->version && strcmp(o->version, "1.1") && strcmp(o->version, "1.2")) {
		fail("unknown label version '%s' (1.1 or 1.2)", o->version);
		return EXIT_USAGE;
	}
	if (o->index_only && (o->size || o->offset)) {
		fail("--index excludes --size and --offset");
		return EXIT_USAGE;
	}
	/* 76.1: the dump is of the whole area */
	if (o->json && (o->size || o->offset)) {
		fail("--size and --offset are incompatible with --json");
		return EXIT_USAGE;
	}
	if (o->op == OP_WRITE && (argc - optind > 1 || !strcmp(argv[optind], "all"))) {
		fail("write-labels only supports writing a single dimm");
		return EXIT_USAGE;
	}
	if (o->op == OP_WRITE) {
		in = o->input ? open(o->input, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
		if (in < 0) {
			fail("cannot open %s: %s", o->input, strerror(errno));
			note("wrote 0 nmem");
			return 1;
		}
	}
	if (o->op == OP_READ && o->output) {
		out = fopen(o->output, "we");
		if (!out) {
			fail("cannot open %s: %s", o->output, strerror(errno));
			return 1;
		}
	}
	if (o->json)
		jarr = json_object_new_array();
	if (cli_ctx_new(&ctx)) {
		if (out != stdout)
			fclose(out);
		if (in > STDIN_FILENO)
			close(in);
		json_object_put(jarr);
		return 1;
	}
	/* write-labels: one DIMM (an id may name one on each bus) */
	if (o->op == OP_WRITE && count_matches(ctx, o->bus, argv[optind]) > 1) {
		fail("'%s' names more than one DIMM: add --bus", argv[optind]);
		ndctl_unref(ctx);
		if (in > STDIN_FILENO)
			close(in);
		return EXIT_USAGE;
	}
	ndctl_bus_foreach(ctx, bus) {
		struct ndctl_dimm *dimm;

		if (!match_bus(bus, o->bus))
			continue;
		ndctl_dimm_foreach(bus, dimm) {
			bool match = false;
			int rc;

			for (i = optind; i < argc; i++)
				if (match_dimm(dimm, argv[i]))
					match = true;
			if (!match)
				continue;
			found++;
			switch (o->op) {
			case OP_READ:
				rc = do_read(dimm, o, out, jarr);
				break;
			case OP_WRITE:
				rc = do_write(dimm, o, in);
				break;
			case OP_ZERO:
				rc = do_zero(dimm, o);
				break;
			case OP_CHECK:
				rc = do_check(dimm);
				break;
			default:
				rc = do_init(dimm, o);
				break;
			}
			if (rc)
				failed++;
			else
				done++;
		}
	}
	ndctl_unref(ctx);
	if (jarr) {
		if (json_object_array_length(jarr) == 1 && o->human)
			fprintf(out, "%s\n", json_object_to_json_string_ext(
					json_object_array_get_idx(jarr, 0),
					JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		else if (json_object_array_length(jarr))
			fprintf(out, "%s\n", json_object_to_json_string_ext(jarr,
					JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(jarr);
	}
	if (out != stdout && fclose(out)) {
		fail("cannot write %s: %s", o->output, strerror(errno));
		failed++;
	}
	if (in > STDIN_FILENO)
		close(in);
	/* 76.1: "read 0 nmem" and exit 0 */
	if (!found)
		note("no DIMM matches '%s'", argv[optind]);
	if (o->op == OP_CHECK) {
		/* 76.1: a failure only when DIMMs were checked and none passed */
		note("successfully verified %d nmem label%s", done,
				done > 1 ? "s" : "");
		return failed && !done ? 1 : 0;
	}
	note("%s %d nmem%s", ops[o->op].done, done, done == 1 ? "" : "s");
	return failed ? 1 : 0;
}

static int label_op(int argc, char **argv, enum label_op op)
{
	struct label_opts o = { .op = op };

	return label_cmd(argc, argv, &o);
}

int cmd_read_labels(int argc, char **argv)
{
	return label_op(argc, argv, OP_READ);
}

int cmd_write_labels(int argc, char **argv)
{
	return label_op(argc, argv, OP_WRITE);
}

int cmd_check_labels(int argc, char **argv)
{
	return label_op(argc, argv, OP_CHECK);
}

int cmd_zero_labels(int argc, char **argv)
{
	return label_op(argc, argv, OP_ZERO);
}

int cmd_init_labels(int argc, char **argv)
{
	return label_op(argc, argv, OP_INIT);
}
