// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-fuzz: seeded interface fuzzer of the nd bus (issue 14, item 1).
 *
 *   nvt-fuzz [--seed S] [--ops N] [--seconds T] [--log FILE]
 *            [--full-every K] [--label-every K] [--ndctl CMD]
 *            [--ndctl-every K] [--restore-every K] [--profile] [--verbose]
 *
 * Every operation is drawn from one PRNG (splitmix64) seeded with S (from
 * the clock when not given; always printed), so `--seed S --ops N`
 * replays a run operation for operation on the same starting state.  The
 * index and a one-line description of each operation are written to the
 * log (and flushed) before the operation runs, so a crash is attributable.
 *
 * Operations:
 *   ioctl  /dev/ndctlN and /dev/nmemN: every command number (0..15 and
 *          random ones), right and wrong ioctl directions and sizes,
 *          envelope lengths at and around every limit (0, max_xfer,
 *          config_size, ND_IOCTL_MAX_BUFLEN, 2^31, 2^32 - 1), user
 *          buffers shorter than the envelope (the envelope ends at a
 *          guard page), NULL and kernel pointers, ND_CMD_CALL packages
 *          (every family, random functions, reserved words), files
 *          opened read-only.  A label write that would be accepted
 *          writes back the bytes the area holds (a no-op), so it can be
 *          checked like a failure.
 *   write  to a writable attribute of an nd device (bus, DIMM, region,
 *          namespace, btt, pfn, dax: whatever /sys/bus/nd/devices holds):
 *          garbage, numbers at and over every integer limit, huge and
 *          empty strings, embedded NULs, missing or doubled newlines,
 *          uuids good and bad, names of devices, modes, sizes.
 *   config a valid namespace on a region's seed (uuid, name, size) and
 *          sometimes a btt / pfn / dax claim of it: deep states.
 *   toggle unbind a namespace, btt, pfn, dax or region from its driver.
 *
 * After a failed operation (and after every label write ioctl) the
 * observable state must be as before:
 *   at once       the attributes of the device it touched (the DIMM of an
 *                 ioctl on /dev/nmemN), and the label bytes a label write
 *                 ioctl addressed;
 *   --full-every  (32) operations: every readable attribute of every nd
 *                 device, and the device list;
 *   --label-every (64) operations: every DIMM's whole label area
 *                 (GET_CONFIG_DATA; on QEMU a _DSM through AML per 4 KiB,
 *                 the expensive part: replay the seed with --label-every 1
 *                 to find the operation that changed it);
 *   --ndctl-every (4000) operations: `CMD list -BDRNi` before and after
 *                 that operation, compared when it failed.
 * So a failed operation's change to what it did not touch is caught
 * within those intervals, unless a success before the check took that
 * state again.  A success takes again (snapshot) the device list and what
 * it can change: the attributes of its region, of the regions sharing a
 * DIMM with it (capacity is shared: nfit_test's BLK regions alias its
 * PMEM ones), of their namespaces, btt, pfn and dax devices and of their
 * DIMMs, and when it may have written labels (a namespace, btt, pfn or
 * dax attribute, a restore) those DIMMs' whole label areas; a success on
 * a device of no region (a DIMM) takes everything.  A wrong guess here
 * cannot hide a defect: the next full or label check compares every
 * device and label area with its snapshot, so a change a success made
 * beyond that set shows up as a MISMATCH (a false one), never as nothing.
 * The success is remembered for undo: every --restore-every operations
 * (200, and at the end) the successes are undone newest first (old
 * attribute values written back, unbound devices bound again), so the run
 * keeps the starting topology and its targets instead of destroying them.
 *
 * Never written: uevent, driver_override, power/, anything outside
 * /sys/bus/nd/devices/<dev>/ (bus and DIMMs are never unbound: the run
 * would lose its targets; the bus has no writable attribute).
 *
 * Prints "nvt-fuzz: seed S ops N ioctls I writes W ... failures F seconds
 * T ops/s R", lines of where the time went (--profile: and the 20 most
 * expensive attributes to read) and exits 1 when an operation changed
 * state it must not have (each such "MISMATCH" is printed with the
 * operation and the first differing line), 2 on a usage or setup error.
 *
 * Uses only the uapi <linux/ndctl.h> definitions.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/ndctl.h>

/* sysfs names and paths are short; a truncated one just fails to open */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#define ND_DEVS "/sys/bus/nd/devices"
#define MAX_BUFLEN (4u << 20)	/* the kernel's ND_IOCTL_MAX_BUFLEN */
#define PAGE 4096
#define MAXDEV 256
#define MAXATTR 64
#define MAXDIMM 32
#define MAXUNDO 4096
#define VALMAX 8192

/* ---- PRNG ------------------------------------------------------------ */
static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static int pct(int p)
{
	return (int)below(100) < p;
}

/* ---- log ------------------------------------------------------------- */
static int logfd = -1;
static unsigned long opi;
static char desc[512];
static int verbose;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void describe(const char *fmt, ...)
{
	char line[640];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	n = snprintf(line, sizeof(line), "[%.6f] %lu %s\n", now(), opi, desc);
	if (logfd >= 0 && write(logfd, line, n) < 0)
		logfd = -1;
	if (verbose)
		fputs(line, stdout);
}

static void logres(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	if (logfd < 0 && !verbose)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (logfd >= 0 && write(logfd, line, n) < 0)
		logfd = -1;
	if (verbose)
		fwrite(line, 1, n, stdout);
}

/* ---- sysfs helpers --------------------------------------------------- */
static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n >= 0)
		buf[n] = 0;
	return n;
}

/* write len bytes in one write(2); 0 or -errno */
static int write_file(const char *path, const char *val, size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0)
		n = -errno;
	else
		n = 0;
	close(fd);
	return n;
}

static int write_str(const char *path, const char *s)
{
	return write_file(path, s, strlen(s));
}

/* ---- the devices ----------------------------------------------------- */
struct attr {
	char name[48];		/* "size" or "nfit/handle" */
	int prof;		/* 1 + its slot in prof[] (--profile) */
	int writable;
	int fd;			/* kept open: pread() at 0 shows it again */
	int err;		/* why it could not be opened */
};

struct dev {
	char name[48];
	char path[96];		/* through /sys/bus/nd/devices or /sys/class/nd */
	struct attr attrs[MAXATTR];
	int nattr;
	char *snap;		/* "attr=value" lines of the last snapshot */
	size_t snaplen;
};

static struct dev devs[MAXDEV];
static int ndev;

struct dimm {
	char name[32];
	int fd;			/* /dev/nmemN, O_RDWR */
	uint32_t cfg_size, max_xfer;
	int have_cfg;
	uint8_t *label;		/* the area as of the last snapshot */
};

static struct dimm dimms[MAXDIMM];
static int ndimm;
static int busfd[8];
static int nbus;

/*
 * wait_probe is no state: settle() reads it (it waits for probing);
 * nfit/scrub counts the bus's scrubs, which end in the background (the
 * one every bus bind starts) whatever the operation was
 */
