// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libndctl core: context, bus, DIMM, region, mapping, namespace and btt
 * objects built from sysfs (docs/sysfs-abi.md in shared/).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libkmod.h>

#include "private.h"

/* ------------------------------------------------------------------ */
/* context and logging                                                 */

void ndctl_log(struct ndctl_ctx *ctx, int priority, const char *file,
		int line, const char *fn, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	ctx->log_fn(ctx, priority, file, line, fn, fmt, args);
	va_end(args);
}

static void log_stderr(struct ndctl_ctx *ctx, int priority, const char *file,
		int line, const char *fn, const char *fmt, va_list args)
{
	(void)ctx; (void)priority; (void)file; (void)line;
	fprintf(stderr, "libndctl: %s: ", fn);
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
}

static int log_priority(const char *s)
{
	char *end;
	long prio = strtol(s, &end, 10);

	if (end != s && (*end == '\0' || *end == '\n'))
		return prio;
	if (!strncmp(s, "err", 3))
		return LOG_ERR;
	if (!strncmp(s, "info", 4))
		return LOG_INFO;
	if (!strncmp(s, "debug", 5))
		return LOG_DEBUG;
	return LOG_ERR;
}

/*
 * Test hooks: NDCTL_SYSFS_ROOT / NDCTL_DEV_ROOT redirect every sysfs and
 * device access.  secure_getenv() ignores them in a setuid/setgid or
 * capability-raised program, whose environment must not pick the files
 * it writes.
 */
static char *root_from_env(const char *var, const char *def)
{
	const char *v = secure_getenv(var);
	size_t l;
	char *r;

	if (!v || !*v)
		v = def;
	r = strdup(v);
	if (!r)
		return NULL;
	l = strlen(r);
	while (l > 1 && r[l - 1] == '/')
		r[--l] = '\0';
	return r;
}

NDCTL_EXPORT int ndctl_new(struct ndctl_ctx **ctx)
{
	struct ndctl_ctx *c;
	const char *env;

	if (!ctx)
		return -EINVAL;
	*ctx = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->refcount = 1;
	c->log_fn = log_stderr;
	c->log_priority = LOG_ERR;
	env = getenv("NDCTL_LOG");
	if (env)
		c->log_priority = log_priority(env);
	c->sysfs_root = root_from_env("NDCTL_SYSFS_ROOT", "/sys");
	c->dev_root = root_from_env("NDCTL_DEV_ROOT", "/dev");
	if (!c->sysfs_root || !c->dev_root) {
		free(c->sysfs_root);
		free(c->dev_root);
		free(c);
		return -ENOMEM;
	}
	env = getenv("NDCTL_NO_MODPROBE");
	/* fake trees never get modules from the running kernel */
	c->no_modprobe = (env && *env && strcmp(env, "0"))
		|| strcmp(c->sysfs_root, "/sys") != 0;
	info(c, "ctx %p created, sysfs %s, dev %s", (void *)c, c->sysfs_root,
			c->dev_root);
	*ctx = c;
	return 0;
}

NDCTL_EXPORT struct ndctl_ctx *ndctl_ref(struct ndctl_ctx *ctx)
{
	if (ctx)
		ctx->refcount++;
	return ctx;
}

static void free_namespace(struct ndctl_namespace *ndns)
{
	free(ndns->path);
	free(ndns->devname);
	free(ndns->alt_name);
	free(ndns->bbs);
	free(ndns->injected);
	free(ndns);
}

static void free_btt(struct ndctl_btt *btt)
{
	free(btt->path);
	free(btt->devname);
	free(btt);
}

static void free_namespace_list(struct ndctl_namespace *n)
{
	while (n) {
		struct ndctl_namespace *next = n->next;

		free_namespace(n);
		n = next;
	}
}

static void free_btt_list(struct ndctl_btt *b)
{
	while (b) {
		struct ndctl_btt *next = b->next;

		free_btt(b);
		b = next;
	}
}

static void free_pfn_list(struct ndctl_pfn *p);
static void pfns_scan(struct ndctl_region *region, bool is_dax);
static struct ndctl_pfn *pfn_claiming(struct ndctl_namespace *ndns, bool is_dax);
static int pfn_is_enabled(struct ndctl_pfn *pfn);
static int pfn_delete(struct ndctl_pfn *pfn);

static void free_region(struct ndctl_region *region)
{
	struct ndctl_mapping *m = region->mappings;

	while (m) {
		struct ndctl_mapping *next = m->next;

		free(m);
		m = next;
	}
	free_namespace_list(region->namespaces);
	free_namespace_list(region->dead_namespaces);
	free_btt_list(region->btts);
	free_btt_list(region->dead_btts);
	free_pfn_list(region->pfns);
	free_pfn_list(region->daxs);
	free_pfn_list(region->dead_pfns);
	free(region->bbs);
	free(region->path);
	free(region->devname);
	free(region);
}

static void free_dimm(struct ndctl_dimm *dimm)
{
	free(dimm->path);
	free(dimm->devname);
	free(dimm->unique_id);
	free(dimm);
}

static void free_bus(struct ndctl_bus *bus)
{
	struct ndctl_region *r = bus->regions;
	struct ndctl_dimm *d = bus->dimms;

	while (r) {
		struct ndctl_region *next = r->next;

		free_region(r);
		r = next;
	}
	while (d) {
		struct ndctl_dimm *next = d->next;

		free_dimm(d);
		d = next;
	}
	free(bus->path);
	free(bus->devname);
	free(bus->provider);
	free(bus);
}

NDCTL_EXPORT struct ndctl_ctx *ndctl_unref(struct ndctl_ctx *ctx)
{
	struct ndctl_bus *bus;

	if (!ctx)
		return NULL;
	/* as upstream: NULL whether or not this dropped the last reference */
	if (--ctx->refcount > 0)
		return NULL;
	bus = ctx->buses;
	while (bus) {
		struct ndctl_bus *next = bus->next;

		free_bus(bus);
		bus = next;
	}
	if (ctx->kmod)
		kmod_unref(ctx->kmod);
	info(ctx, "ctx %p released", (void *)ctx);
	free(ctx->sysfs_root);
	free(ctx->dev_root);
	free(ctx);
	return NULL;
}

NDCTL_EXPORT void ndctl_set_log_fn(struct ndctl_ctx *ctx, ndctl_log_fn log_fn)
{
	if (!ctx)
		return;
	ctx->log_fn = log_fn ? log_fn : log_stderr;
}

NDCTL_EXPORT int ndctl_get_log_priority(struct ndctl_ctx *ctx)
{
	return ctx ? ctx->log_priority : -EINVAL;
}

NDCTL_EXPORT void ndctl_set_log_priority(struct ndctl_ctx *ctx, int priority)
{
	if (ctx)
		ctx->log_priority = priority;
}

NDCTL_EXPORT void ndctl_set_userdata(struct ndctl_ctx *ctx, void *userdata)
{
	if (ctx)
		ctx->userdata = userdata;
}

NDCTL_EXPORT void *ndctl_get_userdata(struct ndctl_ctx *ctx)
{
	return ctx ? ctx->userdata : NULL;
}

NDCTL_EXPORT const char *ndctl_get_sysfs_root(struct ndctl_ctx *ctx)
{
	return ctx ? ctx->sysfs_root : NULL;
}

NDCTL_EXPORT const char *ndctl_get_dev_root(struct ndctl_ctx *ctx)
{
	return ctx ? ctx->dev_root : NULL;
}

NDCTL_EXPORT int ndctl_get_scan_errors(struct ndctl_ctx *ctx)
{
	return ctx ? ctx->scan_errors : -EINVAL;
}

static void scan_error(struct ndctl_ctx *ctx, int rc)
{
	ctx->scan_errors = rc;
}

/* ------------------------------------------------------------------ */
/* directory scanning: sorted list of (id, name) for matching entries   */

struct dent {
	unsigned int id;
	char name[256];
};

typedef int (*match_fn)(const char *name, unsigned int parent_id,
		const char *prefix, unsigned int *id);

static int match_plain(const char *name, unsigned int parent_id,
		const char *prefix, unsigned int *id)
{
	(void)parent_id;
	return nd_parse_devname_id(name, prefix, id);
}

static int match_child(const char *name, unsigned int parent_id,
		const char *prefix, unsigned int *id)
{
	return nd_parse_child_id(name, prefix, parent_id, id);
}

static int dent_cmp(const void *a, const void *b)
{
	const struct dent *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* returns count (>= 0) and a malloc'ed array, or -errno */
static int scan_dir(struct ndctl_ctx *ctx, const char *dir, const char *prefix,
		unsigned int parent_id, match_fn match, struct dent **out)
{
	struct dent *v = NULL;
	struct dirent *de;
	int n = 0, cap = 0;
	DIR *d;

	*out = NULL;
	d = opendir(dir);
	if (!d) {
		int rc = -errno;

		dbg(ctx, "opendir %s: %s", dir, strerror(errno));
		return rc;
	}
	while ((de = readdir(d))) {
		unsigned int id;

		if (strlen(de->d_name) >= sizeof(v->name))
			continue;
		if (match(de->d_name, parent_id, prefix, &id))
			continue;
		if (n == cap) {
			struct dent *nv;

			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
		}
		v[n].id = id;
		strcpy(v[n].name, de->d_name);
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), dent_cmp);
	*out = v;
	return n;
}

/* ------------------------------------------------------------------ */
/* bus                                                                 */

static void bus_wait_probe(struct ndctl_bus *bus)
{
	char buf[ND_ATTR_MAX];

	/* the read blocks in the kernel until probing has settled (§1.6) */
	nd_read_attr(bus->ctx, bus->path, "wait_probe", buf);
}

NDCTL_EXPORT int ndctl_bus_wait_probe(struct ndctl_bus *bus)
{
	char buf[ND_ATTR_MAX];

	if (!bus)
		return -EINVAL;
	return nd_read_attr(bus->ctx, bus->path, "wait_probe", buf);
}

static struct ndctl_bus *add_bus(struct ndctl_ctx *ctx, const char *ctl_dir,
		unsigned int id)
{
	char buf[ND_ATTR_MAX], path[PATH_MAX];
	struct ndctl_bus *bus;
	char *real;
	int rc;

	bus = calloc(1, sizeof(*bus));
	if (!bus)
		return NULL;
	bus->ctx = ctx;
	bus->id = id;
	rc = nd_read_attr(ctx, ctl_dir, "dev", buf);
	if (rc || sscanf(buf, "%u:%u", &bus->major, &bus->minor) != 2) {
		err(ctx, "ndctl%u: unreadable 'dev' attribute", id);
		goto fail;
	}
	if (nd_path(path, sizeof(path), ctl_dir, "device"))
		goto fail;
	real = realpath(path, NULL);
	if (!real) {
		err(ctx, "ndctl%u: no bus device: %s", id, strerror(errno));
		goto fail;
	}
	bus->path = real;
	bus->devname = strdup(strrchr(real, '/') ? strrchr(real, '/') + 1 : real);
	if (!bus->devname)
		goto fail;
	rc = nd_read_attr(ctx, bus->path, "commands", buf);
	if (rc) {
		err(ctx, "%s: unreadable 'commands' attribute", bus->devname);
		goto fail;
	}
	bus->cmd_mask = nd_parse_cmd_mask(buf, false);
	rc = nd_read_attr(ctx, bus->path, "provider", buf);
	if (rc || !buf[0]) {
		err(ctx, "%s: unreadable 'provider' attribute", bus->devname);
		goto fail;
	}
	bus->provider = strdup(buf);
	if (!bus->provider)
		goto fail;
	bus->has_nfit = nd_read_attr(ctx, bus->path, "nfit/revision", buf) == 0;
	if (nd_read_attr(ctx, bus->path, "nfit/scrub", buf) == 0) {
		size_t l = strlen(buf);

		snprintf(bus->scrub_state, sizeof(bus->scrub_state), "%s",
				l && buf[l - 1] == '+' ? "active" : "idle");
	}
	dbg(ctx, "bus %s provider %s", bus->devname, bus->provider);
	return bus;
fail:
	scan_error(ctx, -ENXIO);
	free_bus(bus);
	return NULL;
}

static void buses_init(struct ndctl_ctx *ctx)
{
	char dir[PATH_MAX], ctl[PATH_MAX];
	struct ndctl_bus **tail = &ctx->buses;
	struct dent *v;
	int n, i;

	if (ctx->buses_init)
		return;
	ctx->buses_init = true;
	if (nd_path(dir, sizeof(dir), ctx->sysfs_root, "class/nd"))
		return;
	n = scan_dir(ctx, dir, "ndctl", 0, match_plain, &v);
	if (n < 0) {
		dbg(ctx, "no %s: %s", dir, strerror(-n));
		return;
	}
	for (i = 0; i < n; i++) {
		struct ndctl_bus *bus;

		if (nd_path(ctl, sizeof(ctl), dir, v[i].name))
			continue;
		bus = add_bus(ctx, ctl, v[i].id);
		if (!bus)
			continue;
		*tail = bus;
		tail = &bus->next;
	}
	free(v);
}

NDCTL_EXPORT struct ndctl_bus *ndctl_bus_get_first(struct ndctl_ctx *ctx)
{
	if (!ctx)
		return NULL;
	buses_init(ctx);
	return ctx->buses;
}

NDCTL_EXPORT struct ndctl_bus *ndctl_bus_get_next(struct ndctl_bus *bus)
{
	return bus ? bus->next : NULL;
}

NDCTL_EXPORT struct ndctl_ctx *ndctl_bus_get_ctx(struct ndctl_bus *bus)
{
	return bus ? bus->ctx : NULL;
}

NDCTL_EXPORT unsigned int ndctl_bus_get_id(struct ndctl_bus *bus)
{
	return bus ? bus->id : 0;
}

NDCTL_EXPORT const char *ndctl_bus_get_devname(struct ndctl_bus *bus)
{
	return bus ? bus->devname : NULL;
}

NDCTL_EXPORT const char *ndctl_bus_get_provider(struct ndctl_bus *bus)
{
	return bus ? bus->provider : NULL;
}

NDCTL_EXPORT const char *ndctl_bus_get_path(struct ndctl_bus *bus)
{
	return bus ? bus->path : NULL;
}