static int skip_attr(const char *name)
{
	return !strcmp(name, "uevent") || !strcmp(name, "driver_override") ||
		!strcmp(name, "wait_probe") || !strcmp(name, "scrub");
}

static int cmp_dev(const void *a, const void *b)
{
	return strcmp(((const struct dev *)a)->name, ((const struct dev *)b)->name);
}

static void scan_attrs(struct dev *d, const char *sub)
{
	char dir[PATH_MAX + 64], p[PATH_MAX + 128];
	struct dirent *e;
	struct stat st;
	DIR *dh;

	snprintf(dir, sizeof(dir), "%s%s%s", d->path, sub ? "/" : "", sub ? sub : "");
	dh = opendir(dir);
	if (!dh)
		return;
	while ((e = readdir(dh)) && d->nattr < MAXATTR) {
		if (e->d_name[0] == '.' || skip_attr(e->d_name))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (lstat(p, &st) || !S_ISREG(st.st_mode))
			continue;
		if (!(st.st_mode & 0644))
			continue;
		snprintf(d->attrs[d->nattr].name, sizeof(d->attrs[0].name),
			 "%s%s%s", sub ? sub : "", sub ? "/" : "", e->d_name);
		d->attrs[d->nattr].writable = !!(st.st_mode & 0200);
		d->attrs[d->nattr].fd = open(p, O_RDONLY | O_CLOEXEC);
		d->attrs[d->nattr].err = d->attrs[d->nattr].fd < 0 ? errno : 0;
		d->nattr++;
	}
	closedir(dh);
}

static int cmp_attr(const void *a, const void *b)
{
	return strcmp(((const struct attr *)a)->name, ((const struct attr *)b)->name);
}

static void close_dev(struct dev *d)
{
	int i;

	for (i = 0; i < d->nattr; i++)
		if (d->attrs[i].fd >= 0)
			close(d->attrs[i].fd);
	d->nattr = 0;
	free(d->snap);
	d->snap = NULL;
}

static struct dev olddevs[MAXDEV];
static int touched_dev(const char *name);

/* a device removed and added again under the same name answers ENODEV */
static int dev_gone(const struct dev *d)
{
	char v[64];
	int i;

	for (i = 0; i < d->nattr; i++)
		if (d->attrs[i].fd >= 0)
			return pread(d->attrs[i].fd, v, sizeof(v), 0) < 0 && errno == ENODEV;
	return 0;
}

/*
 * The device @name at @path, with its attributes open: taken over from
 * the previous scan, snapshot included, when the same device is still
 * there (opening every attribute again is what a snapshot would spend its
 * time on under the debug kernel), else scanned (no snapshot yet).
 */
static int add_dev(const char *name, const char *path, int nold, int nfit)
{
	struct dev *d = &devs[ndev];
	int i;

	for (i = 0; i < nold; i++) {
		struct dev *o = &olddevs[i];

		if (!o->nattr || strcmp(o->name, name) || strcmp(o->path, path))
			continue;
		if (touched_dev(name) && dev_gone(o))
			break;
		*d = *o;
		o->nattr = 0;	/* moved, snapshot and all */
		o->snap = NULL;
		ndev++;
		return 0;
	}
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->path, sizeof(d->path), "%s", path);
	scan_attrs(d, NULL);
	if (nfit)
		scan_attrs(d, "nfit");
	qsort(d->attrs, d->nattr, sizeof(d->attrs[0]), cmp_attr);
	ndev++;
	return 0;
}

/*
 * The devices of the bus, sorted by name, with their attributes.  Paths
 * go through the bus' symlinks (no realpath(): a walk of every sysfs
 * directory above the device, the most expensive part of a snapshot
 * under the debug kernel when it was done for every device).
 */
static void scan_devs(void)
{
	char p[PATH_MAX], rp[PATH_MAX];
	struct dirent *e;
	int i, nold = ndev;
	ssize_t n;
	DIR *dh;

	memcpy(olddevs, devs, sizeof(devs[0]) * ndev);
	ndev = 0;
	dh = opendir(ND_DEVS);
	while (dh && (e = readdir(dh)) && ndev < MAXDEV) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), ND_DEVS "/%s", e->d_name);
		add_dev(e->d_name, p, nold, 1);
	}
	if (dh)
		closedir(dh);
	/* the buses are not on the nd bus: /sys/class/nd/ndctlN/device */
	dh = opendir("/sys/class/nd");
	while (dh && (e = readdir(dh)) && ndev < MAXDEV) {
		if (strncmp(e->d_name, "ndctl", 5))
			continue;
		snprintf(p, sizeof(p), "/sys/class/nd/%s/device", e->d_name);
		n = readlink(p, rp, sizeof(rp) - 1);
		if (n <= 0)
			continue;
		rp[n] = 0;
		add_dev(strrchr(rp, '/') ? strrchr(rp, '/') + 1 : rp, p, nold, 1);
	}
	if (dh)
		closedir(dh);
	for (i = 0; i < nold; i++)
		close_dev(&olddevs[i]);
	qsort(devs, ndev, sizeof(devs[0]), cmp_dev);
}

static struct dev *find_dev(const char *name)
{
	int i;

	for (i = 0; i < ndev; i++)
		if (!strcmp(devs[i].name, name))
			return &devs[i];
	return NULL;
}

/* ---- snapshots ------------------------------------------------------- */
/* where the time goes: snapshots, full checks, ndctl runs */
static double t_snap, t_full, t_ndctl, t_labels;
static double t_settle, t_scan, t_state, t_dimms;
static unsigned long n_snap, n_snap_all, n_state, n_full, n_labels;
static unsigned long n_label_reads, n_label_areas;

struct sbuf {
	char *p;
	size_t len, cap;
};

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2 + 256;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			exit(2);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

/* --profile: read time per device kind and attribute */
static int profile;
static struct {
	char key[64];
	double t;
	unsigned long n;
} prof[512];
static int nprof;

static void prof_add(const struct dev *d, struct attr *a, double t)
{
	char key[64];
	int i;

	if (!a->prof) {
		snprintf(key, sizeof(key), "%.*s/%s", (int)strcspn(d->name, "0123456789"),
			 d->name, a->name);
		for (i = 0; i < nprof && strcmp(prof[i].key, key); i++)
			;
		if (i == nprof && nprof < 512)
			snprintf(prof[nprof++].key, sizeof(key), "%s", key);
		a->prof = i < 512 ? i + 1 : 0;
		if (!a->prof)
			return;
	}
	prof[a->prof - 1].t += t;
	prof[a->prof - 1].n++;
}

static void print_profile(void)
{
	int i, j, best;

	for (i = 0; i < 20 && i < nprof; i++) {
		for (best = i, j = i + 1; j < nprof; j++)
			if (prof[j].t > prof[best].t)
				best = j;
		if (best != i) {
			typeof(prof[0]) x = prof[i];

			prof[i] = prof[best];
			prof[best] = x;
		}
		printf("nvt-fuzz: profile: %-40s %8lu reads %7.3f s\n", prof[i].key,
		       prof[i].n, prof[i].t);
	}
}

/* every readable attribute of one device, as "name=value" or "name!errno" */
static char *dev_state(struct dev *d, size_t *len)
{
	static char val[VALMAX];
	struct sbuf b = { 0 };
	char head[128];
	int i, n;

	for (i = 0; i < d->nattr; i++) {
		if (d->attrs[i].fd < 0) {
			n = -d->attrs[i].err;
		} else {
			double t = profile ? now() : 0;

			n = pread(d->attrs[i].fd, val, sizeof(val) - 1, 0);
			n = n < 0 ? -errno : n;
			if (profile)
				prof_add(d, &d->attrs[i], now() - t);
			if (n >= 0)
				val[n] = 0;
		}
		if (n < 0) {
			/* write-only, or an attribute the device answers with an error */
			n = snprintf(head, sizeof(head), "%s!%d\n", d->attrs[i].name, -n);
			sb_add(&b, head, n);
			continue;
		}
		n = snprintf(head, sizeof(head), "%s=", d->attrs[i].name);
		sb_add(&b, head, n);
		sb_add(&b, val, strlen(val));
		if (!b.len || b.p[b.len - 1] != '\n')
			sb_add(&b, "\n", 1);
	}
	if (!b.p)
		sb_add(&b, "", 0);
	*len = b.len;
	return b.p;
}

static int dimm_cfg(struct dimm *m)
{
	struct nd_cmd_get_config_size c = { 0 };

	if (ioctl(m->fd, ND_IOCTL_GET_CONFIG_SIZE, &c) || c.status ||
	    !c.config_size || !c.max_xfer || c.config_size > (16u << 20))
		return -1;
	m->cfg_size = c.config_size;
	m->max_xfer = c.max_xfer > 65536 ? 65536 : c.max_xfer;
	return 0;
}

/* bytes [off, off + len) of a DIMM's label area into buf; -1 when unreadable */
static int read_range(struct dimm *m, uint32_t off, uint32_t len, uint8_t *buf)
{
	struct nd_cmd_get_config_data_hdr *h;
	uint32_t n;
	int rc = 0;

	h = malloc(sizeof(*h) + m->max_xfer);
	if (!h)
		exit(2);
	for (; len; off += n, len -= n, buf += n) {
		n = len < m->max_xfer ? len : m->max_xfer;
		h->in_offset = off;
		h->in_length = n;
		h->status = 0;
		if (ioctl(m->fd, ND_IOCTL_GET_CONFIG_DATA, h) || h->status) {
			rc = -1;
			break;
		}
		memcpy(buf, h->out_buf, n);
		n_label_reads++;
	}
	free(h);
	return rc;
}

/* read a DIMM's label area into buf; -1 when it cannot be read */
static int read_label(struct dimm *m, uint8_t *buf)
{
	return read_range(m, 0, m->cfg_size, buf);
}

/* the buses' and DIMMs' character devices, and every label area */
static void open_dimms(void)
{
	char p[64];
	int i;

	for (i = 0; i < ndimm; i++) {
		close(dimms[i].fd);
		free(dimms[i].label);
	}
	for (i = 0; i < nbus; i++)
		close(busfd[i]);
	ndimm = nbus = 0;
	for (i = 0; i < ndev; i++) {
		struct dimm *m;

		if (!strncmp(devs[i].name, "ndbus", 5) && nbus < 8) {
			snprintf(p, sizeof(p), "/dev/ndctl%s", devs[i].name + 5);
			busfd[nbus] = open(p, O_RDWR);
			if (busfd[nbus] >= 0)
				nbus++;
		}
		if (strncmp(devs[i].name, "nmem", 4) || ndimm >= MAXDIMM)
			continue;
		m = &dimms[ndimm];
		memset(m, 0, sizeof(*m));
		snprintf(m->name, sizeof(m->name), "%s", devs[i].name);
		snprintf(p, sizeof(p), "/dev/%s", m->name);
		m->fd = open(p, O_RDWR);
		if (m->fd < 0)
			continue;
		m->have_cfg = !dimm_cfg(m);
		if (m->have_cfg) {
			m->label = malloc(m->cfg_size);
			if (!m->label || read_label(m, m->label))
				m->have_cfg = 0;
		}
		ndimm++;
	}
}

/*
 * The settled bus: wait_probe blocks until probing is done, the nd core's
 * asynchronous registrations included (one domain for every bus: one
 * bus' wait_probe is enough).
 */
static void settle(void)
{
	char p[PATH_MAX + 16], v[64];
	int i;

	for (i = 0; i < ndev; i++)
		if (!strncmp(devs[i].name, "ndbus", 5)) {
			snprintf(p, sizeof(p), "%s/wait_probe", devs[i].path);
			read_file(p, v, sizeof(v));
			break;
		}
}

/*
 * What a success may have changed, to be taken again by refresh(): the
 * devices named by touch(), their regions, the regions sharing a DIMM
 * with those (a namespace's capacity is taken from every region on its
 * DIMMs: nfit_test's BLK regions alias its PMEM regions), every
 * namespace, btt, pfn and dax of those regions and their DIMMs (label
 * slots, state).  A device without a region (a DIMM, a bus) makes it
 * everything.  A wrong guess here cannot hide a defect: the next full
 * check compares every device with its snapshot, so a change it missed
 * shows up as a MISMATCH (a false one), never as nothing.
 */
#define MAXREG 64
static int touched_reg[MAXREG], ntouched, touch_all = 1;

/* the region a device belongs to (regionR, namespaceR.N, bttR.N, ...), or -1 */
static int region_of(const char *name)
{
	static const char *const pre[] = { "region", "namespace", "btt", "pfn", "dax" };
	size_t i, n;
	char *end;
	long r;

	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		n = strlen(pre[i]);
		if (strncmp(name, pre[i], n) || name[n] < '0' || name[n] > '9')
			continue;
		r = strtol(name + n, &end, 10);
		if (i ? *end != '.' : *end != 0)
			return -1;
		return r;
	}
	return -1;
}

/* is @name in a region touch() named (or everything touched) */
static int touched_dev(const char *name)
{
	int r = region_of(name), i;

	if (touch_all)
		return 1;
	for (i = 0; i < ntouched; i++)
		if (touched_reg[i] == r)
			return 1;
	return 0;
}

static void touch(const char *name)
{
	int r = region_of(name), i;

	if (r < 0 || ntouched >= MAXREG) {
		touch_all = 1;
		return;
	}
	for (i = 0; i < ntouched; i++)
		if (touched_reg[i] == r)
			return;
	touched_reg[ntouched++] = r;
}

/* does region device @d map DIMM @dimm ("mappingN=nmemX,..." in its snapshot) */
static int region_maps(const struct dev *d, const char *dimm)
{
	size_t n = strlen(dimm);
	const char *l;

	for (l = d->snap; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
		const char *v = strchr(l, '=');

		if (strncmp(l, "mapping", 7) || !v || v > strchr(l, '\n'))
			continue;
		if (!strncmp(v + 1, dimm, n) && v[1 + n] == ',')
			return 1;
	}
	return 0;
}

static int reg_listed(const int *regs, int nregs, int r)
{
	int i;

	for (i = 0; i < nregs; i++)
		if (regs[i] == r)
			return 1;
	return 0;
}