NDCTL_EXPORT unsigned int ndctl_bus_get_major(struct ndctl_bus *bus)
{
	return bus ? bus->major : 0;
}

NDCTL_EXPORT unsigned int ndctl_bus_get_minor(struct ndctl_bus *bus)
{
	return bus ? bus->minor : 0;
}

NDCTL_EXPORT int ndctl_bus_has_nfit(struct ndctl_bus *bus)
{
	return bus ? bus->has_nfit : 0;
}

NDCTL_EXPORT int ndctl_bus_is_cmd_supported(struct ndctl_bus *bus, int cmd)
{
	if (!bus || cmd < 0 || cmd >= 64)
		return 0;
	return !!(bus->cmd_mask & (1ULL << cmd));
}

NDCTL_EXPORT const char *ndctl_bus_get_cmd_name(struct ndctl_bus *bus, int cmd)
{
	(void)bus;
	return nd_cmd_name(cmd, false);
}

/* the scrub moves on: read nfit/scrub again at each call */
NDCTL_EXPORT const char *ndctl_bus_get_scrub_state(struct ndctl_bus *bus)
{
	char buf[ND_ATTR_MAX];

	if (!bus)
		return NULL;
	if (nd_read_attr(bus->ctx, bus->path, "nfit/scrub", buf) == 0) {
		size_t l = strlen(buf);

		snprintf(bus->scrub_state, sizeof(bus->scrub_state), "%s",
				l && buf[l - 1] == '+' ? "active" : "idle");
	}
	if (!bus->scrub_state[0])
		return NULL;
	return bus->scrub_state;
}

NDCTL_EXPORT struct ndctl_bus *ndctl_bus_get_by_provider(struct ndctl_ctx *ctx,
		const char *provider)
{
	struct ndctl_bus *bus;

	if (!provider)
		return NULL;
	ndctl_bus_foreach(ctx, bus)
		if (strcmp(provider, ndctl_bus_get_provider(bus)) == 0)
			return bus;
	return NULL;
}

/* ------------------------------------------------------------------ */
/* modules and bind                                                    */

static int load_module_for(struct ndctl_ctx *ctx, const char *dir,
		const char *devname)
{
	struct kmod_list *list = NULL, *l;
	char alias[ND_ATTR_MAX];
	int rc;

	rc = nd_read_attr(ctx, dir, "modalias", alias);
	if (rc) {
		err(ctx, "%s: unreadable 'modalias' attribute", devname);
		return rc;
	}
	if (ctx->no_modprobe) {
		dbg(ctx, "%s: module loading disabled, alias %s", devname, alias);
		return 0;
	}
	if (!ctx->kmod) {
		ctx->kmod = kmod_new(NULL, NULL);
		if (!ctx->kmod) {
			err(ctx, "%s: libkmod unavailable", devname);
			return -ENXIO;
		}
		kmod_load_resources(ctx->kmod);
	}
	rc = kmod_module_new_from_lookup(ctx->kmod, alias, &list);
	if (rc < 0) {
		err(ctx, "%s: module lookup for %s failed: %s", devname, alias,
				strerror(-rc));
		return rc;
	}
	if (!list) {
		dbg(ctx, "%s: no module for %s (built in?)", devname, alias);
		return 0;
	}
	kmod_list_foreach(l, list) {
		struct kmod_module *mod = kmod_module_get_module(l);

		rc = kmod_module_probe_insert_module(mod,
				KMOD_PROBE_APPLY_BLACKLIST, NULL, NULL, NULL, NULL);
		if (rc < 0)
			err(ctx, "%s: loading module %s failed: %s", devname,
					kmod_module_get_name(mod), strerror(-rc));
		kmod_module_unref(mod);
		if (rc < 0)
			break;
		rc = 0;
	}
	kmod_module_unref_list(list);
	return rc < 0 ? rc : 0;
}

static int enable_device(struct ndctl_ctx *ctx, const char *dir,
		const char *devname)
{
	int rc;

	if (nd_is_bound(dir))
		return 0;
	rc = load_module_for(ctx, dir, devname);
	if (rc)
		return rc;
	return nd_bind(ctx, dir, devname);
}

/* ------------------------------------------------------------------ */
/* DIMMs                                                               */

static const struct {
	const char *name;
	unsigned int flag;
} nfit_flag_names[] = {
	{ "save_fail", DIMM_FLAG_SAVE_FAIL },
	{ "restore_fail", DIMM_FLAG_RESTORE_FAIL },
	{ "flush_fail", DIMM_FLAG_FLUSH_FAIL },
	{ "not_armed", DIMM_FLAG_NOT_ARMED },
	{ "smart_event", DIMM_FLAG_SMART_EVENT },
	{ "map_fail", DIMM_FLAG_MAP_FAIL },
	{ "smart_notify", DIMM_FLAG_SMART_NOTIFY },
};

static unsigned int parse_nfit_flags(const char *buf)
{
	unsigned int flags = 0;
	const char *p = buf;

	while (*p) {
		const char *sp = strchr(p, ' ');
		size_t tl, i;

		if (!sp)
			break;
		tl = sp - p;
		for (i = 0; i < sizeof(nfit_flag_names) / sizeof(nfit_flag_names[0]); i++)
			if (strlen(nfit_flag_names[i].name) == tl
					&& !strncmp(nfit_flag_names[i].name, p, tl))
				flags |= nfit_flag_names[i].flag;
		p = sp + 1;
	}
	return flags;
}

static int read_u16(struct ndctl_ctx *ctx, const char *dir, const char *attr,
		unsigned short *out)
{
	unsigned long long v;
	int rc = nd_read_ull(ctx, dir, attr, &v);

	if (rc)
		return rc;
	if (v > 0xffff)
		return -ERANGE;
	*out = v;
	return 0;
}

/*
 * nfit/dirty_shutdown: the kernel prints the DIMM's u32 count with "%d",
 * so a decimal int, negative for a count above INT_MAX.  Anything else is
 * logged and counts as absent (-ENOENT); 76.1 takes what strtoll() makes
 * of it.
 */
static long long read_dirty_shutdown(struct ndctl_ctx *ctx, const char *dir,
		const char *name)
{
	char buf[ND_ATTR_MAX], *end;
	long long v;

	if (nd_read_attr(ctx, dir, "nfit/dirty_shutdown", buf))
		return -ENOENT;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (end == buf || *end || errno || v < INT_MIN
			|| v > INT_MAX) {
		dbg(ctx, "%s: nfit/dirty_shutdown not a count: '%.40s'", name, buf);
		return -ENOENT;
	}
	return v;
}

static struct ndctl_dimm *add_dimm(struct ndctl_bus *bus, const char *dir,
		const char *name, unsigned int id)
{
	struct ndctl_ctx *ctx = bus->ctx;
	char buf[ND_ATTR_MAX];
	struct ndctl_dimm *dimm;
	unsigned long long v;

	dimm = calloc(1, sizeof(*dimm));
	if (!dimm)
		return NULL;
	dimm->bus = bus;
	dimm->id = id;
	dimm->path = strdup(dir);
	dimm->devname = strdup(name);
	if (!dimm->path || !dimm->devname)
		goto fail;
	if (nd_read_attr(ctx, dir, "dev", buf)
			|| sscanf(buf, "%u:%u", &dimm->major, &dimm->minor) != 2) {
		err(ctx, "%s: unreadable 'dev' attribute", name);
		goto fail;
	}
	if (nd_read_attr(ctx, dir, "commands", buf)) {
		err(ctx, "%s: unreadable 'commands' attribute", name);
		goto fail;
	}
	dimm->cmd_mask = nd_parse_cmd_mask(buf, true);
	if (nd_read_attr(ctx, dir, "modalias", buf)) {
		err(ctx, "%s: unreadable 'modalias' attribute", name);
		goto fail;
	}
	if (nd_read_ull(ctx, dir, "nfit/handle", &v) == 0 && v <= UINT_MAX)
		dimm->handle = v;
	else if (bus->has_nfit) {
		err(ctx, "%s: unreadable 'nfit/handle' attribute", name);
		goto fail;
	} else
		dimm->handle = UINT_MAX;
	if (read_u16(ctx, dir, "nfit/phys_id", &dimm->phys_id)) {
		if (bus->has_nfit) {
			err(ctx, "%s: unreadable 'nfit/phys_id' attribute", name);
			goto fail;
		}
		dimm->phys_id = USHRT_MAX;
	}
	if (read_u16(ctx, dir, "nfit/vendor", &dimm->vendor))
		dimm->vendor = USHRT_MAX;
	if (read_u16(ctx, dir, "nfit/device", &dimm->device))
		dimm->device = USHRT_MAX;
	if (read_u16(ctx, dir, "nfit/rev_id", &dimm->revision))
		dimm->revision = USHRT_MAX;
	if (read_u16(ctx, dir, "nfit/format", &dimm->format))
		dimm->format = USHRT_MAX;
	if (nd_read_ull(ctx, dir, "nfit/serial", &v) == 0 && v <= UINT_MAX)
		dimm->serial = v;
	else
		dimm->serial = UINT_MAX;
	if (nd_read_attr(ctx, dir, "nfit/id", buf) == 0 && buf[0]) {
		dimm->unique_id = strdup(buf);
		if (!dimm->unique_id)
			goto fail;
	}
	if (nd_read_attr(ctx, dir, "nfit/flags", buf) == 0)
		dimm->nfit_flags = parse_nfit_flags(buf);
	dimm->dirty_shutdown = read_dirty_shutdown(ctx, dir, name);
	if (nd_read_attr(ctx, dir, "security", buf) == 0 && buf[0]
			&& strlen(buf) < sizeof(dimm->security))
		strcpy(dimm->security, buf);
	return dimm;
fail:
	scan_error(ctx, -ENXIO);
	free_dimm(dimm);
	return NULL;
}

static void dimms_init(struct ndctl_bus *bus)
{
	struct ndctl_dimm **tail = &bus->dimms;
	char path[PATH_MAX];
	struct dent *v;
	int n, i;

	if (bus->dimms_init)
		return;
	bus->dimms_init = true;
	bus_wait_probe(bus);
	n = scan_dir(bus->ctx, bus->path, "nmem", 0, match_plain, &v);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		struct ndctl_dimm *dimm;

		if (nd_path(path, sizeof(path), bus->path, v[i].name))
			continue;
		dimm = add_dimm(bus, path, v[i].name, v[i].id);
		if (!dimm)
			continue;
		*tail = dimm;
		tail = &dimm->next;
	}
	free(v);
}

NDCTL_EXPORT struct ndctl_dimm *ndctl_dimm_get_first(struct ndctl_bus *bus)
{
	if (!bus)
		return NULL;
	dimms_init(bus);
	return bus->dimms;
}

NDCTL_EXPORT struct ndctl_dimm *ndctl_dimm_get_next(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->next : NULL;
}

static struct ndctl_dimm *dimm_by_id(struct ndctl_bus *bus, unsigned int id)
{
	struct ndctl_dimm *dimm;

	ndctl_dimm_foreach(bus, dimm)
		if (dimm->id == id)
			return dimm;
	return NULL;
}

NDCTL_EXPORT struct ndctl_bus *ndctl_dimm_get_bus(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->bus : NULL;
}

NDCTL_EXPORT struct ndctl_ctx *ndctl_dimm_get_ctx(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->bus->ctx : NULL;
}

NDCTL_EXPORT unsigned int ndctl_dimm_get_id(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->id : 0;
}

NDCTL_EXPORT const char *ndctl_dimm_get_devname(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->devname : NULL;
}

NDCTL_EXPORT unsigned int ndctl_dimm_get_handle(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->handle : UINT_MAX;
}

NDCTL_EXPORT unsigned short ndctl_dimm_get_phys_id(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->phys_id : USHRT_MAX;
}

NDCTL_EXPORT unsigned short ndctl_dimm_get_vendor(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->vendor : USHRT_MAX;
}

NDCTL_EXPORT unsigned short ndctl_dimm_get_device(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->device : USHRT_MAX;
}

NDCTL_EXPORT unsigned short ndctl_dimm_get_revision(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->revision : USHRT_MAX;
}

NDCTL_EXPORT unsigned short ndctl_dimm_get_format(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->format : USHRT_MAX;
}

NDCTL_EXPORT unsigned int ndctl_dimm_get_serial(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->serial : UINT_MAX;
}

NDCTL_EXPORT const char *ndctl_dimm_get_unique_id(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->unique_id : NULL;
}

NDCTL_EXPORT unsigned int ndctl_dimm_handle_get_node(struct ndctl_dimm *dimm)
{
	return dimm ? (dimm->handle >> 16) & 0xfff : 0;
}

NDCTL_EXPORT unsigned int ndctl_dimm_handle_get_socket(struct ndctl_dimm *dimm)
{
	return dimm ? (dimm->handle >> 12) & 0xf : 0;
}

NDCTL_EXPORT unsigned int ndctl_dimm_handle_get_imc(struct ndctl_dimm *dimm)
{
	return dimm ? (dimm->handle >> 8) & 0xf : 0;
}

NDCTL_EXPORT unsigned int ndctl_dimm_handle_get_channel(struct ndctl_dimm *dimm)
{
	return dimm ? (dimm->handle >> 4) & 0xf : 0;
}

NDCTL_EXPORT unsigned int ndctl_dimm_handle_get_dimm(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->handle & 0xf : 0;
}

NDCTL_EXPORT unsigned int ndctl_dimm_get_major(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->major : 0;
}

NDCTL_EXPORT unsigned int ndctl_dimm_get_minor(struct ndctl_dimm *dimm)
{
	return dimm ? dimm->minor : 0;
}

NDCTL_EXPORT int ndctl_dimm_is_cmd_supported(struct ndctl_dimm *dimm, int cmd)
{
	if (!dimm || cmd < 0 || cmd >= 64)
		return 0;
	return !!(dimm->cmd_mask & (1ULL << cmd));
}

NDCTL_EXPORT int ndctl_dimm_has_labels_support(struct ndctl_dimm *dimm)
{
	return ndctl_dimm_is_cmd_supported(dimm, ND_CMD_GET_CONFIG_SIZE)
		&& ndctl_dimm_is_cmd_supported(dimm, ND_CMD_GET_CONFIG_DATA)
		&& ndctl_dimm_is_cmd_supported(dimm, ND_CMD_SET_CONFIG_DATA);
}