/*
 * The devices (sel[i] for devs[i]) and DIMMs (dsel[j] for dimms[j]) the
 * touched regions reach; 0, or -1 when that is everything.
 */
static int touched_set(char *sel, char *dsel)
{
	int regs[MAXREG], nregs = ntouched, i, j, k, r;

	if (touch_all)
		return -1;
	memcpy(regs, touched_reg, sizeof(regs[0]) * ntouched);
	memset(dsel, 0, ndimm);
	for (i = 0; i < ndev; i++) {
		r = region_of(devs[i].name);
		if (strncmp(devs[i].name, "region", 6) || !reg_listed(regs, ntouched, r))
			continue;
		if (!devs[i].snap)
			return -1;	/* not seen yet: its DIMMs are unknown */
		for (j = 0; j < ndimm; j++)
			dsel[j] |= region_maps(&devs[i], dimms[j].name);
	}
	/* the regions on those DIMMs */
	for (i = 0; i < ndev; i++) {
		r = region_of(devs[i].name);
		if (strncmp(devs[i].name, "region", 6) || reg_listed(regs, nregs, r))
			continue;
		for (j = 0; j < ndimm; j++)
			if (dsel[j] && region_maps(&devs[i], dimms[j].name))
				break;
		if (j < ndimm && nregs < MAXREG)
			regs[nregs++] = r;
	}
	for (i = 0; i < ndev; i++) {
		sel[i] = !devs[i].snap;
		r = region_of(devs[i].name);
		if (r >= 0 && reg_listed(regs, nregs, r))
			sel[i] = 1;
		for (k = 0; k < ndimm; k++)
			if (dsel[k] && !strcmp(devs[i].name, dimms[k].name))
				sel[i] = 1;
	}
	return 0;
}

/*
 * Take the state as the reference: the device list, and the attributes
 * (and with @labels the label areas) of what touch() named since the last
 * one, or of everything.  Label areas change only through label writes,
 * which only namespace, btt, pfn and dax attribute writes (and restores)
 * cause.
 */
static void snapshot(int labels)
{
	double t = now(), t1, t2, t3;
	char sel[MAXDEV], dsel[MAXDIMM];
	int i, all;

	if (!ndev)
		scan_devs();
	settle();	/* the buses of the previous scan: they never go away */
	t1 = now();
	scan_devs();
	t2 = now();
	all = touched_set(sel, dsel) < 0;
	for (i = 0; i < ndev; i++) {
		if (!all && !sel[i])
			continue;
		free(devs[i].snap);
		devs[i].snap = dev_state(&devs[i], &devs[i].snaplen);
		n_state++;
	}
	t3 = now();
	if (!ndimm) {
		open_dimms();
	} else if (labels) {
		for (i = 0; i < ndimm; i++)
			if (dimms[i].have_cfg && (all || dsel[i])) {
				n_label_areas++;
				if (read_label(&dimms[i], dimms[i].label))
					dimms[i].have_cfg = 0;
			}
	}
	t_settle += t1 - t;
	t_scan += t2 - t1;
	t_state += t3 - t2;
	t_dimms += now() - t3;
	t_snap += now() - t;
	n_snap++;
	n_snap_all += all;
	ntouched = 0;
	touch_all = 0;
}

/* a snapshot of everything */
static void snapshot_all(void)
{
	touch_all = 1;
	snapshot(1);
}

static unsigned long mismatches, maxmis = 10;

static void report(const char *what, const char *a, const char *b)
{
	const char *la = a, *lb = b;

	/* first differing line */
	while (*la && *lb) {
		const char *ea = strchr(la, '\n'), *eb = strchr(lb, '\n');
		size_t na = ea ? (size_t)(ea - la) : strlen(la);
		size_t nb = eb ? (size_t)(eb - lb) : strlen(lb);

		if (na != nb || memcmp(la, lb, na))
			break;
		la += na + (ea ? 1 : 0);
		lb += nb + (eb ? 1 : 0);
	}
	printf("MISMATCH op %lu (%s): %s\n", opi, desc, what);
	printf("#   before: %.200s\n", *la ? la : "(end)");
	printf("#   after:  %.200s\n", *lb ? lb : "(end)");
	logres("MISMATCH %s", what);
	mismatches++;
}

/* the state of one device is as snapshotted; 0 or -1 (reported) */
static int check_dev(const char *name)
{
	struct dev *d = find_dev(name);
	char what[128], *s;
	size_t n;
	int rc = 0;

	if (!d)
		return 0;
	if (access(d->path, F_OK)) {
		snprintf(what, sizeof(what), "%s disappeared", name);
		report(what, "", "");
		return -1;
	}
	s = dev_state(d, &n);
	if (n != d->snaplen || memcmp(s, d->snap, n)) {
		snprintf(what, sizeof(what), "attributes of %s changed", name);
		report(what, d->snap, s);
		rc = -1;
	}
	free(s);
	return rc;
}

/* every device as snapshotted: the device list, attributes */
static int __check_all(void);

static int check_all(void)
{
	double t = now();
	int rc = __check_all();

	t_full += now() - t;
	n_full++;
	return rc;
}

static int __check_all(void)
{
	int i, nold = ndev, rc = 0;

	for (i = 0; i < ndev; i++)
		if (check_dev(devs[i].name))
			return -1;
	/* same device names? */
	{
		struct dirent *e;
		DIR *dh = opendir(ND_DEVS);
		int n = 0;

		while (dh && (e = readdir(dh))) {
			if (e->d_name[0] == '.')
				continue;
			if (!find_dev(e->d_name)) {
				char what[128];

				snprintf(what, sizeof(what), "new device %.64s", e->d_name);
				report(what, "", "");
				rc = -1;
			}
			n++;
		}
		if (dh)
			closedir(dh);
		for (i = 0; i < ndev; i++)
			n += !strncmp(devs[i].name, "ndbus", 5);
		if (!rc && n != nold) {
			report("device count changed", "", "");
			rc = -1;
		}
	}
	return rc;
}

/* bytes [off, off + len) of a DIMM's label area as snapshotted */
static int check_label_range(struct dimm *m, uint32_t off, uint32_t len)
{
	struct nd_cmd_get_config_data_hdr *h;
	uint32_t n, j;
	int rc = 0;

	if (!m->have_cfg || off >= m->cfg_size)
		return 0;
	if (len > m->cfg_size - off)
		len = m->cfg_size - off;
	h = malloc(sizeof(*h) + m->max_xfer);
	if (!h)
		exit(2);
	for (; len && !rc; off += n, len -= n) {
		n = len < m->max_xfer ? len : m->max_xfer;
		h->in_offset = off;
		h->in_length = n;
		h->status = 0;
		if (ioctl(m->fd, ND_IOCTL_GET_CONFIG_DATA, h) || h->status) {
			char what[128];

			snprintf(what, sizeof(what), "label area of %s unreadable at %u: %s",
				 m->name, off, strerror(errno));
			report(what, "", "");
			rc = -1;
		} else if (memcmp(h->out_buf, m->label + off, n)) {
			char what[128];

			for (j = 0; h->out_buf[j] == m->label[off + j]; j++)
				;
			snprintf(what, sizeof(what), "label area of %s changed at byte %u",
				 m->name, off + j);
			report(what, "", "");
			rc = -1;
		}
	}
	free(h);
	return rc;
}