NDCTL_EXPORT int ndctl_dimm_failed_save(struct ndctl_dimm *dimm)
{
	return dimm ? !!(dimm->nfit_flags & DIMM_FLAG_SAVE_FAIL) : 0;
}

NDCTL_EXPORT int ndctl_dimm_failed_restore(struct ndctl_dimm *dimm)
{
	return dimm ? !!(dimm->nfit_flags & DIMM_FLAG_RESTORE_FAIL) : 0;
}

NDCTL_EXPORT int ndctl_dimm_failed_flush(struct ndctl_dimm *dimm)
{
	return dimm ? !!(dimm->nfit_flags & DIMM_FLAG_FLUSH_FAIL) : 0;
}

NDCTL_EXPORT int ndctl_dimm_failed_arm(struct ndctl_dimm *dimm)
{
	return dimm ? !!(dimm->nfit_flags & DIMM_FLAG_NOT_ARMED) : 0;
}

NDCTL_EXPORT int ndctl_dimm_failed_map(struct ndctl_dimm *dimm)
{
	return dimm ? !!(dimm->nfit_flags & DIMM_FLAG_MAP_FAIL) : 0;
}

NDCTL_EXPORT int ndctl_dimm_smart_pending(struct ndctl_dimm *dimm)
{
	return dimm ? !!(dimm->nfit_flags & DIMM_FLAG_SMART_EVENT) : 0;
}

NDCTL_EXPORT const char *ndctl_dimm_get_security(struct ndctl_dimm *dimm)
{
	if (!dimm || !dimm->security[0])
		return NULL;
	return dimm->security;
}

NDCTL_EXPORT int ndctl_dimm_is_enabled(struct ndctl_dimm *dimm)
{
	if (!dimm)
		return 0;
	bus_wait_probe(dimm->bus);
	return nd_is_bound(dimm->path);
}

NDCTL_EXPORT int ndctl_dimm_is_active(struct ndctl_dimm *dimm)
{
	char buf[ND_ATTR_MAX];

	if (!dimm)
		return 0;
	if (nd_read_attr(dimm->bus->ctx, dimm->path, "state", buf))
		return 0;
	return strcmp(buf, "active") == 0;
}

NDCTL_EXPORT int ndctl_dimm_enable(struct ndctl_dimm *dimm)
{
	if (!dimm)
		return -EINVAL;
	return enable_device(dimm->bus->ctx, dimm->path, dimm->devname);
}

NDCTL_EXPORT int ndctl_dimm_disable(struct ndctl_dimm *dimm)
{
	if (!dimm)
		return -EINVAL;
	if (ndctl_dimm_is_active(dimm)) {
		err(dimm->bus->ctx, "%s: active, disable its regions first",
				dimm->devname);
		return -EBUSY;
	}
	return nd_unbind(dimm->bus->ctx, dimm->path, dimm->devname);
}

NDCTL_EXPORT int ndctl_dimm_get_available_labels(struct ndctl_dimm *dimm)
{
	unsigned int v;
	int rc;

	if (!dimm)
		return -EINVAL;
	rc = nd_read_uint(dimm->bus->ctx, dimm->path, "available_slots", &v);
	if (rc)
		return rc;
	return v > INT_MAX ? -ERANGE : (int)v;
}

NDCTL_EXPORT struct ndctl_dimm *ndctl_dimm_get_by_handle(struct ndctl_bus *bus,
		unsigned int handle)
{
	struct ndctl_dimm *dimm;

	ndctl_dimm_foreach(bus, dimm)
		if (ndctl_dimm_get_handle(dimm) == handle)
			return dimm;
	return NULL;
}

/* ------------------------------------------------------------------ */
/* regions and mappings                                                */

static void add_mappings(struct ndctl_region *region)
{
	struct ndctl_ctx *ctx = region->bus->ctx;
	struct ndctl_mapping **tail = &region->mappings;
	unsigned int i;

	for (i = 0; i < region->mappings_count && i < 1024; i++) {
		char attr[32], buf[ND_ATTR_MAX], extra;
		unsigned long long off, len;
		struct ndctl_mapping *m;
		unsigned int dimm_id;
		int pos = NDCTL_NO_POSITION, n;

		snprintf(attr, sizeof(attr), "mapping%u", i);
		if (nd_read_attr(ctx, region->path, attr, buf)) {
			dbg(ctx, "%s: %s unreadable, skipped", region->devname, attr);
			continue;
		}
		n = sscanf(buf, "nmem%u,%llu,%llu,%d%c", &dimm_id, &off, &len,
				&pos, &extra);
		if (n < 3 || n > 4) {
			dbg(ctx, "%s: %s unparsable: '%.60s'", region->devname,
					attr, buf);
			continue;
		}
		if (n == 3)
			pos = NDCTL_NO_POSITION;
		m = calloc(1, sizeof(*m));
		if (!m)
			return;
		m->region = region;
		m->dimm = dimm_by_id(region->bus, dimm_id);
		if (!m->dimm) {
			dbg(ctx, "%s: %s names unknown nmem%u", region->devname,
					attr, dimm_id);
			free(m);
			continue;
		}
		m->offset = off;
		m->length = len;
		m->position = pos;
		*tail = m;
		tail = &m->next;
	}
}

static struct ndctl_region *add_region(struct ndctl_bus *bus, const char *dir,
		const char *name, unsigned int id)
{
	struct ndctl_ctx *ctx = bus->ctx;
	char buf[ND_ATTR_MAX];
	struct ndctl_region *region;
	unsigned long long v;

	region = calloc(1, sizeof(*region));
	if (!region)
		return NULL;
	region->bus = bus;
	region->id = id;
	region->path = strdup(dir);
	region->devname = strdup(name);
	if (!region->path || !region->devname)
		goto fail;
	if (nd_read_ull(ctx, dir, "size", &region->size)) {
		err(ctx, "%s: unreadable 'size' attribute", name);
		goto fail;
	}
	if (nd_read_uint(ctx, dir, "mappings", &region->mappings_count)) {
		err(ctx, "%s: unreadable 'mappings' attribute", name);
		goto fail;
	}
	if (nd_read_uint(ctx, dir, "nstype", &region->nstype)) {
		err(ctx, "%s: unreadable 'nstype' attribute", name);
		goto fail;
	}
	if (nd_read_ull(ctx, dir, "read_only", &v)) {
		err(ctx, "%s: unreadable 'read_only' attribute", name);
		goto fail;
	}
	region->read_only = !!v;
	if (nd_read_attr(ctx, dir, "modalias", buf)) {
		err(ctx, "%s: unreadable 'modalias' attribute", name);
		goto fail;
	}
	switch (region->nstype) {
	case ND_DEVICE_NAMESPACE_IO:
	case ND_DEVICE_NAMESPACE_PMEM:
		region->type = ND_DEVICE_REGION_PMEM;
		break;
	case ND_DEVICE_NAMESPACE_BLK:
		region->type = ND_DEVICE_REGION_BLK;
		break;
	default:
		if (!strcmp(buf, "nd:t3"))
			region->type = ND_DEVICE_REGION_BLK;
		else if (!strcmp(buf, "nd:t2"))
			region->type = ND_DEVICE_REGION_PMEM;
		else {
			err(ctx, "%s: unknown nstype %u", name, region->nstype);
			goto fail;
		}
	}
	if (region->nstype == ND_DEVICE_NAMESPACE_PMEM) {
		if (nd_read_ull(ctx, dir, "set_cookie", &region->set_cookie)) {
			err(ctx, "%s: unreadable 'set_cookie' attribute", name);
			goto fail;
		}
	}
	if (nd_read_uint(ctx, dir, "nfit/range_index", &region->range_index))
		region->range_index = NDCTL_NO_SPA_INDEX;
	if (nd_read_ull(ctx, dir, "align", &region->align))
		region->align = 0;
	if (nd_read_ull(ctx, dir, "resource", &region->resource))
		region->resource = ULLONG_MAX;
	if (nd_read_attr(ctx, dir, "numa_node", buf)
			|| nd_parse_int(buf, &region->numa_node))
		region->numa_node = -1;
	if (nd_read_attr(ctx, dir, "persistence_domain", buf) == 0
			&& strlen(buf) < sizeof(region->persistence_domain))
		strcpy(region->persistence_domain, buf);
	add_mappings(region);
	return region;
fail:
	scan_error(ctx, -ENXIO);
	free_region(region);
	return NULL;
}

static void regions_init(struct ndctl_bus *bus)
{
	struct ndctl_region **tail = &bus->regions;
	char path[PATH_MAX];
	struct dent *v;
	int n, i;

	if (bus->regions_init)
		return;
	bus->regions_init = true;
	dimms_init(bus);
	bus_wait_probe(bus);
	n = scan_dir(bus->ctx, bus->path, "region", 0, match_plain, &v);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		struct ndctl_region *region;

		if (nd_path(path, sizeof(path), bus->path, v[i].name))
			continue;
		region = add_region(bus, path, v[i].name, v[i].id);
		if (!region)
			continue;
		*tail = region;
		tail = &region->next;
	}
	free(v);
}

NDCTL_EXPORT struct ndctl_region *ndctl_region_get_first(struct ndctl_bus *bus)
{
	if (!bus)
		return NULL;
	regions_init(bus);
	return bus->regions;
}

NDCTL_EXPORT struct ndctl_region *ndctl_region_get_next(struct ndctl_region *region)
{
	return region ? region->next : NULL;
}

NDCTL_EXPORT struct ndctl_bus *ndctl_region_get_bus(struct ndctl_region *region)
{
	return region ? region->bus : NULL;
}

NDCTL_EXPORT struct ndctl_ctx *ndctl_region_get_ctx(struct ndctl_region *region)
{
	return region ? region->bus->ctx : NULL;
}

NDCTL_EXPORT unsigned int ndctl_region_get_id(struct ndctl_region *region)
{
	return region ? region->id : 0;
}

NDCTL_EXPORT const char *ndctl_region_get_devname(struct ndctl_region *region)
{
	return region ? region->devname : NULL;
}

NDCTL_EXPORT unsigned int ndctl_region_get_type(struct ndctl_region *region)
{
	return region ? region->type : 0;
}

NDCTL_EXPORT const char *ndctl_region_get_type_name(struct ndctl_region *region)
{
	if (!region)
		return NULL;
	return region->type == ND_DEVICE_REGION_PMEM ? "pmem" : "blk";
}

NDCTL_EXPORT unsigned int ndctl_region_get_nstype(struct ndctl_region *region)
{
	return region ? region->nstype : 0;
}

NDCTL_EXPORT unsigned int ndctl_region_get_spa_index(struct ndctl_region *region)
{
	return region ? region->range_index : NDCTL_NO_SPA_INDEX;
}

NDCTL_EXPORT unsigned int ndctl_region_get_range_index(struct ndctl_region *region)
{
	return ndctl_region_get_spa_index(region);
}

NDCTL_EXPORT unsigned long long ndctl_region_get_size(struct ndctl_region *region)
{
	return region ? region->size : 0;
}

NDCTL_EXPORT unsigned long long ndctl_region_get_available_size(
		struct ndctl_region *region)
{
	unsigned long long v;

	if (!region)
		return 0;
	/* label-less regions have no allocatable capacity (§6) */
	if (region->nstype != ND_DEVICE_NAMESPACE_PMEM
			&& region->nstype != ND_DEVICE_NAMESPACE_BLK)
		return 0;
	if (nd_read_ull(region->bus->ctx, region->path, "available_size", &v)) {
		err(region->bus->ctx, "%s: unreadable 'available_size'",
				region->devname);
		return 0;
	}
	return v;
}

NDCTL_EXPORT unsigned long long ndctl_region_get_max_available_extent(
		struct ndctl_region *region)
{
	unsigned long long v;

	if (!region)
		return ULLONG_MAX;
	if (nd_read_ull(region->bus->ctx, region->path, "max_available_extent", &v))
		return ULLONG_MAX;
	if (region->nstype != ND_DEVICE_NAMESPACE_PMEM
			&& region->nstype != ND_DEVICE_NAMESPACE_BLK)
		return 0;
	return v;
}

NDCTL_EXPORT unsigned long long ndctl_region_get_align(struct ndctl_region *region)
{
	return region ? region->align : 0;
}

NDCTL_EXPORT unsigned long long ndctl_region_get_resource(struct ndctl_region *region)
{
	return region ? region->resource : ULLONG_MAX;
}

NDCTL_EXPORT unsigned int ndctl_region_get_mappings(struct ndctl_region *region)
{
	return region ? region->mappings_count : 0;
}

NDCTL_EXPORT unsigned int ndctl_region_get_interleave_ways(struct ndctl_region *region)
{
	if (!region)
		return 0;
	return region->mappings_count ? region->mappings_count : 1;
}

NDCTL_EXPORT unsigned long long ndctl_region_get_set_cookie(struct ndctl_region *region)
{
	unsigned long long v;

	if (!region)
		return 0;
	/* the cookie changes with the label version: re-read it */
	if (region->nstype == ND_DEVICE_NAMESPACE_PMEM
			&& nd_read_ull(region->bus->ctx, region->path, "set_cookie",
				&v) == 0)
		region->set_cookie = v;
	return region->set_cookie;
}

NDCTL_EXPORT int ndctl_region_get_numa_node(struct ndctl_region *region)
{
	return region ? region->numa_node : -1;
}

NDCTL_EXPORT const char *ndctl_region_get_persistence_domain(
		struct ndctl_region *region)
{
	if (!region || !region->persistence_domain[0])
		return NULL;
	return region->persistence_domain;
}

NDCTL_EXPORT unsigned long long ndctl_region_get_badblock_count(
		struct ndctl_region *region)
{
	char path[PATH_MAX], line[256];
	unsigned long long total = 0;
	FILE *f;

	if (!region || nd_path(path, sizeof(path), region->path, "badblocks"))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long sector, len;

		if (sscanf(line, "%llu %llu", &sector, &len) == 2)
			total += len;
	}
	fclose(f);
	return total;
}

NDCTL_EXPORT int ndctl_region_is_enabled(struct ndctl_region *region)
{
	if (!region)
		return 0;
	bus_wait_probe(region->bus);
	return nd_is_bound(region->path);
}

NDCTL_EXPORT int ndctl_region_get_read_only(struct ndctl_region *region)
{
	unsigned long long v;

	if (!region)
		return -EINVAL;
	if (nd_read_ull(region->bus->ctx, region->path, "read_only", &v) == 0)
		region->read_only = !!v;
	return region->read_only;
}

NDCTL_EXPORT int ndctl_region_set_ro(struct ndctl_region *region, int ro)
{
	int rc;

	if (!region)
		return -EINVAL;
	rc = nd_write_attr(region->bus->ctx, region->path, "read_only",
			ro ? "1\n" : "0\n");
	if (rc) {
		err(region->bus->ctx, "%s: cannot set read_only: %s",
				region->devname, strerror(-rc));
		return rc;
	}
	region->read_only = !!ro;
	return 0;
}

NDCTL_EXPORT struct ndctl_dimm *ndctl_region_get_first_dimm(
		struct ndctl_region *region)
{
	if (!region || !region->mappings)
		return NULL;
	return region->mappings->dimm;
}

/* the mapping where DIMM first appears in the region's mapping list */
static struct ndctl_mapping *first_mapping_of(struct ndctl_region *region,
		struct ndctl_dimm *dimm)
{
	struct ndctl_mapping *m;

	for (m = region->mappings; m; m = m->next)
		if (m->dimm == dimm)
			return m;
	return NULL;
}

/*
 * Each DIMM once, in the order of first appearance, even when a region
 * maps one DIMM several times (the list is then not a plain chain of
 * DIMMs and "the mapping after DIMM" would cycle).
 */
NDCTL_EXPORT struct ndctl_dimm *ndctl_region_get_next_dimm(
		struct ndctl_region *region, struct ndctl_dimm *dimm)
{
	struct ndctl_mapping *m;

	if (!region || !dimm)
		return NULL;
	m = first_mapping_of(region, dimm);
	if (!m)
		return NULL;
	for (m = m->next; m; m = m->next)
		if (m->dimm && first_mapping_of(region, m->dimm) == m)
			return m->dimm;
	return NULL;
}

NDCTL_EXPORT struct ndctl_mapping *ndctl_mapping_get_first(
		struct ndctl_region *region)
{
	return region ? region->mappings : NULL;
}

NDCTL_EXPORT struct ndctl_mapping *ndctl_mapping_get_next(
		struct ndctl_mapping *mapping)
{
	return mapping ? mapping->next : NULL;
}

NDCTL_EXPORT struct ndctl_dimm *ndctl_mapping_get_dimm(struct ndctl_mapping *mapping)
{
	return mapping ? mapping->dimm : NULL;
}

NDCTL_EXPORT struct ndctl_region *ndctl_mapping_get_region(
		struct ndctl_mapping *mapping)
{
	return mapping ? mapping->region : NULL;
}

NDCTL_EXPORT struct ndctl_ctx *ndctl_mapping_get_ctx(struct ndctl_mapping *mapping)
{
	return mapping ? mapping->region->bus->ctx : NULL;
}

NDCTL_EXPORT unsigned long long ndctl_mapping_get_offset(
		struct ndctl_mapping *mapping)
{
	return mapping ? mapping->offset : 0;
}

NDCTL_EXPORT unsigned long long ndctl_mapping_get_length(
		struct ndctl_mapping *mapping)
{
	return mapping ? mapping->length : 0;
}

NDCTL_EXPORT int ndctl_mapping_get_position(struct ndctl_mapping *mapping)
{
	return mapping ? mapping->position : NDCTL_NO_POSITION;
}

/* ------------------------------------------------------------------ */
/* namespaces                                                          */

static int read_uuid(struct ndctl_ctx *ctx, const char *dir, const char *name,
		uuid_t uu)
{
	char buf[ND_ATTR_MAX];
	int rc;

	uuid_clear(uu);
	rc = nd_read_attr(ctx, dir, "uuid", buf);
	if (rc)
		return rc;
	if (!buf[0])
		return 0;
	if (strlen(buf) != 36 || uuid_parse(buf, uu) < 0) {
		err(ctx, "%s: invalid uuid '%.40s'", name, buf);
		return -EINVAL;
	}
	return 0;
}

static int namespace_read_attrs(struct ndctl_namespace *ndns)
{
	struct ndctl_ctx *ctx = ndns->region->bus->ctx;
	const char *dir = ndns->path, *name = ndns->devname;
	char buf[ND_ATTR_MAX];
	unsigned long long v;
	int rc;

	if (nd_read_uint(ctx, dir, "nstype", &ndns->type)) {
		err(ctx, "%s: unreadable 'nstype' attribute", name);
		return -ENXIO;
	}
	if (nd_read_ull(ctx, dir, "size", &ndns->size)) {
		err(ctx, "%s: unreadable 'size' attribute", name);
		return -ENXIO;
	}
	if (nd_read_ull(ctx, dir, "force_raw", &v)) {
		err(ctx, "%s: unreadable 'force_raw' attribute", name);
		return -ENXIO;
	}
	ndns->raw_mode = !!v;
	if (nd_read_attr(ctx, dir, "modalias", buf)) {
		err(ctx, "%s: unreadable 'modalias' attribute", name);
		return -ENXIO;
	}
	if (nd_read_attr(ctx, dir, "numa_node", buf)
			|| nd_parse_int(buf, &ndns->numa_node))
		ndns->numa_node = -1;
	switch (ndns->type) {
	case ND_DEVICE_NAMESPACE_IO:
		break;
	case ND_DEVICE_NAMESPACE_PMEM:
	case ND_DEVICE_NAMESPACE_BLK:
		if (nd_read_attr(ctx, dir, "alt_name", buf)) {
			err(ctx, "%s: unreadable 'alt_name' attribute", name);
			return -ENXIO;
		}
		/* any length: a 64-byte label name has no NUL of its own */
		ndns->alt_name = strdup(buf);
		if (!ndns->alt_name)
			return -ENOMEM;
		ndns->has_alt_name_attr = true;
		rc = read_uuid(ctx, dir, name, ndns->uuid);
		if (rc) {
			err(ctx, "%s: unreadable 'uuid' attribute", name);
			return -ENXIO;
		}
		ndns->has_uuid_attr = true;
		break;
	default:
		err(ctx, "%s: unknown nstype %u", name, ndns->type);
		return -ENXIO;
	}
	memset(&ndns->lbasize, 0, sizeof(ndns->lbasize));
	ndns->has_sector_size = false;
	rc = nd_read_attr(ctx, dir, "sector_size", buf);
	if (rc == 0) {
		if (nd_parse_sector_sizes(buf, &ndns->lbasize)) {
			err(ctx, "%s: unparsable 'sector_size' '%.60s'", name, buf);
			return -ENXIO;
		}
		ndns->has_sector_size = true;
	} else if (ndns->type == ND_DEVICE_NAMESPACE_BLK) {
		err(ctx, "%s: unreadable 'sector_size' attribute", name);
		return -ENXIO;
	}
	return 0;
}

static struct ndctl_namespace *add_namespace(struct ndctl_region *region,
		const char *dir, const char *name, unsigned int id)
{
	struct ndctl_namespace *ndns = calloc(1, sizeof(*ndns));

	if (!ndns)
		return NULL;
	ndns->region = region;
	ndns->id = id;
	ndns->path = strdup(dir);
	ndns->devname = strdup(name);
	if (!ndns->path || !ndns->devname || namespace_read_attrs(ndns)) {
		scan_error(region->bus->ctx, -ENXIO);
		free_namespace(ndns);
		return NULL;
	}
	return ndns;
}

static int btt_read_attrs(struct ndctl_btt *btt)
{
	struct ndctl_ctx *ctx = btt->region->bus->ctx;
	char buf[ND_ATTR_MAX];

	if (nd_read_attr(ctx, btt->path, "modalias", buf)) {
		err(ctx, "%s: unreadable 'modalias' attribute", btt->devname);
		return -ENXIO;
	}
	if (read_uuid(ctx, btt->path, btt->devname, btt->uuid)) {
		err(ctx, "%s: unreadable 'uuid' attribute", btt->devname);
		return -ENXIO;
	}
	if (nd_read_attr(ctx, btt->path, "sector_size", buf)
			|| nd_parse_sector_sizes(buf, &btt->lbasize)) {
		err(ctx, "%s: bad 'sector_size' attribute", btt->devname);
		return -ENXIO;
	}
	btt->ns_name[0] = '\0';
	if (nd_read_attr(ctx, btt->path, "namespace", buf) == 0
			&& strlen(buf) < sizeof(btt->ns_name))
		strcpy(btt->ns_name, buf);
	return 0;
}

static struct ndctl_btt *add_btt(struct ndctl_region *region, const char *dir,
		const char *name, unsigned int id)
{
	struct ndctl_btt *btt = calloc(1, sizeof(*btt));

	if (!btt)
		return NULL;
	btt->region = region;
	btt->id = id;
	btt->path = strdup(dir);
	btt->devname = strdup(name);
	if (!btt->path || !btt->devname || btt_read_attrs(btt)) {
		scan_error(region->bus->ctx, -ENXIO);
		free_btt(btt);
		return NULL;
	}
	return btt;
}

/*
 * (Re)scan the region's namespace and btt children: keep known objects
 * that still exist, retire vanished ones, add new ones, in id order.
 */
static void namespaces_scan(struct ndctl_region *region)
{
	struct ndctl_ctx *ctx = region->bus->ctx;
	struct ndctl_namespace *old = region->namespaces, *head = NULL;
	struct ndctl_namespace **tail = &head;
	char path[PATH_MAX];
	struct dent *v;
	int n, i;

	region->namespaces_init = true;
	bus_wait_probe(region->bus);
	n = scan_dir(ctx, region->path, "namespace", region->id, match_child, &v);
	if (n < 0)
		n = 0;
	for (i = 0; i < n; i++) {
		struct ndctl_namespace *ndns = NULL, **pp;

		for (pp = &old; *pp; pp = &(*pp)->next)
			if ((*pp)->id == v[i].id) {
				ndns = *pp;
				*pp = ndns->next;
				ndns->next = NULL;
				break;
			}
		if (!ndns) {
			if (nd_path(path, sizeof(path), region->path, v[i].name))
				continue;
			ndns = add_namespace(region, path, v[i].name, v[i].id);
			if (!ndns)
				continue;
		}
		*tail = ndns;
		tail = &ndns->next;
	}
	free(v);
	/* vanished: keep the memory valid for callers holding pointers */
	while (old) {
		struct ndctl_namespace *next = old->next;

		old->next = region->dead_namespaces;
		region->dead_namespaces = old;
		old = next;
	}
	region->namespaces = head;
}

static void btts_scan(struct ndctl_region *region)
{
	struct ndctl_ctx *ctx = region->bus->ctx;
	struct ndctl_btt *old = region->btts, *head = NULL;
	struct ndctl_btt **tail = &head;
	char path[PATH_MAX];
	struct dent *v;
	int n, i;

	region->btts_init = true;
	bus_wait_probe(region->bus);
	n = scan_dir(ctx, region->path, "btt", region->id, match_child, &v);
	if (n < 0)
		n = 0;
	for (i = 0; i < n; i++) {
		struct ndctl_btt *btt = NULL, **pp;

		for (pp = &old; *pp; pp = &(*pp)->next)
			if ((*pp)->id == v[i].id) {
				btt = *pp;
				*pp = btt->next;
				btt->next = NULL;
				break;
			}
		if (btt) {
			/* a btt's configuration changes under us: refresh */
			if (btt_read_attrs(btt)) {
				btt->next = region->dead_btts;
				region->dead_btts = btt;
				continue;
			}
		} else {
			if (nd_path(path, sizeof(path), region->path, v[i].name))
				continue;
			btt = add_btt(region, path, v[i].name, v[i].id);
			if (!btt)
				continue;
		}
		*tail = btt;
		tail = &btt->next;
	}
	free(v);
	while (old) {
		struct ndctl_btt *next = old->next;

		old->next = region->dead_btts;
		region->dead_btts = old;
		old = next;
	}
	region->btts = head;
}

static void region_rescan_children(struct ndctl_region *region)
{
	namespaces_scan(region);
	btts_scan(region);
	pfns_scan(region, false);
	pfns_scan(region, true);
}

static void region_forget_children(struct ndctl_region *region)
{
	struct ndctl_namespace *n = region->namespaces;
	struct ndctl_btt *b = region->btts;

	while (n) {
		struct ndctl_namespace *next = n->next;

		n->next = region->dead_namespaces;
		region->dead_namespaces = n;
		n = next;
	}
	while (b) {
		struct ndctl_btt *next = b->next;

		b->next = region->dead_btts;
		region->dead_btts = b;
		b = next;
	}
	region->namespaces = NULL;
	region->btts = NULL;
	region->namespaces_init = false;
	region->btts_init = false;
	while (region->pfns || region->daxs) {
		struct ndctl_pfn **l = region->pfns ? &region->pfns : &region->daxs;
		struct ndctl_pfn *p = *l;

		*l = p->next;
		p->next = region->dead_pfns;
		region->dead_pfns = p;
	}
	region->pfns_init = false;
	region->daxs_init = false;
}

/*
 * A label-backed region's nstype follows its DIMMs' labels: labels
 * written (or zeroed) while it was disabled turn an io region (4) into a
 * pmem one (5) or back when it is enabled again (sysfs-abi §10.3).
 */
static void region_refresh_nstype(struct ndctl_region *region)
{
	unsigned int nstype;

	if (nd_read_uint(region->bus->ctx, region->path, "nstype", &nstype))
		return;
	if (nstype == region->nstype)
		return;
	if (region->type == ND_DEVICE_REGION_PMEM
			&& nstype != ND_DEVICE_NAMESPACE_IO
			&& nstype != ND_DEVICE_NAMESPACE_PMEM)
		return;
	dbg(region->bus->ctx, "%s: nstype %u -> %u", region->devname,
			region->nstype, nstype);
	region->nstype = nstype;
}

NDCTL_EXPORT int ndctl_region_enable(struct ndctl_region *region)
{
	int rc;

	if (!region)
		return -EINVAL;
	if (ndctl_region_is_enabled(region))
		return 0;
	rc = enable_device(region->bus->ctx, region->path, region->devname);
	if (rc)
		return rc;
	region_refresh_nstype(region);
	region_forget_children(region);
	return 0;
}