/* every DIMM's whole label area as snapshotted */
static int check_labels(void)
{
	double t = now();
	int i, rc = 0;

	for (i = 0; i < ndimm && !rc; i++)
		rc = check_label_range(&dimms[i], 0, dimms[i].cfg_size);
	t_labels += now() - t;
	n_labels++;
	return rc;
}

/* ---- ndctl checkpoints ----------------------------------------------- */
static const char *ndctl_cmd;
static char *ndctl_ref;
static int ndctl_stale = 1, ndctl_pending;
static unsigned long ndctl_runs, ndctl_compared;

static char *run_ndctl(void)
{
	struct sbuf b = { 0 };
	char cmd[256], chunk[4096];
	size_t n;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s list -BDRNi 2>&1", ndctl_cmd);
	f = popen(cmd, "r");
	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sb_add(&b, chunk, n);
	pclose(f);
	if (!b.p)
		sb_add(&b, "", 0);
	ndctl_runs++;
	return b.p;
}

static void ndctl_checkpoint(void)
{
	double t = now();
	char *s = run_ndctl();

	t_ndctl += now() - t;
	if (!s)
		return;
	/* compared when nothing succeeded since the reference; else it is one */
	ndctl_pending = ndctl_stale || !ndctl_ref;
	if (!ndctl_pending) {
		ndctl_compared++;
		if (strcmp(ndctl_ref, s))
			report("ndctl list -BDRNi changed", ndctl_ref, s);
	}
	free(ndctl_ref);
	ndctl_ref = s;
	ndctl_stale = 0;
}

/* a device whose attribute writes may write labels */
static int label_dev(const char *name)
{
	return !strncmp(name, "namespace", 9) || !strncmp(name, "btt", 3) ||
		!strncmp(name, "pfn", 3) || !strncmp(name, "dax", 3);
}

/* ---- undo ------------------------------------------------------------ */
struct undo {
	char dev[48];		/* the device it changes */
	char path[PATH_MAX];
	char val[160];
};

static struct undo undos[MAXUNDO];
static int nundo;

static void push_undo(const char *dev, const char *path, const char *val)
{
	if (nundo >= MAXUNDO)
		return;
	snprintf(undos[nundo].dev, sizeof(undos[0].dev), "%s", dev);
	snprintf(undos[nundo].path, sizeof(undos[0].path), "%s", path);
	snprintf(undos[nundo].val, sizeof(undos[0].val), "%s", val);
	nundo++;
}

static unsigned long successes, restores;

static void restore(void)
{
	int i;

	if (!nundo)
		return;
	describe("restore %d undo entries", nundo);
	for (i = nundo - 1; i >= 0; i--) {
		int rc = write_str(undos[i].path, undos[i].val);

		logres("  undo %s <- %.40s: %d", undos[i].path, undos[i].val, rc);
		touch(undos[i].dev);
	}
	nundo = 0;
	restores++;
	snapshot(1);
	ndctl_stale = 1;
}

/* the operation changed state legitimately: @dev's region and its kin */
static void succeeded(const char *dev, int labels)
{
	touch(dev);
	successes++;
	ndctl_stale = 1;
	snapshot(labels);
}

/* ---- values ---------------------------------------------------------- */
static const char *const words[] = {
	"", "\n", " ", "0", "1", "-1", "+1", "00", "0x0", "0x", "1e3", "0777",
	"4294967295", "4294967296", "-2147483648", "2147483648",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808",
	"18446744073709551615", "18446744073709551616",
	"99999999999999999999999999999999999999",
	"0xffffffffffffffff", "0x10000000000000000", "512", "520", "528",
	"4096", "4104", "4160", "4224", "4097", "2097152", "1073741824",
	"16777216", "33554432", "4194304", "65536", "true", "false", "y", "n",
	"on", "off", "pmem", "blk", "raw", "safe", "dax", "fsdax", "devdax",
	"sector", "memory", "none", "btt", "pfn", "btt2", "io",
	"00000000-0000-0000-0000-000000000000",
	"ffffffff-ffff-ffff-ffff-ffffffffffff",
	"6a7f3b2c-9d4e-4f1a-8b3c-2d5e7f9a1b3c",
	"6A7F3B2C-9D4E-4F1A-8B3C-2D5E7F9A1B3C",
	"6a7f3b2c9d4e4f1a8b3c2d5e7f9a1b3c",
	"{6a7f3b2c-9d4e-4f1a-8b3c-2d5e7f9a1b3c}",
	"6a7f3b2c-9d4e-4f1a-8b3c-2d5e7f9a1b3",
	"6a7f3b2c-9d4e-4f1a-8b3c-2d5e7f9a1b3c0",
	"6a7f3b2g-9d4e-4f1a-8b3c-2d5e7f9a1b3c",
	"namespace99.99", "namespace0.0", "namespace1.0", "namespace0.",
	"btt0.0", "pfn0.0", "dax0.0", "region0", "nmem0", "ndbus0", "../..",
	"%s%s%n", "\\", "\t1", "1\t", "1 2",
};

/* a value for attribute a of device d into v; its length */
static size_t gen_value(const struct dev *d, const char *a, char *v)
{
	size_t n = 0;
	int i;

	(void)a;
	switch (below(10)) {
	case 0:
	case 1:
	case 2:		/* a word, with or without newline(s) */
		n = snprintf(v, VALMAX, "%s", words[below(sizeof(words) / sizeof(words[0]))]);
		break;
	case 3:		/* a number near a power of two or a multiple of one */
	{
		uint64_t x = 1ull << below(64);
		int64_t delta = (int64_t)below(5) - 2;

		if (pct(30))
			x *= below(64) + 1;
		x += delta;
		n = snprintf(v, VALMAX, pct(30) ? "%#" PRIx64 : pct(20) ? "-%" PRIu64 : "%" PRIu64, x);
		break;
	}
	case 4:		/* random printable */
		n = below(pct(80) ? 80 : 5000);
		for (i = 0; i < (int)n; i++)
			v[i] = 32 + below(95);
		break;
	case 5:		/* random bytes, NULs and 0xff included */
		n = below(pct(80) ? 64 : 4200);
		for (i = 0; i < (int)n; i++)
			v[i] = rnd();
		break;
	case 6:		/* around the page size sysfs takes */
	{
		static const size_t sz[] = { 4095, 4096, 4097, 8191, 8192 };

		n = sz[below(5)];
		memset(v, pct(50) ? '1' : 'a', n);
		break;
	}
	case 7:		/* the name of an existing device (maybe this one) */
	{
		const struct dev *o = &devs[below(ndev)];

		n = snprintf(v, VALMAX, "%s", pct(20) ? d->name : o->name);
		break;
	}
	case 8:		/* a random uuid, sometimes damaged */
		n = snprintf(v, VALMAX, "%08x-%04x-%04x-%04x-%012" PRIx64,
			     (unsigned int)rnd(), (unsigned int)below(65536),
			     (unsigned int)below(65536), (unsigned int)below(65536),
			     (uint64_t)(rnd() & 0xffffffffffffull));
		if (pct(30))
			v[below(n)] = "g-Z \0{"[below(6)];
		break;
	default:	/* a word with an embedded NUL and garbage behind it */
		n = snprintf(v, VALMAX, "%s", words[below(sizeof(words) / sizeof(words[0]))]);
		v[n++] = 0;
		n += snprintf(v + n, VALMAX - n, "junk%u", (unsigned int)below(1000));
		break;
	}
	if (n > VALMAX - 3)
		n = VALMAX - 3;
	switch (below(4)) {
	case 0:
		v[n++] = '\n';
		break;
	case 1:
		v[n++] = '\n';
		v[n++] = '\n';
		break;
	}
	return n;
}