static int region_disable(struct ndctl_region *region, bool forget)
{
	int rc;

	if (!region)
		return -EINVAL;
	rc = nd_unbind(region->bus->ctx, region->path, region->devname);
	if (rc)
		return rc;
	if (forget)
		region_forget_children(region);
	return 0;
}

NDCTL_EXPORT int ndctl_region_disable(struct ndctl_region *region)
{
	return region_disable(region, true);
}

NDCTL_EXPORT int ndctl_region_disable_invalidate(struct ndctl_region *region)
{
	return region_disable(region, true);
}

NDCTL_EXPORT int ndctl_region_disable_preserve(struct ndctl_region *region)
{
	return region_disable(region, false);
}

NDCTL_EXPORT struct ndctl_namespace *ndctl_namespace_get_first(
		struct ndctl_region *region)
{
	if (!region)
		return NULL;
	if (!region->namespaces_init)
		namespaces_scan(region);
	return region->namespaces;
}

NDCTL_EXPORT struct ndctl_namespace *ndctl_namespace_get_next(
		struct ndctl_namespace *ndns)
{
	return ndns ? ndns->next : NULL;
}

NDCTL_EXPORT struct ndctl_btt *ndctl_btt_get_first(struct ndctl_region *region)
{
	if (!region)
		return NULL;
	if (!region->btts_init)
		btts_scan(region);
	return region->btts;
}

NDCTL_EXPORT struct ndctl_btt *ndctl_btt_get_next(struct ndctl_btt *btt)
{
	return btt ? btt->next : NULL;
}

NDCTL_EXPORT struct ndctl_namespace *ndctl_region_get_namespace_seed(
		struct ndctl_region *region)
{
	struct ndctl_namespace *ndns;
	char buf[ND_ATTR_MAX];

	if (!region)
		return NULL;
	if (nd_read_attr(region->bus->ctx, region->path, "namespace_seed", buf)
			|| !buf[0])
		return NULL;
	namespaces_scan(region);
	ndctl_namespace_foreach(region, ndns)
		if (strcmp(ndns->devname, buf) == 0)
			return ndns;
	return NULL;
}

NDCTL_EXPORT struct ndctl_btt *ndctl_region_get_btt_seed(struct ndctl_region *region)
{
	struct ndctl_btt *btt;
	char buf[ND_ATTR_MAX];

	if (!region)
		return NULL;
	if (nd_read_attr(region->bus->ctx, region->path, "btt_seed", buf)
			|| !buf[0])
		return NULL;
	btts_scan(region);
	ndctl_btt_foreach(region, btt)
		if (strcmp(btt->devname, buf) == 0)
			return btt;
	return NULL;
}

NDCTL_EXPORT struct ndctl_region *ndctl_namespace_get_region(
		struct ndctl_namespace *ndns)
{
	return ndns ? ndns->region : NULL;
}

NDCTL_EXPORT struct ndctl_bus *ndctl_namespace_get_bus(struct ndctl_namespace *ndns)
{
	return ndns ? ndns->region->bus : NULL;
}

NDCTL_EXPORT struct ndctl_ctx *ndctl_namespace_get_ctx(struct ndctl_namespace *ndns)
{
	return ndns ? ndns->region->bus->ctx : NULL;
}

NDCTL_EXPORT unsigned int ndctl_namespace_get_id(struct ndctl_namespace *ndns)
{
	return ndns ? ndns->id : 0;
}

NDCTL_EXPORT const char *ndctl_namespace_get_devname(struct ndctl_namespace *ndns)
{
	return ndns ? ndns->devname : NULL;
}

NDCTL_EXPORT unsigned int ndctl_namespace_get_type(struct ndctl_namespace *ndns)
{
	return ndns ? ndns->type : 0;
}

NDCTL_EXPORT const char *ndctl_namespace_get_type_name(struct ndctl_namespace *ndns)
{
	if (!ndns)
		return NULL;
	switch (ndns->type) {
	case ND_DEVICE_NAMESPACE_IO:
		return "io";
	case ND_DEVICE_NAMESPACE_PMEM:
		return "pmem";
	case ND_DEVICE_NAMESPACE_BLK:
		return "blk";
	}
	return "unknown";
}

NDCTL_EXPORT unsigned long long ndctl_namespace_get_size(struct ndctl_namespace *ndns)
{
	return ndns ? ndns->size : 0;
}

NDCTL_EXPORT unsigned long long ndctl_namespace_get_resource(
		struct ndctl_namespace *ndns)
{
	unsigned long long v;

	if (!ndns || nd_read_ull(ndns->region->bus->ctx, ndns->path, "resource", &v))
		return ULLONG_MAX;
	return v;
}

NDCTL_EXPORT int ndctl_namespace_get_dpa_extents(struct ndctl_namespace *ndns)
{
	char buf[ND_ATTR_MAX];
	int rc, v;

	if (!ndns)
		return -EINVAL;
	rc = nd_read_attr(ndns->region->bus->ctx, ndns->path, "dpa_extents", buf);
	if (rc)
		return rc;
	if (nd_parse_int(buf, &v) || v < 0) {
		err(ndns->region->bus->ctx, "%s: unparsable 'dpa_extents' '%.40s'",
				ndns->devname, buf);
		return -ENXIO;
	}
	return v;
}

NDCTL_EXPORT int ndctl_namespace_get_numa_node(struct ndctl_namespace *ndns)
{
	return ndns ? ndns->numa_node : -1;
}

NDCTL_EXPORT void ndctl_namespace_get_uuid(struct ndctl_namespace *ndns, uuid_t uu)
{
	if (!uu)
		return;
	if (!ndns)
		uuid_clear(uu);
	else
		uuid_copy(uu, ndns->uuid);
}

NDCTL_EXPORT int ndctl_namespace_set_uuid(struct ndctl_namespace *ndns, uuid_t uu)
{
	struct ndctl_ctx *ctx;
	char str[40];
	int rc;

	if (!ndns || !uu)
		return -EINVAL;
	ctx = ndns->region->bus->ctx;
	if (!ndns->has_uuid_attr) {
		err(ctx, "%s: has no uuid (type %s)", ndns->devname,
				ndctl_namespace_get_type_name(ndns));
		return -EOPNOTSUPP;
	}
	uuid_unparse(uu, str);
	rc = nd_write_attr(ctx, ndns->path, "uuid", str);
	if (rc) {
		err(ctx, "%s: failed to set uuid: %s", ndns->devname, strerror(-rc));
		return rc;
	}
	uuid_copy(ndns->uuid, uu);
	return 0;
}

NDCTL_EXPORT const char *ndctl_namespace_get_alt_name(struct ndctl_namespace *ndns)
{
	if (!ndns)
		return NULL;
	return ndns->alt_name ? ndns->alt_name : "";
}

NDCTL_EXPORT int ndctl_namespace_set_alt_name(struct ndctl_namespace *ndns,
		const char *alt_name)
{
	struct ndctl_ctx *ctx;
	char *copy;
	int rc;

	if (!ndns || !alt_name)
		return -EINVAL;
	ctx = ndns->region->bus->ctx;
	if (!ndns->has_alt_name_attr) {
		err(ctx, "%s: has no alt_name (type %s)", ndns->devname,
				ndctl_namespace_get_type_name(ndns));
		return -EOPNOTSUPP;
	}
	if (strlen(alt_name) >= ND_ALT_NAME_MAX) {
		err(ctx, "%s: alt_name longer than %d bytes", ndns->devname,
				ND_ALT_NAME_MAX - 1);
		return -ENAMETOOLONG;
	}
	copy = strdup(alt_name);
	if (!copy)
		return -ENOMEM;
	rc = nd_write_attr(ctx, ndns->path, "alt_name", alt_name);
	if (rc) {
		err(ctx, "%s: failed to set alt_name: %s", ndns->devname,
				strerror(-rc));
		free(copy);
		return rc;
	}
	free(ndns->alt_name);
	ndns->alt_name = copy;
	return 0;
}

static int namespace_write_size(struct ndctl_namespace *ndns,
		unsigned long long size)
{
	struct ndctl_ctx *ctx = ndns->region->bus->ctx;
	char buf[32];
	int rc;

	snprintf(buf, sizeof(buf), "0x%llx\n", size);
	rc = nd_write_attr(ctx, ndns->path, "size", buf);
	if (rc)
		return rc;
	ndns->size = size;
	return 0;
}

NDCTL_EXPORT int ndctl_namespace_set_size(struct ndctl_namespace *ndns,
		unsigned long long size)
{
	struct ndctl_ctx *ctx;
	int rc;

	if (!ndns)
		return -EINVAL;
	ctx = ndns->region->bus->ctx;
	if (size == 0) {
		err(ctx, "%s: use ndctl_namespace_delete() to release capacity",
				ndns->devname);
		return -EINVAL;
	}
	if (ndns->type == ND_DEVICE_NAMESPACE_IO) {
		err(ctx, "%s: the size of an io namespace is fixed", ndns->devname);
		return -EOPNOTSUPP;
	}
	if (ndctl_namespace_is_enabled(ndns)) {
		err(ctx, "%s: enabled, disable it before resizing", ndns->devname);
		return -EBUSY;
	}
	rc = namespace_write_size(ndns, size);
	if (rc)
		err(ctx, "%s: failed to set size %#llx: %s", ndns->devname, size,
				strerror(-rc));
	return rc;
}

NDCTL_EXPORT unsigned int ndctl_namespace_get_sector_size(
		struct ndctl_namespace *ndns)
{
	return ndns ? ndns->lbasize.current : 0;
}

NDCTL_EXPORT int ndctl_namespace_get_num_sector_sizes(struct ndctl_namespace *ndns)
{
	return ndns ? ndns->lbasize.num : 0;
}

NDCTL_EXPORT int ndctl_namespace_get_supported_sector_size(
		struct ndctl_namespace *ndns, int i)
{
	if (!ndns || i < 0 || i >= ndns->lbasize.num)
		return -EINVAL;
	return ndns->lbasize.sizes[i];
}

static int sizes_contain(const struct sector_sizes *ss, unsigned int v)
{
	int i;

	for (i = 0; i < ss->num; i++)
		if (ss->sizes[i] == v)
			return 1;
	return 0;
}