static void printable(const char *v, size_t n, char *out, size_t size)
{
	size_t i, o = 0;

	for (i = 0; i < n && o + 5 < size; i++) {
		unsigned char c = v[i];

		if (c >= 32 && c < 127 && c != '\\')
			out[o++] = c;
		else
			o += snprintf(out + o, size - o, "\\x%02x", c);
	}
	if (i < n)
		o += snprintf(out + o, size - o, "...(%zu)", n);
	out[o] = 0;
}

/* ---- operations: sysfs writes ----------------------------------------- */
static unsigned long n_ioctl, n_write, n_config, n_toggle;

static int writable_attrs(const struct dev *d, int *idx)
{
	int i, n = 0;

	for (i = 0; i < d->nattr; i++)
		if (d->attrs[i].writable)
			idx[n++] = i;
	return n;
}

static void op_write(void)
{
	static char v[VALMAX], shown[200], old[VALMAX];
	int idx[MAXATTR], tries, n = 0, rc;
	struct dev *d = NULL;
	char p[PATH_MAX + 64];
	const char *a;
	size_t len;

	for (tries = 0; tries < 20 && !n; tries++) {
		d = &devs[below(ndev)];
		n = writable_attrs(d, idx);
	}
	if (!n) {
		describe("write: no writable attribute");
		return;
	}
	a = d->attrs[idx[below(n)]].name;
	len = gen_value(d, a, v);
	printable(v, len, shown, 120);
	snprintf(p, sizeof(p), "%s/%s", d->path, a);
	if (read_file(p, old, sizeof(old)) < 0)
		old[0] = 0;
	describe("write %s/%s len %zu \"%s\"", d->name, a, len, shown);
	n_write++;
	rc = write_file(p, v, len);
	logres("  -> %d", rc);
	if (rc) {
		if (check_dev(d->name))
			snapshot_all();
		return;
	}
	/* accepted: remember how to undo it, take the new state */
	old[strcspn(old, "\n")] = 0;
	if (!old[0])
		strcpy(old, "\n");
	if (!strcmp(a, "size") && strncmp(d->name, "namespace", 9) == 0)
		push_undo(d->name, p, "0");
	else
		push_undo(d->name, p, old);
	succeeded(d->name, label_dev(d->name));
}

/* a valid namespace on a region's seed, sometimes claimed by a btt/pfn/dax */
static void op_config(void)
{
	char p[PATH_MAX + 64], seed[64], v[128], ns[64], avail[64];
	struct dev *r = NULL;
	unsigned long long sz, a;
	int i, rc;

	for (i = 0; i < 20; i++) {
		r = &devs[below(ndev)];
		if (!strncmp(r->name, "region", 6))
			break;
		r = NULL;
	}
	if (!r) {
		describe("config: no region");
		return;
	}
	snprintf(p, sizeof(p), "%s/namespace_seed", r->path);
	if (read_file(p, seed, sizeof(seed)) <= 1) {
		describe("config: %s has no namespace seed", r->name);
		return;
	}
	seed[strcspn(seed, "\n")] = 0;
	snprintf(ns, sizeof(ns), "%s", seed);
	snprintf(p, sizeof(p), "%s/available_size", r->path);
	read_file(p, avail, sizeof(avail));
	a = strtoull(avail, NULL, 0);
	sz = (below(4) + 1) << 22;	/* 4..16 MiB */
	if (pct(20))
		sz = a;
	describe("config %s on %s: size %llu of %llu", ns, r->name, sz, a);
	n_config++;
	snprintf(p, sizeof(p), ND_DEVS "/%s/uuid", ns);
	snprintf(v, sizeof(v), "%08x-%04x-4%03x-8%03x-%012" PRIx64 "\n",
		 (unsigned int)rnd(), (unsigned int)below(65536),
		 (unsigned int)below(4096), (unsigned int)below(4096),
		 (uint64_t)(rnd() & 0xffffffffffffull));
	rc = write_str(p, v);
	logres("  uuid -> %d", rc);
	snprintf(p, sizeof(p), ND_DEVS "/%s/alt_name", ns);
	snprintf(v, sizeof(v), "fuzz%lu\n", opi);
	rc = rc ? rc : write_str(p, v);
	snprintf(p, sizeof(p), ND_DEVS "/%s/size", ns);
	snprintf(v, sizeof(v), "%llu\n", sz);
	rc = rc ? rc : write_str(p, v);
	logres("  size -> %d", rc);
	if (rc) {
		/* partial configs (uuid, name) are state too */
		succeeded(ns, 1);
		return;
	}
	push_undo(ns, p, "0");
	if (pct(50)) {
		static const char *const kinds[] = { "btt", "pfn", "dax" };
		const char *k = kinds[below(3)];

		snprintf(p, sizeof(p), "%s/%s_seed", r->path, k);
		if (read_file(p, seed, sizeof(seed)) > 1) {
			seed[strcspn(seed, "\n")] = 0;
			snprintf(p, sizeof(p), ND_DEVS "/%s/namespace", seed);
			rc = write_str(p, ns);
			logres("  %s namespace=%s -> %d", seed, ns, rc);
			if (!rc)
				push_undo(seed, p, "\n");
		}
	}
	succeeded(ns, 1);
}

/* unbind a namespace, btt, pfn, dax or region from its driver */
static void op_toggle(void)
{
	char p[PATH_MAX + 64], drv[PATH_MAX], bind[PATH_MAX + 16];
	struct dev *d;
	ssize_t n;
	int rc;

	d = &devs[below(ndev)];
	if (!strncmp(d->name, "ndbus", 5) || !strncmp(d->name, "nmem", 4)) {
		describe("toggle: %s skipped (bus and DIMMs stay bound)", d->name);
		return;
	}
	snprintf(p, sizeof(p), "%s/driver", d->path);
	n = readlink(p, drv, sizeof(drv) - 1);
	if (n < 0) {
		describe("toggle: %s has no driver", d->name);
		return;
	}
	drv[n] = 0;
	describe("toggle: unbind %s", d->name);
	n_toggle++;
	snprintf(p, sizeof(p), "%s/driver/unbind", d->path);
	snprintf(bind, sizeof(bind), "%s/driver", d->path);
	if (!realpath(bind, drv))
		return;
	rc = write_str(p, d->name);
	logres("  -> %d", rc);
	if (rc) {
		if (check_dev(d->name))
			snapshot_all();
		return;
	}
	snprintf(bind, sizeof(bind), "%s/bind", drv);
	push_undo(d->name, bind, d->name);
	succeeded(d->name, 0);
}