NDCTL_EXPORT int ndctl_namespace_set_sector_size(struct ndctl_namespace *ndns,
		unsigned int sector_size)
{
	struct ndctl_ctx *ctx;
	char buf[32];
	int rc;

	if (!ndns)
		return -EINVAL;
	ctx = ndns->region->bus->ctx;
	if (!ndns->has_sector_size) {
		err(ctx, "%s: has no sector_size attribute", ndns->devname);
		return -EOPNOTSUPP;
	}
	if (!sizes_contain(&ndns->lbasize, sector_size)) {
		err(ctx, "%s: sector size %u not supported", ndns->devname,
				sector_size);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%u\n", sector_size);
	rc = nd_write_attr(ctx, ndns->path, "sector_size", buf);
	if (rc) {
		err(ctx, "%s: failed to set sector size: %s", ndns->devname,
				strerror(-rc));
		return rc;
	}
	ndns->lbasize.current = sector_size;
	return 0;
}

NDCTL_EXPORT int ndctl_namespace_get_raw_mode(struct ndctl_namespace *ndns)
{
	return ndns ? ndns->raw_mode : -EINVAL;
}

NDCTL_EXPORT int ndctl_namespace_set_raw_mode(struct ndctl_namespace *ndns,
		int raw_mode)
{
	int rc;

	if (!ndns)
		return -EINVAL;
	rc = nd_write_attr(ndns->region->bus->ctx, ndns->path, "force_raw",
			raw_mode ? "1\n" : "0\n");
	if (rc) {
		err(ndns->region->bus->ctx, "%s: failed to set force_raw: %s",
				ndns->devname, strerror(-rc));
		return rc;
	}
	ndns->raw_mode = !!raw_mode;
	return 0;
}

NDCTL_EXPORT int ndctl_namespace_set_holder_class(struct ndctl_namespace *ndns,
		const char *holder_class)
{
	if (!ndns || !holder_class)
		return -EINVAL;
	return nd_write_attr(ndns->region->bus->ctx, ndns->path, "holder_class",
			holder_class);
}

static struct ndctl_btt *btt_claiming(struct ndctl_namespace *ndns)
{
	struct ndctl_region *region = ndns->region;
	struct ndctl_btt *btt;
	char buf[ND_ATTR_MAX];

	if (!region->btts_init)
		btts_scan(region);
	if (nd_read_attr(region->bus->ctx, ndns->path, "holder", buf) == 0) {
		int pass;

		if (!buf[0] || strncmp(buf, "btt", 3))
			return NULL;
		/* the claiming btt may be newer than our list: rescan once */
		for (pass = 0; pass < 2; pass++) {
			ndctl_btt_foreach(region, btt)
				if (strcmp(btt->devname, buf) == 0)
					return btt;
			if (pass == 0)
				btts_scan(region);
		}
		return NULL;
	}
	ndctl_btt_foreach(region, btt)
		if (strcmp(btt->ns_name, ndns->devname) == 0)
			return btt;
	return NULL;
}

NDCTL_EXPORT struct ndctl_btt *ndctl_namespace_get_btt(struct ndctl_namespace *ndns)
{
	return ndns ? btt_claiming(ndns) : NULL;
}

NDCTL_EXPORT enum ndctl_namespace_mode ndctl_namespace_get_mode(
		struct ndctl_namespace *ndns)
{
	char buf[ND_ATTR_MAX];

	if (!ndns)
		return NDCTL_NS_MODE_UNKNOWN;
	if (nd_read_attr(ndns->region->bus->ctx, ndns->path, "mode", buf)) {
		/* v4.2 kernels: no "mode"; a claiming btt means sector */
		return btt_claiming(ndns) ? NDCTL_NS_MODE_SAFE
			: NDCTL_NS_MODE_UNKNOWN;
	}
	if (!strcmp(buf, "raw"))
		return NDCTL_NS_MODE_RAW;
	if (!strcmp(buf, "safe"))
		return NDCTL_NS_MODE_SAFE;
	if (!strcmp(buf, "memory") || !strcmp(buf, "fsdax"))
		return NDCTL_NS_MODE_FSDAX;
	if (!strcmp(buf, "dax") || !strcmp(buf, "devdax"))
		return NDCTL_NS_MODE_DEVDAX;
	return NDCTL_NS_MODE_UNKNOWN;
}

NDCTL_EXPORT int ndctl_namespace_is_enabled(struct ndctl_namespace *ndns)
{
	if (!ndns)
		return 0;
	bus_wait_probe(ndns->region->bus);
	return nd_is_bound(ndns->path);
}

/*
 * A namespace claimed by a pfn (fsdax) or dax (devdax) device is in use
 * while that device is bound; the library keeps no pfn/dax objects, so
 * follow the namespace's "holder" to the sibling device.
 */
static int pfn_dax_claim_enabled(struct ndctl_namespace *ndns)
{
	struct ndctl_region *region = ndns->region;
	char buf[ND_ATTR_MAX], path[PATH_MAX];

	if (nd_read_attr(region->bus->ctx, ndns->path, "holder", buf))
		return 0;
	if (strncmp(buf, "pfn", 3) && strncmp(buf, "dax", 3))
		return 0;
	if (strchr(buf, '/') || nd_path(path, sizeof(path), region->path, buf))
		return 0;
	return nd_is_bound(path);
}

NDCTL_EXPORT int ndctl_namespace_is_active(struct ndctl_namespace *ndns)
{
	struct ndctl_btt *btt;

	if (!ndns)
		return 0;
	if (ndctl_namespace_is_enabled(ndns))
		return 1;
	btt = btt_claiming(ndns);
	if (btt)
		return ndctl_btt_is_enabled(btt);
	if (pfn_claiming(ndns, false))
		return pfn_is_enabled(pfn_claiming(ndns, false));
	if (pfn_claiming(ndns, true))
		return pfn_is_enabled(pfn_claiming(ndns, true));
	return pfn_dax_claim_enabled(ndns);
}

NDCTL_EXPORT int ndctl_namespace_is_configured(struct ndctl_namespace *ndns)
{
	if (!ndns)
		return 0;
	if (ndns->type == ND_DEVICE_NAMESPACE_IO)
		return 1;
	return ndns->size >= (unsigned long long)sysconf(_SC_PAGESIZE)
		&& !uuid_is_null(ndns->uuid);
}

NDCTL_EXPORT int ndctl_namespace_enable(struct ndctl_namespace *ndns)
{
	struct ndctl_region *region;
	struct ndctl_ctx *ctx;
	struct ndctl_btt *btt;
	int rc;

	if (!ndns)
		return -EINVAL;
	region = ndns->region;
	ctx = region->bus->ctx;
	if (ndctl_namespace_is_enabled(ndns))
		return 0;
	rc = load_module_for(ctx, ndns->path, ndns->devname);
	if (rc)
		return rc;
	rc = nd_bind_quiet(ctx, ndns->path, ndns->devname);
	/* new seeds, or a btt that auto-detected and claimed it (§7.2) */
	region_rescan_children(region);
	if (rc == 0)
		return 0;
	btt = btt_claiming(ndns);
	if (btt && ndctl_btt_is_enabled(btt)) {
		info(ctx, "%s: enabled via %s", ndns->devname, btt->devname);
		return 1;
	}
	{
		struct ndctl_pfn *pfn = pfn_claiming(ndns, false);

		if (!pfn)
			pfn = pfn_claiming(ndns, true);
		if (pfn && pfn_is_enabled(pfn)) {
			info(ctx, "%s: enabled via %s", ndns->devname, pfn->devname);
			return 1;
		}
	}
	nd_bind_failed(ctx, ndns->path, ndns->devname);
	return rc;
}

NDCTL_EXPORT int ndctl_namespace_disable(struct ndctl_namespace *ndns)
{
	if (!ndns)
		return -EINVAL;
	return nd_unbind(ndns->region->bus->ctx, ndns->path, ndns->devname);
}

NDCTL_EXPORT int ndctl_namespace_disable_invalidate(struct ndctl_namespace *ndns)
{
	struct ndctl_btt *btt;
	int rc;

	if (!ndns)
		return -EINVAL;
	btt = btt_claiming(ndns);
	if (btt) {
		rc = ndctl_btt_delete(btt);
		if (rc)
			return rc;
	}
	{
		struct ndctl_pfn *pfn = pfn_claiming(ndns, false);

		if (!pfn)
			pfn = pfn_claiming(ndns, true);
		if (pfn) {
			rc = pfn_delete(pfn);
			if (rc)
				return rc;
		}
	}
	return ndctl_namespace_disable(ndns);
}

NDCTL_EXPORT const char *ndctl_namespace_get_block_device(
		struct ndctl_namespace *ndns)
{
	if (!ndns)
		return NULL;
	if (nd_single_block_device(ndns->path, ndns->blockdev,
				sizeof(ndns->blockdev)))
		return NULL;
	return ndns->blockdev;
}

NDCTL_EXPORT int ndctl_namespace_delete(struct ndctl_namespace *ndns)
{
	struct ndctl_ctx *ctx;
	int rc;

	if (!ndns)
		return -EINVAL;
	ctx = ndns->region->bus->ctx;
	if (ndctl_namespace_is_active(ndns)) {
		err(ctx, "%s: active, disable it before deleting", ndns->devname);
		return -EBUSY;
	}
	if (ndns->type == ND_DEVICE_NAMESPACE_IO) {
		dbg(ctx, "%s: io namespace, nothing to delete", ndns->devname);
		return 0;
	}
	rc = namespace_write_size(ndns, 0);
	/* the kernel may unregister the device as the size goes to 0 */
	if (rc && rc != -ENXIO && rc != -ENOENT) {
		err(ctx, "%s: failed to release capacity: %s", ndns->devname,
				strerror(-rc));
		return rc;
	}
	ndns->size = 0;
	uuid_clear(ndns->uuid);
	if (ndns->alt_name)
		ndns->alt_name[0] = '\0';
	return 0;
}

/* ------------------------------------------------------------------ */
/* btt                                                                 */

NDCTL_EXPORT struct ndctl_region *ndctl_btt_get_region(struct ndctl_btt *btt)
{
	return btt ? btt->region : NULL;
}

NDCTL_EXPORT struct ndctl_bus *ndctl_btt_get_bus(struct ndctl_btt *btt)
{
	return btt ? btt->region->bus : NULL;
}

NDCTL_EXPORT struct ndctl_ctx *ndctl_btt_get_ctx(struct ndctl_btt *btt)
{
	return btt ? btt->region->bus->ctx : NULL;
}

NDCTL_EXPORT unsigned int ndctl_btt_get_id(struct ndctl_btt *btt)
{
	return btt ? btt->id : 0;
}

NDCTL_EXPORT const char *ndctl_btt_get_devname(struct ndctl_btt *btt)
{
	return btt ? btt->devname : NULL;
}

NDCTL_EXPORT void ndctl_btt_get_uuid(struct ndctl_btt *btt, uuid_t uu)
{
	if (!uu)
		return;
	if (!btt)
		uuid_clear(uu);
	else
		uuid_copy(uu, btt->uuid);
}

NDCTL_EXPORT int ndctl_btt_set_uuid(struct ndctl_btt *btt, uuid_t uu)
{
	char str[40];
	int rc;

	if (!btt || !uu)
		return -EINVAL;
	uuid_unparse(uu, str);
	rc = nd_write_attr(btt->region->bus->ctx, btt->path, "uuid", str);
	if (rc) {
		err(btt->region->bus->ctx, "%s: failed to set uuid: %s",
				btt->devname, strerror(-rc));
		return rc;
	}
	uuid_copy(btt->uuid, uu);
	return 0;
}

NDCTL_EXPORT unsigned int ndctl_btt_get_sector_size(struct ndctl_btt *btt)
{
	return btt ? btt->lbasize.current : 0;
}

NDCTL_EXPORT int ndctl_btt_get_num_sector_sizes(struct ndctl_btt *btt)
{
	return btt ? btt->lbasize.num : 0;
}

NDCTL_EXPORT int ndctl_btt_get_supported_sector_size(struct ndctl_btt *btt, int i)
{
	if (!btt || i < 0 || i >= btt->lbasize.num)
		return -EINVAL;
	return btt->lbasize.sizes[i];
}

NDCTL_EXPORT int ndctl_btt_set_sector_size(struct ndctl_btt *btt,
		unsigned int sector_size)
{
	char buf[32];
	int rc;

	if (!btt)
		return -EINVAL;
	if (!sizes_contain(&btt->lbasize, sector_size)) {
		err(btt->region->bus->ctx, "%s: sector size %u not supported",
				btt->devname, sector_size);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%u\n", sector_size);
	rc = nd_write_attr(btt->region->bus->ctx, btt->path, "sector_size", buf);
	if (rc) {
		err(btt->region->bus->ctx, "%s: failed to set sector size: %s",
				btt->devname, strerror(-rc));
		return rc;
	}
	btt->lbasize.current = sector_size;
	return 0;
}

NDCTL_EXPORT int ndctl_btt_set_namespace(struct ndctl_btt *btt,
		struct ndctl_namespace *ndns)
{
	const char *name;
	int rc;

	if (!btt)
		return -EINVAL;
	if (ndns && ndns->region != btt->region) {
		err(btt->region->bus->ctx, "%s: %s is in another region",
				btt->devname, ndns->devname);
		return -EINVAL;
	}
	name = ndns ? ndns->devname : "\n";
	rc = nd_write_attr(btt->region->bus->ctx, btt->path, "namespace", name);
	if (rc) {
		err(btt->region->bus->ctx, "%s: failed to set namespace: %s",
				btt->devname, strerror(-rc));
		return rc;
	}
	snprintf(btt->ns_name, sizeof(btt->ns_name), "%s",
			ndns ? ndns->devname : "");
	return 0;
}

NDCTL_EXPORT struct ndctl_namespace *ndctl_btt_get_namespace(struct ndctl_btt *btt)
{
	struct ndctl_namespace *ndns;

	if (!btt || !btt->ns_name[0])
		return NULL;
	ndctl_namespace_foreach(btt->region, ndns)
		if (strcmp(ndns->devname, btt->ns_name) == 0)
			return ndns;
	return NULL;
}

NDCTL_EXPORT unsigned long long ndctl_btt_get_size(struct ndctl_btt *btt)
{
	unsigned long long v;

	if (!btt || nd_read_ull(btt->region->bus->ctx, btt->path, "size", &v))
		return ULLONG_MAX;
	return v;
}

NDCTL_EXPORT const char *ndctl_btt_get_block_device(struct ndctl_btt *btt)
{
	if (!btt)
		return NULL;
	if (nd_single_block_device(btt->path, btt->blockdev, sizeof(btt->blockdev)))
		return NULL;
	return btt->blockdev;
}

NDCTL_EXPORT int ndctl_btt_is_enabled(struct ndctl_btt *btt)
{
	if (!btt)
		return 0;
	bus_wait_probe(btt->region->bus);
	return nd_is_bound(btt->path);
}

NDCTL_EXPORT int ndctl_btt_is_configured(struct ndctl_btt *btt)
{
	if (!btt)
		return 0;
	return !uuid_is_null(btt->uuid) || btt->lbasize.current
		|| btt->ns_name[0];
}

NDCTL_EXPORT int ndctl_btt_enable(struct ndctl_btt *btt)
{
	struct ndctl_ctx *ctx;
	int rc;

	if (!btt)
		return -EINVAL;
	ctx = btt->region->bus->ctx;
	if (ndctl_btt_is_enabled(btt))
		return 0;
	if (uuid_is_null(btt->uuid) || !btt->lbasize.current || !btt->ns_name[0]) {
		err(ctx, "%s: set uuid, sector size and namespace first",
				btt->devname);
		return -ENXIO;
	}
	rc = enable_device(ctx, btt->path, btt->devname);
	/* a new btt seed appears; the namespace seed may advance */
	region_rescan_children(btt->region);
	return rc;
}

NDCTL_EXPORT int ndctl_btt_disable(struct ndctl_btt *btt)
{
	if (!btt)
		return -EINVAL;
	return nd_unbind(btt->region->bus->ctx, btt->path, btt->devname);
}

NDCTL_EXPORT int ndctl_btt_delete(struct ndctl_btt *btt)
{
	struct ndctl_ctx *ctx;
	int rc;

	if (!btt)
		return -EINVAL;
	ctx = btt->region->bus->ctx;
	rc = nd_unbind(ctx, btt->path, btt->devname);
	if (rc)
		return rc;
	rc = ndctl_btt_set_namespace(btt, NULL);
	if (rc)
		return rc;
	uuid_clear(btt->uuid);
	btt->lbasize.current = 0;
	region_rescan_children(btt->region);
	return 0;
}

/* ------------------------------------------------------------------ */
/* pfn (fsdax) and dax (devdax) devices                                */

static void free_pfn_list(struct ndctl_pfn *p)
{
	while (p) {
		struct ndctl_pfn *next = p->next;

		free(p->path);
		free(p->devname);
		free(p);
		p = next;
	}
}

static int pfn_parse_loc(const char *s)
{
	if (!strcmp(s, "ram"))
		return NDCTL_PFN_LOC_RAM;
	if (!strcmp(s, "pmem"))
		return NDCTL_PFN_LOC_PMEM;
	return NDCTL_PFN_LOC_NONE;
}

/* "4096 2097152 1073741824 " (no brackets in 6.1; tolerate them) */
static void pfn_parse_aligns(struct ndctl_pfn *pfn, const char *buf)
{
	const char *p = buf;

	pfn->num_aligns = 0;
	while (*p && pfn->num_aligns < ND_ALIGNS_MAX) {
		unsigned long long v;
		char tok[32];
		size_t n;

		while (*p == ' ' || *p == '[' || *p == ']')
			p++;
		n = strcspn(p, " []");
		if (!n)
			break;
		if (n < sizeof(tok)) {
			memcpy(tok, p, n);
			tok[n] = '\0';
			if (nd_parse_ull(tok, &v) == 0 && v)
				pfn->aligns[pfn->num_aligns++] = v;
		}
		p += n;
	}
}

static int pfn_read_attrs(struct ndctl_pfn *pfn)
{
	struct ndctl_ctx *ctx = pfn->region->bus->ctx;
	char buf[ND_ATTR_MAX];
	unsigned long long v;

	if (nd_read_attr(ctx, pfn->path, "modalias", buf)) {
		err(ctx, "%s: unreadable 'modalias' attribute", pfn->devname);
		return -ENXIO;
	}
	if (read_uuid(ctx, pfn->path, pfn->devname, pfn->uuid)) {
		err(ctx, "%s: unreadable 'uuid' attribute", pfn->devname);
		return -ENXIO;
	}
	if (nd_read_attr(ctx, pfn->path, "mode", buf)) {
		err(ctx, "%s: unreadable 'mode' attribute", pfn->devname);
		return -ENXIO;
	}
	pfn->loc = pfn_parse_loc(buf);
	pfn->has_align = nd_read_ull(ctx, pfn->path, "align", &v) == 0;
	pfn->align = pfn->has_align ? v : 0;
	pfn->num_aligns = 0;
	if (nd_read_attr(ctx, pfn->path, "supported_alignments", buf) == 0)
		pfn_parse_aligns(pfn, buf);
	pfn->ns_name[0] = '\0';
	if (nd_read_attr(ctx, pfn->path, "namespace", buf) == 0
			&& strlen(buf) < sizeof(pfn->ns_name))
		strcpy(pfn->ns_name, buf);
	return 0;
}

static struct ndctl_pfn *add_pfn(struct ndctl_region *region, const char *dir,
		const char *name, unsigned int id, bool is_dax)
{
	struct ndctl_pfn *pfn;

	pfn = is_dax ? calloc(1, sizeof(struct ndctl_dax))
		: calloc(1, sizeof(struct ndctl_pfn));
	if (!pfn)
		return NULL;
	pfn->region = region;
	pfn->id = id;
	pfn->is_dax = is_dax;
	pfn->path = strdup(dir);
	pfn->devname = strdup(name);
	if (!pfn->path || !pfn->devname || pfn_read_attrs(pfn)) {
		scan_error(region->bus->ctx, -ENXIO);
		free_pfn_list(pfn);
		return NULL;
	}
	return pfn;
}

/* (re)scan pfnR.N or daxR.N children: keep, refresh, retire, add */
static void pfns_scan(struct ndctl_region *region, bool is_dax)
{
	struct ndctl_ctx *ctx = region->bus->ctx;
	struct ndctl_pfn **list = is_dax ? &region->daxs : &region->pfns;
	struct ndctl_pfn *old = *list, *head = NULL, **tail = &head;
	char path[PATH_MAX];
	struct dent *v;
	int n, i;

	if (is_dax)
		region->daxs_init = true;
	else
		region->pfns_init = true;
	bus_wait_probe(region->bus);
	n = scan_dir(ctx, region->path, is_dax ? "dax" : "pfn", region->id,
			match_child, &v);
	if (n < 0)
		n = 0;
	for (i = 0; i < n; i++) {
		struct ndctl_pfn *pfn = NULL, **pp;

		for (pp = &old; *pp; pp = &(*pp)->next)
			if ((*pp)->id == v[i].id) {
				pfn = *pp;
				*pp = pfn->next;
				pfn->next = NULL;
				break;
			}
		if (pfn) {
			if (pfn_read_attrs(pfn)) {
				pfn->next = region->dead_pfns;
				region->dead_pfns = pfn;
				continue;
			}
		} else {
			if (nd_path(path, sizeof(path), region->path, v[i].name))
				continue;
			pfn = add_pfn(region, path, v[i].name, v[i].id, is_dax);
			if (!pfn)
				continue;
		}
		*tail = pfn;
		tail = &pfn->next;
	}
	free(v);
	while (old) {
		struct ndctl_pfn *next = old->next;

		old->next = region->dead_pfns;
		region->dead_pfns = old;
		old = next;
	}
	*list = head;
}

static struct ndctl_pfn *pfn_first(struct ndctl_region *region, bool is_dax)
{
	if (!region)
		return NULL;
	if (!(is_dax ? region->daxs_init : region->pfns_init))
		pfns_scan(region, is_dax);
	return is_dax ? region->daxs : region->pfns;
}

static struct ndctl_pfn *pfn_seed(struct ndctl_region *region, bool is_dax)
{
	struct ndctl_pfn *pfn;
	char buf[ND_ATTR_MAX];

	if (!region)
		return NULL;
	if (nd_read_attr(region->bus->ctx, region->path,
				is_dax ? "dax_seed" : "pfn_seed", buf) || !buf[0])
		return NULL;
	pfns_scan(region, is_dax);
	for (pfn = pfn_first(region, is_dax); pfn; pfn = pfn->next)
		if (strcmp(pfn->devname, buf) == 0)
			return pfn;
	return NULL;
}

/* the pfn (or dax) device claiming @ndns: its "holder", else a match of
 * the devices' "namespace" */
static struct ndctl_pfn *pfn_claiming(struct ndctl_namespace *ndns, bool is_dax)
{
	struct ndctl_region *region = ndns->region;
	const char *prefix = is_dax ? "dax" : "pfn";
	struct ndctl_pfn *pfn;
	char buf[ND_ATTR_MAX];

	if (nd_read_attr(region->bus->ctx, ndns->path, "holder", buf) == 0) {
		int pass;

		if (!buf[0] || strncmp(buf, prefix, 3))
			return NULL;
		for (pass = 0; pass < 2; pass++) {
			for (pfn = pfn_first(region, is_dax); pfn; pfn = pfn->next)
				if (strcmp(pfn->devname, buf) == 0)
					return pfn;
			if (pass == 0)
				pfns_scan(region, is_dax);
		}
		return NULL;
	}
	for (pfn = pfn_first(region, is_dax); pfn; pfn = pfn->next)
		if (strcmp(pfn->ns_name, ndns->devname) == 0)
			return pfn;
	return NULL;
}

static int pfn_set_uuid(struct ndctl_pfn *pfn, uuid_t uu)
{
	char str[40];
	int rc;

	if (!pfn || !uu)
		return -EINVAL;
	uuid_unparse(uu, str);
	rc = nd_write_attr(pfn->region->bus->ctx, pfn->path, "uuid", str);
	if (rc) {
		err(pfn->region->bus->ctx, "%s: failed to set uuid: %s",
				pfn->devname, strerror(-rc));
		return rc;
	}
	uuid_copy(pfn->uuid, uu);
	return 0;
}

static int pfn_set_location(struct ndctl_pfn *pfn, enum ndctl_pfn_loc loc)
{
	const char *s;
	int rc;

	if (!pfn)
		return -EINVAL;
	switch (loc) {
	case NDCTL_PFN_LOC_NONE: s = "none"; break;
	case NDCTL_PFN_LOC_RAM: s = "ram"; break;
	case NDCTL_PFN_LOC_PMEM: s = "pmem"; break;
	default:
		err(pfn->region->bus->ctx, "%s: invalid location %d",
				pfn->devname, (int)loc);
		return -EINVAL;
	}
	rc = nd_write_attr(pfn->region->bus->ctx, pfn->path, "mode", s);
	if (rc) {
		err(pfn->region->bus->ctx, "%s: failed to set mode %s: %s",
				pfn->devname, s, strerror(-rc));
		return rc;
	}
	pfn->loc = loc;
	return 0;
}

static int pfn_set_align(struct ndctl_pfn *pfn, unsigned long align)
{
	char buf[32];
	int i, rc;

	if (!pfn)
		return -EINVAL;
	if (pfn->num_aligns) {
		for (i = 0; i < pfn->num_aligns; i++)
			if (pfn->aligns[i] == align)
				break;
		if (i == pfn->num_aligns) {
			err(pfn->region->bus->ctx, "%s: alignment %lu not supported",
					pfn->devname, align);
			return -EINVAL;
		}
	}
	snprintf(buf, sizeof(buf), "%lu\n", align);
	rc = nd_write_attr(pfn->region->bus->ctx, pfn->path, "align", buf);
	if (rc) {
		err(pfn->region->bus->ctx, "%s: failed to set align: %s",
				pfn->devname, strerror(-rc));
		return rc;
	}
	pfn->align = align;
	return 0;
}

static int pfn_set_namespace(struct ndctl_pfn *pfn, struct ndctl_namespace *ndns)
{
	const char *name = ndns ? ndns->devname : "\n";
	int rc;

	if (!pfn)
		return -EINVAL;
	if (ndns && ndns->region != pfn->region) {
		err(pfn->region->bus->ctx, "%s: %s is in another region",
				pfn->devname, ndns->devname);
		return -EINVAL;
	}
	rc = nd_write_attr(pfn->region->bus->ctx, pfn->path, "namespace", name);
	if (rc) {
		err(pfn->region->bus->ctx, "%s: failed to set namespace: %s",
				pfn->devname, strerror(-rc));
		return rc;
	}
	snprintf(pfn->ns_name, sizeof(pfn->ns_name), "%s",
			ndns ? ndns->devname : "");
	return 0;
}

static struct ndctl_namespace *pfn_get_namespace(struct ndctl_pfn *pfn)
{
	struct ndctl_namespace *ndns;

	if (!pfn || !pfn->ns_name[0])
		return NULL;
	ndctl_namespace_foreach(pfn->region, ndns)
		if (strcmp(ndns->devname, pfn->ns_name) == 0)
			return ndns;
	return NULL;
}

static unsigned long long pfn_read_ull(struct ndctl_pfn *pfn, const char *attr)
{
	unsigned long long v;

	if (!pfn || nd_read_ull(pfn->region->bus->ctx, pfn->path, attr, &v))
		return ULLONG_MAX;
	return v;
}

static int pfn_is_enabled(struct ndctl_pfn *pfn)
{
	if (!pfn)
		return 0;
	bus_wait_probe(pfn->region->bus);
	return nd_is_bound(pfn->path);
}

static int pfn_is_configured(struct ndctl_pfn *pfn)
{
	if (!pfn)
		return 0;
	return !uuid_is_null(pfn->uuid) || pfn->ns_name[0]
		|| pfn->loc != NDCTL_PFN_LOC_NONE;
}

static int pfn_enable(struct ndctl_pfn *pfn)
{
	struct ndctl_ctx *ctx;
	int rc;

	if (!pfn)
		return -EINVAL;
	ctx = pfn->region->bus->ctx;
	if (pfn_is_enabled(pfn))
		return 0;
	if (uuid_is_null(pfn->uuid) || !pfn->ns_name[0]) {
		err(ctx, "%s: not configured (uuid and namespace needed)",
				pfn->devname);
		return -ENXIO;
	}
	rc = enable_device(ctx, pfn->path, pfn->devname);
	/* new seeds appear; the namespace seed may advance */
	region_rescan_children(pfn->region);
	return rc;
}

static int pfn_delete(struct ndctl_pfn *pfn)
{
	struct ndctl_ctx *ctx;
	int rc;

	if (!pfn)
		return -EINVAL;
	ctx = pfn->region->bus->ctx;
	rc = nd_unbind(ctx, pfn->path, pfn->devname);
	if (rc)
		return rc;
	rc = pfn_set_namespace(pfn, NULL);
	if (rc)
		return rc;
	uuid_clear(pfn->uuid);
	pfn->loc = NDCTL_PFN_LOC_NONE;
	region_rescan_children(pfn->region);
	return 0;
}

NDCTL_EXPORT struct ndctl_pfn *ndctl_pfn_get_first(struct ndctl_region *region)
{
	return pfn_first(region, false);
}

NDCTL_EXPORT struct ndctl_pfn *ndctl_pfn_get_next(struct ndctl_pfn *pfn)
{
	return pfn ? pfn->next : NULL;
}

NDCTL_EXPORT unsigned int ndctl_pfn_get_id(struct ndctl_pfn *pfn)
{
	return pfn ? pfn->id : 0;
}

NDCTL_EXPORT const char *ndctl_pfn_get_devname(struct ndctl_pfn *pfn)
{
	return pfn ? pfn->devname : NULL;
}

NDCTL_EXPORT struct ndctl_region *ndctl_pfn_get_region(struct ndctl_pfn *pfn)
{
	return pfn ? pfn->region : NULL;
}

NDCTL_EXPORT struct ndctl_bus *ndctl_pfn_get_bus(struct ndctl_pfn *pfn)
{
	return pfn ? pfn->region->bus : NULL;
}

NDCTL_EXPORT struct ndctl_ctx *ndctl_pfn_get_ctx(struct ndctl_pfn *pfn)
{
	return pfn ? pfn->region->bus->ctx : NULL;
}

NDCTL_EXPORT void ndctl_pfn_get_uuid(struct ndctl_pfn *pfn, uuid_t uu)
{
	if (!uu)
		return;
	if (!pfn)
		uuid_clear(uu);
	else
		uuid_copy(uu, pfn->uuid);
}

NDCTL_EXPORT int ndctl_pfn_set_uuid(struct ndctl_pfn *pfn, uuid_t uu)
{
	return pfn_set_uuid(pfn, uu);
}

NDCTL_EXPORT enum ndctl_pfn_loc ndctl_pfn_get_location(struct ndctl_pfn *pfn)
{
	return pfn ? pfn->loc : NDCTL_PFN_LOC_NONE;
}

NDCTL_EXPORT int ndctl_pfn_set_location(struct ndctl_pfn *pfn,
		enum ndctl_pfn_loc loc)
{
	return pfn_set_location(pfn, loc);
}

NDCTL_EXPORT int ndctl_pfn_has_align(struct ndctl_pfn *pfn)
{
	return pfn ? pfn->has_align : 0;
}

NDCTL_EXPORT unsigned long ndctl_pfn_get_align(struct ndctl_pfn *pfn)
{
	return pfn ? pfn->align : 0;
}

NDCTL_EXPORT int ndctl_pfn_set_align(struct ndctl_pfn *pfn, unsigned long align)
{
	return pfn_set_align(pfn, align);
}

NDCTL_EXPORT int ndctl_pfn_get_num_alignments(struct ndctl_pfn *pfn)
{
	return pfn ? pfn->num_aligns : 0;
}

NDCTL_EXPORT unsigned long ndctl_pfn_get_supported_alignment(
		struct ndctl_pfn *pfn, int i)
{
	if (!pfn || i < 0 || i >= pfn->num_aligns)
		return 0;
	return pfn->aligns[i];
}

NDCTL_EXPORT int ndctl_pfn_set_namespace(struct ndctl_pfn *pfn,
		struct ndctl_namespace *ndns)
{
	return pfn_set_namespace(pfn, ndns);
}

NDCTL_EXPORT struct ndctl_namespace *ndctl_pfn_get_namespace(struct ndctl_pfn *pfn)
{
	return pfn_get_namespace(pfn);
}

NDCTL_EXPORT const char *ndctl_pfn_get_block_device(struct ndctl_pfn *pfn)
{
	if (!pfn)
		return NULL;
	if (nd_single_block_device(pfn->path, pfn->blockdev, sizeof(pfn->blockdev)))
		return NULL;
	return pfn->blockdev;
}

NDCTL_EXPORT unsigned long long ndctl_pfn_get_size(struct ndctl_pfn *pfn)
{
	return pfn_read_ull(pfn, "size");
}

NDCTL_EXPORT unsigned long long ndctl_pfn_get_resource(struct ndctl_pfn *pfn)
{
	return pfn_read_ull(pfn, "resource");
}

NDCTL_EXPORT int ndctl_pfn_is_enabled(struct ndctl_pfn *pfn)
{
	return pfn_is_enabled(pfn);
}

NDCTL_EXPORT int ndctl_pfn_is_configured(struct ndctl_pfn *pfn)
{
	return pfn_is_configured(pfn);
}

NDCTL_EXPORT int ndctl_pfn_enable(struct ndctl_pfn *pfn)
{
	return pfn_enable(pfn);
}

NDCTL_EXPORT int ndctl_pfn_delete(struct ndctl_pfn *pfn)
{
	return pfn_delete(pfn);
}

NDCTL_EXPORT struct ndctl_pfn *ndctl_region_get_pfn_seed(struct ndctl_region *region)
{
	return pfn_seed(region, false);
}

NDCTL_EXPORT struct ndctl_pfn *ndctl_namespace_get_pfn(struct ndctl_namespace *ndns)
{
	return ndns ? pfn_claiming(ndns, false) : NULL;
}

/* dax: the same device class under another name */
static struct ndctl_pfn *P(struct ndctl_dax *dax)
{
	return dax ? &dax->pfn : NULL;
}

static struct ndctl_dax *D(struct ndctl_pfn *pfn)
{
	return pfn ? (struct ndctl_dax *)pfn : NULL;
}

NDCTL_EXPORT struct ndctl_dax *ndctl_dax_get_first(struct ndctl_region *region)
{
	return D(pfn_first(region, true));
}

NDCTL_EXPORT struct ndctl_dax *ndctl_dax_get_next(struct ndctl_dax *dax)
{
	return dax ? D(dax->pfn.next) : NULL;
}

NDCTL_EXPORT unsigned int ndctl_dax_get_id(struct ndctl_dax *dax)
{
	return dax ? dax->pfn.id : 0;
}

NDCTL_EXPORT const char *ndctl_dax_get_devname(struct ndctl_dax *dax)
{
	return dax ? dax->pfn.devname : NULL;
}

NDCTL_EXPORT struct ndctl_region *ndctl_dax_get_region(struct ndctl_dax *dax)
{
	return dax ? dax->pfn.region : NULL;
}

NDCTL_EXPORT struct ndctl_bus *ndctl_dax_get_bus(struct ndctl_dax *dax)
{
	return dax ? dax->pfn.region->bus : NULL;
}

NDCTL_EXPORT struct ndctl_ctx *ndctl_dax_get_ctx(struct ndctl_dax *dax)
{
	return dax ? dax->pfn.region->bus->ctx : NULL;
}

NDCTL_EXPORT void ndctl_dax_get_uuid(struct ndctl_dax *dax, uuid_t uu)
{
	ndctl_pfn_get_uuid(P(dax), uu);
}

NDCTL_EXPORT int ndctl_dax_set_uuid(struct ndctl_dax *dax, uuid_t uu)
{
	return pfn_set_uuid(P(dax), uu);
}

NDCTL_EXPORT enum ndctl_pfn_loc ndctl_dax_get_location(struct ndctl_dax *dax)
{
	return ndctl_pfn_get_location(P(dax));
}

NDCTL_EXPORT int ndctl_dax_set_location(struct ndctl_dax *dax,
		enum ndctl_pfn_loc loc)
{
	return pfn_set_location(P(dax), loc);
}

NDCTL_EXPORT int ndctl_dax_has_align(struct ndctl_dax *dax)
{
	return ndctl_pfn_has_align(P(dax));
}

NDCTL_EXPORT unsigned long ndctl_dax_get_align(struct ndctl_dax *dax)
{
	return ndctl_pfn_get_align(P(dax));
}

NDCTL_EXPORT int ndctl_dax_set_align(struct ndctl_dax *dax, unsigned long align)
{
	return pfn_set_align(P(dax), align);
}

NDCTL_EXPORT int ndctl_dax_get_num_alignments(struct ndctl_dax *dax)
{
	return ndctl_pfn_get_num_alignments(P(dax));
}

NDCTL_EXPORT unsigned long ndctl_dax_get_supported_alignment(
		struct ndctl_dax *dax, int i)
{
	return ndctl_pfn_get_supported_alignment(P(dax), i);
}

NDCTL_EXPORT int ndctl_dax_set_namespace(struct ndctl_dax *dax,
		struct ndctl_namespace *ndns)
{
	return pfn_set_namespace(P(dax), ndns);
}

NDCTL_EXPORT struct ndctl_namespace *ndctl_dax_get_namespace(struct ndctl_dax *dax)
{
	return pfn_get_namespace(P(dax));
}

NDCTL_EXPORT unsigned long long ndctl_dax_get_size(struct ndctl_dax *dax)
{
	return pfn_read_ull(P(dax), "size");
}

NDCTL_EXPORT unsigned long long ndctl_dax_get_resource(struct ndctl_dax *dax)
{
	return pfn_read_ull(P(dax), "resource");
}

NDCTL_EXPORT int ndctl_dax_is_enabled(struct ndctl_dax *dax)
{
	return pfn_is_enabled(P(dax));
}

NDCTL_EXPORT int ndctl_dax_is_configured(struct ndctl_dax *dax)
{
	return pfn_is_configured(P(dax));
}

NDCTL_EXPORT int ndctl_dax_enable(struct ndctl_dax *dax)
{
	return pfn_enable(P(dax));
}

NDCTL_EXPORT int ndctl_dax_delete(struct ndctl_dax *dax)
{
	return pfn_delete(P(dax));
}

NDCTL_EXPORT struct ndctl_dax *ndctl_region_get_dax_seed(struct ndctl_region *region)
{
	return D(pfn_seed(region, true));
}

NDCTL_EXPORT struct ndctl_dax *ndctl_namespace_get_dax(struct ndctl_namespace *ndns)
{
	return ndns ? D(pfn_claiming(ndns, true)) : NULL;
}

/*
 * The enabled device-dax instance below an nd_dax device (6.1: a
 * "daxX.Y" child directory on the dax bus, or under "dax/" on kernels
 * with the dax class) whose /dev node exists.
 */
NDCTL_EXPORT int ndctl_dax_get_chardev(struct ndctl_dax *dax, char *buf,
		size_t len)
{
	static const char *const subdirs[] = { "", "dax" };
	struct ndctl_ctx *ctx;
	unsigned int s;

	if (!dax || !buf || !len)
		return -EINVAL;
	ctx = dax->pfn.region->bus->ctx;
	buf[0] = '\0';
	for (s = 0; s < 2; s++) {
		char dir[PATH_MAX], sub[PATH_MAX], node[PATH_MAX];
		struct dirent *de;
		DIR *d;

		if (nd_path(dir, sizeof(dir), dax->pfn.path, subdirs[s]))
			continue;
		d = opendir(dir);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			char tmp[ND_ATTR_MAX];
			unsigned int a, b;
			struct stat st;
			char c;

			if (sscanf(de->d_name, "dax%u.%u%c", &a, &b, &c) != 2)
				continue;
			if (nd_path(sub, sizeof(sub), dir, de->d_name)
					|| nd_read_attr(ctx, sub, "dev", tmp))
				continue;
			if ((size_t)snprintf(node, sizeof(node), "%s/%s",
						ctx->dev_root, de->d_name) >= sizeof(node)
					|| stat(node, &st) < 0)
				continue;
			if (strlen(de->d_name) < len) {
				strcpy(buf, de->d_name);
				closedir(d);
				return 0;
			}
		}
		closedir(d);
	}
	return -ENOENT;
}

NDCTL_EXPORT const char *ndctl_dax_get_path(struct ndctl_dax *dax)
{
	return dax ? dax->pfn.path : NULL;
}

/* ------------------------------------------------------------------ */
/* in-use checks before unbinding                                      */

/*
 * The block device a namespace is served through right now: its btt's
 * when a btt claims it and is bound, else its own, else none.
 */
static const char *namespace_live_bdev(struct ndctl_namespace *ndns)
{
	struct ndctl_btt *btt = btt_claiming(ndns);
	struct ndctl_pfn *pfn = pfn_claiming(ndns, false);

	if (btt && ndctl_btt_is_enabled(btt))
		return ndctl_btt_get_block_device(btt);
	if (pfn && pfn_is_enabled(pfn))
		return ndctl_pfn_get_block_device(pfn);
	if (ndctl_namespace_is_enabled(ndns))
		return ndctl_namespace_get_block_device(ndns);
	return NULL;
}

/*
 * How many memory blocks in the data range of the enabled devdax device
 * @dax are online: the kmem driver (daxctl reconfigure-device
 * --mode=system-ram) made them system RAM.  Unbinding the device then
 * cannot remove that memory: the kernel keeps it until the next reboot
 * and the namespace is lost to its user.  0 when none is, or when the
 * range or the memory block size cannot be read (no memory hotplug: no
 * system-ram either).
 */
static unsigned long long dax_online_memory_blocks(struct ndctl_pfn *dax)
{
	struct ndctl_ctx *ctx = dax->region->bus->ctx;
	unsigned long long start, size, bs, blk, last, online = 0;
	char dir[PATH_MAX], name[64], buf[ND_ATTR_MAX];

	if (!pfn_is_enabled(dax))
		return 0;
	start = pfn_read_ull(dax, "resource");
	size = pfn_read_ull(dax, "size");
	if (start == ULLONG_MAX || size == ULLONG_MAX || !size
			|| start > ULLONG_MAX - size)
		return 0;
	if (nd_path(dir, sizeof(dir), ctx->sysfs_root, "devices/system/memory")
			|| nd_read_attr(ctx, dir, "block_size_bytes", buf))
		return 0;
	errno = 0;
	bs = strtoull(buf, NULL, 16);
	/* a memory block is a power of two of at least a page */
	if (errno || bs < (unsigned long long)sysconf(_SC_PAGESIZE)
			|| (bs & (bs - 1)))
		return 0;
	/* kmem adds the whole blocks inside the range, no partial one */
	blk = start / bs + !!(start % bs);
	last = (start + size) / bs;
	for (; blk < last; blk++) {
		snprintf(name, sizeof(name), "memory%llu/state", blk);
		if (nd_read_attr(ctx, dir, name, buf) == 0 && !strcmp(buf, "online"))
			online++;
	}
	return online;
}

/**
 * ndctl_namespace_check_unused() - may the namespace be unbound?
 * @ndns: namespace
 *
 * Opens the namespace's live block device (if any) with O_EXCL: a mounted
 * filesystem, a device-mapper table or another exclusive opener makes the
 * open fail with EBUSY.  A devdax namespace whose memory is online as
 * system RAM (kmem) is busy too: unbinding it would strand that memory
 * until the next reboot.  Nothing is changed either way.
 *
 * Return: 0 if not in use (or no block device), -errno otherwise (logged).
 */
NDCTL_EXPORT int ndctl_namespace_check_unused(struct ndctl_namespace *ndns)
{
	struct ndctl_pfn *dax;
	struct ndctl_ctx *ctx;
	char path[PATH_MAX];
	const char *bdev;
	int fd, rc;

	if (!ndns)
		return -EINVAL;
	ctx = ndns->region->bus->ctx;
	dax = pfn_claiming(ndns, true);
	if (dax) {
		unsigned long long n = dax_online_memory_blocks(dax);

		if (n) {
			err(ctx, "%s: %s: %llu memory block%s online as system-ram",
					ndns->devname, dax->devname, n,
					n == 1 ? "" : "s");
			return -EBUSY;
		}
	}
	bdev = namespace_live_bdev(ndns);
	if (!bdev)
		return 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s",
				ndctl_get_dev_root(ctx), bdev) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		err(ctx, "%s: %s: failed exclusive open: %s", ndns->devname,
				bdev, strerror(-rc));
		return rc;
	}
	close(fd);
	return 0;
}

/**
 * ndctl_namespace_disable_safe() - disable a namespace that nobody uses
 * @ndns: namespace
 *
 * Refuses (-EBUSY, nothing touched) while the live block device is held
 * (ndctl_namespace_check_unused()); otherwise disables it as
 * ndctl_namespace_disable_invalidate() does, like ndctl 76.1: a claiming
 * btt is unbound and its device-model configuration dropped (the BTT
 * stays on the media: enabling the namespace finds it again, and any
 * ndctl can enable it), then the namespace is unbound.
 *
 * Return: 0 or -errno.
 */
NDCTL_EXPORT int ndctl_namespace_disable_safe(struct ndctl_namespace *ndns)
{
	int rc;

	rc = ndctl_namespace_check_unused(ndns);
	if (rc)
		return rc;
	return ndctl_namespace_disable_invalidate(ndns);
}

/**
 * ndctl_region_disable_safe() - disable a region none of whose namespaces
 * is in use
 * @region: region
 *
 * Every namespace of the region is checked first; if one is held, nothing
 * is disabled.  Then the region is disabled (and its children forgotten,
 * as ndctl_region_disable()).
 *
 * Return: 0 or -errno.
 */
NDCTL_EXPORT int ndctl_region_disable_safe(struct ndctl_region *region)
{
	struct ndctl_namespace *ndns;
	int rc;

	if (!region)
		return -EINVAL;
	ndctl_namespace_foreach(region, ndns) {
		rc = ndctl_namespace_check_unused(ndns);
		if (rc)
			return rc;
	}
	return ndctl_region_disable(region);
}