/* ---- operations: ioctls ---------------------------------------------- */
static uint8_t *area;		/* MAX_BUFLEN + 2 pages, the last one PROT_NONE */
static size_t area_len;

/* a pointer to n bytes that end at the guard page */
static uint8_t *envelope(size_t n)
{
	if (n > area_len)
		n = area_len;
	return area + area_len - n;
}

static uint32_t pick_len(uint32_t xfer, uint32_t size)
{
	static const uint32_t fixed[] = {
		0, 1, 3, 4, 7, 8, 16, 255, 256, 4095, 4096, 4097, 65535, 65536,
		65537, MAX_BUFLEN - 16, MAX_BUFLEN - 12, MAX_BUFLEN - 8,
		MAX_BUFLEN, MAX_BUFLEN + 1, 0x7fffffff, 0x80000000, 0xfffffff0,
		0xfffffffc, 0xffffffff,
	};

	switch (below(4)) {
	case 0:
		return fixed[below(sizeof(fixed) / sizeof(fixed[0]))];
	case 1:
		return xfer + (int)below(5) - 2;
	case 2:
		return size + (int)below(5) - 2;
	default:
		return below(xfer ? 2 * xfer : 8192);
	}
}

static const char *errstr(int rc)
{
	static char b[32];

	snprintf(b, sizeof(b), "%d", rc);
	return b;
}

static void op_ioctl(void)
{
	uint32_t w_off = 0, w_len = 0;	/* label bytes a write may touch */
	int dimm = pct(75) && ndimm, ro = pct(15), fd, own = 0, rc, write_op = 0;
	struct dimm *m = dimm ? &dimms[below(ndimm)] : NULL;
	unsigned int nr, dir = _IOC_READ | _IOC_WRITE, size, type = ND_IOCTL;
	uint32_t xfer = m && m->have_cfg ? m->max_xfer : 4096;
	uint32_t csize = m && m->have_cfg ? m->cfg_size : 131072;
	size_t env = 0, buflen;
	uint8_t *buf;
	void *arg;
	char p[64];
	unsigned long req;

	if (!dimm && !nbus) {
		describe("ioctl: no bus");
		return;
	}
	/* the command */
	switch (below(8)) {
	case 0:
		nr = below(256);
		break;
	case 1:
	case 2:
		nr = below(16);
		break;
	case 3:
	case 4:
		nr = ND_CMD_CALL;
		break;
	default:
		nr = dimm ? ND_CMD_GET_CONFIG_SIZE + below(3) : below(11);
		break;
	}
	size = nr == ND_CMD_CALL ? sizeof(struct nd_cmd_pkg) :
		nr == ND_CMD_GET_CONFIG_SIZE ? sizeof(struct nd_cmd_get_config_size) :
		nr == ND_CMD_DIMM_FLAGS ? sizeof(struct nd_cmd_dimm_flags) : 8;
	if (pct(10))
		dir = below(4);
	if (pct(10))
		size = below(pct(50) ? 64 : 1 << 14);
	if (pct(3))
		type = below(256);
	req = _IOC(dir, type, nr, size);
	if (pct(2))
		req = rnd();

	/* the envelope */
	buf = envelope(4096);
	if (nr == ND_CMD_CALL) {
		struct nd_cmd_pkg pk = { 0 };
		uint32_t in = pick_len(xfer, csize), out = pick_len(xfer, csize);
		uint8_t *pl;

		if (pct(50))
			in = below(64);
		if (pct(50))
			out = below(512);
		pk.nd_family = pct(85) ? below(7) : rnd();
		pk.nd_command = pct(70) ? below(32) : pct(50) ? below(64) : rnd();
		pk.nd_size_in = in;
		pk.nd_size_out = out;
		pk.nd_fw_size = rnd();
		if (pct(10))
			pk.nd_reserved2[below(9)] = rnd();
		env = sizeof(pk) + (uint64_t)in + out;
		if (env > MAX_BUFLEN + (size_t)PAGE)
			env = sizeof(pk) + 64;	/* the kernel refuses it from the header */
		buf = envelope(env);
		memcpy(buf, &pk, sizeof(pk));
		pl = buf + sizeof(pk);
		if (in && env >= sizeof(pk) + in) {
			uint32_t i;

			for (i = 0; i < in && i < 4096; i++)
				pl[i] = rnd();
		}
		/* a label write through the package: the bytes already there */
		if (pk.nd_command == ND_CMD_SET_CONFIG_DATA && in >= 8 && m && m->have_cfg &&
		    env >= sizeof(pk) + in) {
			uint32_t off = below(csize), n = in - 8;

			if (off + n > csize)
				off = n <= csize ? csize - n : 0;
			memcpy(pl, &off, 4);
			memcpy(pl + 4, &n, 4);
			w_off = off;
			w_len = n;
			if (off + (uint64_t)n <= csize)
				memcpy(pl + 8, m->label + off, n);
			else
				memset(pl, 0xff, 4);	/* offset past the end */
		}
		write_op = 1;
		describe("ioctl %s%s call family %llu func %llu in %u out %u%s req %#lx",
			 m ? m->name : "ndctl", ro ? " ro" : "",
			 (unsigned long long)pk.nd_family,
			 (unsigned long long)pk.nd_command, in, out,
			 pk.nd_reserved2[0] | pk.nd_reserved2[8] ? " reserved" : "", req);
	} else if (dimm && (nr == ND_CMD_GET_CONFIG_DATA || nr == ND_CMD_SET_CONFIG_DATA)) {
		uint32_t len = pick_len(xfer, csize), off;
		uint32_t hdr[2];

		if (pct(40))	/* a transfer the kernel takes */
			len = 1 + below(xfer < csize ? xfer : csize);
		switch (pct(40) ? 3 : below(4)) {
		case 0:
			off = below(csize);
			break;
		case 1:
			off = csize + (int)below(5) - 3;
			break;
		case 2:
			off = pick_len(xfer, csize);
			break;
		default:
			off = csize > len ? below(csize - len + 1) : 0;
			break;
		}
		hdr[0] = off;
		hdr[1] = len;
		env = 8 + (uint64_t)len + 4;
		if (env > MAX_BUFLEN + (size_t)PAGE)
			env = 12;
		if (pct(10) && env > 12)
			env = below(env);	/* a user buffer short of the envelope */
		buf = envelope(env < 8 ? 8 : env);
		memcpy(buf, hdr, 8);
		if (nr == ND_CMD_SET_CONFIG_DATA) {
			write_op = 1;
			w_off = off;
			w_len = len;
			if (m->have_cfg && off < csize && len <= csize - off && env >= 8 + (size_t)len)
				memcpy(buf + 8, m->label + off, len);
			else if (env > 8)
				memset(buf + 8, 0x5a, env - 8 > 4096 ? 4096 : env - 8);
		}
		describe("ioctl %s%s %s off %u len %u env %zu req %#lx", m->name,
			 ro ? " ro" : "", nr == ND_CMD_SET_CONFIG_DATA ? "set_data" : "get_data",
			 off, len, env, req);
	} else {
		env = below(64);
		buf = envelope(env ? env : 1);
		for (size_t i = 0; i < env; i++)
			buf[i] = rnd();
		describe("ioctl %s%s cmd %u env %zu req %#lx", m ? m->name : "ndctl",
			 ro ? " ro" : "", nr, env, req);
		write_op = nr == ND_CMD_SET_CONFIG_DATA || nr == ND_CMD_CALL;
	}
	arg = buf;
	buflen = env;
	(void)buflen;
	switch (below(40)) {
	case 0:
		arg = NULL;
		logres("  arg NULL");
		break;
	case 1:
		arg = (void *)0xffff888000000000ull;
		logres("  arg kernel address");
		break;
	case 2:
		arg = area + area_len;	/* the guard page */
		logres("  arg guard page");
		break;
	}

	/* the file */
	fd = -1;
	if (ro || (!m && nbus == 0)) {
		if (m)
			snprintf(p, sizeof(p), "/dev/%s", m->name);
		else
			snprintf(p, sizeof(p), "/dev/ndctl0");
		fd = open(p, O_RDONLY);
		own = fd >= 0;
	}
	if (fd < 0)
		fd = m ? m->fd : busfd[below(nbus)];
	n_ioctl++;
	rc = ioctl(fd, req, arg);
	if (rc < 0)
		rc = -errno;
	if (own)
		close(fd);
	logres("  -> %s", errstr(rc));
	if (rc < 0 || write_op) {
		unsigned long before = mismatches;

		if (!m || check_dev(m->name) == 0) {
			if (m && w_len)
				check_label_range(m, w_off, w_len);
		}
		if (mismatches != before)
			snapshot_all();
	}
}

/* ---- main ------------------------------------------------------------ */
static void usage(void)
{
	fprintf(stderr, "usage: nvt-fuzz [--seed S] [--ops N] [--seconds T] [--log FILE]\n"
		"  [--full-every K] [--label-every K] [--ndctl CMD] [--ndctl-every K]\n"
		"  [--restore-every K] [--profile]\n"
		"  [--verbose]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long ops = 0, full_every = 32, ndctl_every = 4000, restore_every = 200;
	unsigned long label_every = 64;
	unsigned long nfail = 0;
	double seconds = 0, t0, t;
	uint64_t seed = 0;
	int have_seed = 0, i;

	for (i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--verbose")) {
			verbose = 1;
			continue;
		}
		if (!strcmp(o, "--profile")) {
			profile = 1;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(o, "--seed")) {
			seed = strtoull(v, NULL, 0);
			have_seed = 1;
		} else if (!strcmp(o, "--ops")) {
			ops = strtoul(v, NULL, 0);
		} else if (!strcmp(o, "--seconds")) {
			seconds = strtod(v, NULL);
		} else if (!strcmp(o, "--log")) {
			logfd = open(v, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
			if (logfd < 0) {
				perror(v);
				exit(2);
			}
		} else if (!strcmp(o, "--full-every")) {
			full_every = strtoul(v, NULL, 0);
		} else if (!strcmp(o, "--label-every")) {
			label_every = strtoul(v, NULL, 0);
		} else if (!strcmp(o, "--ndctl")) {
			ndctl_cmd = v;
		} else if (!strcmp(o, "--ndctl-every")) {
			ndctl_every = strtoul(v, NULL, 0);
		} else if (!strcmp(o, "--restore-every")) {
			restore_every = strtoul(v, NULL, 0);
		} else {
			usage();
		}
	}
	if (!ops && seconds <= 0)
		ops = 1000;
	if (!have_seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	rng = seed;
	printf("nvt-fuzz: seed %" PRIu64 "\n", seed);
	fflush(stdout);

	{	/* an open file per attribute */
		struct rlimit rl;

		if (!getrlimit(RLIMIT_NOFILE, &rl)) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
	}
	area_len = MAX_BUFLEN + PAGE;
	area = mmap(NULL, area_len + PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED || mprotect(area + area_len, PAGE, PROT_NONE)) {
		perror("mmap");
		exit(2);
	}
	snapshot_all();
	if (!ndev) {
		fprintf(stderr, "nvt-fuzz: no device under " ND_DEVS "\n");
		exit(2);
	}
	if (ndctl_cmd)
		ndctl_checkpoint();

	t0 = now();
	for (opi = 0;; opi++) {
		unsigned long before = mismatches;
		int r;

		if (ops && opi >= ops)
			break;
		if (seconds > 0 && (opi & 15) == 0 && now() - t0 >= seconds)
			break;
		if (restore_every && opi && opi % restore_every == 0)
			restore();
		if (ndctl_cmd && ndctl_every && opi && opi % ndctl_every == 0)
			ndctl_checkpoint();
		else
			ndctl_pending = 0;
		r = below(100);
		if (r < 50)
			op_ioctl();
		else if (r < 96)
			op_write();
		else if (r < 98)
			op_config();
		else
			op_toggle();
		/* whatever the operation did: after a success it is the new state */
		if (full_every && opi % full_every == full_every - 1 &&
		    mismatches == before && check_all())
			snapshot_all();
		if (label_every && opi % label_every == label_every - 1 &&
		    mismatches == before && check_labels())
			snapshot_all();
		/* a checkpoint's reference and the same after one failed operation */
		if (ndctl_pending && !ndctl_stale && mismatches == before)
			ndctl_checkpoint();
		if (mismatches != before)
			nfail++;
		if (mismatches >= maxmis) {
			printf("nvt-fuzz: %lu mismatches, stopping\n", mismatches);
			opi++;
			break;
		}
	}
	t = now() - t0;
	/* leave what we found, and check it one last time */
	restore();
	if (ndctl_cmd)
		ndctl_checkpoint();
	printf("nvt-fuzz: seed %" PRIu64 " ops %lu ioctls %lu writes %lu configs %lu toggles %lu "
	       "successes %lu restores %lu ndctl %lu failures %lu seconds %.1f ops/s %.1f\n",
	       seed, opi, n_ioctl, n_write, n_config, n_toggle, successes, restores,
	       ndctl_runs, mismatches, t, t > 0 ? opi / t : 0.0);
	printf("nvt-fuzz: time: snapshots %lu %.1f s, full checks %lu %.1f s, "
	       "label checks %lu %.1f s, ndctl %.1f s (%lu compared)\n",
	       n_snap, t_snap, n_full, t_full, n_labels, t_labels, t_ndctl, ndctl_compared);
	printf("nvt-fuzz: snapshot time: settle %.1f s, scan %.1f s, attributes %.1f s "
	       "(%lu devices), label areas %.1f s; %lu of everything; label areas read %lu "
	       "(%lu transfers)\n", t_settle, t_scan,
	       t_state, n_state, t_dimms, n_snap_all, n_label_areas, n_label_reads);
	if (profile)
		print_profile();
	return mismatches ? 1 : 0;
}
