// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-powercut [-r] BTT_DIR PASSES [DRIVER]: enumerate power cuts over BTT
 * writes (DRIVER: the namespace driver binding the btt, nd_pmem by
 * default).
 *
 * BTT_DIR is a bound btt (/sys/bus/nd/devices/bttR.N) of the test build,
 * whose nd_btt.ko media stores go through nfit_test_powercut.ko.  Each
 * round is a write sequence (blocks, CPUs, overwrites).  It is first run
 * without a cut to count its media stores S, then for every N in 0..S:
 * the round's blocks get their initial pattern, the cut is armed after N
 * stores, the sequence runs, the btt is unbound, the cut disarmed and
 * the btt bound again: attach reads the media and runs the flog
 * recovery.  Every block must then hold exactly one of the patterns
 * written to it, and the writes that became visible must be a prefix of
 * the sequence (writes are synchronous, so a later one visible before an
 * earlier one is a torn history).  When every block costs the four
 * stores of media-formats 6.9 (data, flog halves, map entry), the
 * visible prefix must also be exactly the writes whose flog entry (store
 * 3 of 4) was let through.
 *
 * -r: the reordering model instead (nfit_test_powercut's cut_epoch): a
 * fence (nvdimm_flush) closes an epoch, and at a cut every unit (aligned
 * 8-byte piece, or quarter of a wider store) of the cut epoch persisted
 * or not on its own, everything before the epoch persisted, nothing
 * after it.  Each round (one or two single-block writes) is first run
 * dry to learn its epochs from the module's trace, then for every epoch
 * E and every subset M of its units (all 2^U of them; 512 random ones
 * plus none when U > 12, "sampled"): the blocks get their initial
 * pattern and are flushed, the cut is armed, the writes run, the module
 * puts back what did not persist ("crash"), the btt is detached and
 * attached again.  Checked: it attaches; every block holds one whole
 * pattern; a write is visible exactly when both halves of its flog
 * entry persisted; and a probe write on every CPU afterwards changes no
 * other block (a free block recovery handed out that the map still
 * names would).
 *
 * -f: failed stores instead of power cuts (nfit_test_powercut's
 * fail_store, fail_lands): for each store k of a block write (data, flog
 * halves, map entry) and each outcome (the bytes landed or not), a block
 * is written with store k failing, then writes continue on the same lane
 * (a refused write is retried: the driver may finish the failed write
 * first), the btt is detached and attached again.  Checked: the failed
 * write leaves its block whole (old or new pattern), every later write
 * reads back, and attach finds a consistent flog.
 *
 * -R: no power cut: a child flips the region's read_only 0/1 PASSES
 * times while block writes run on every CPU; a write that fails leaves
 * its block at the old or the new pattern.  Then the btt is detached and
 * attached again: it must attach, and every block must show a whole
 * pattern between its last completed write and its last attempted one.
 *
 * Prints one line per round and a total "cuts: N torn: T" line; exits 1
 * on any torn block, failed attach or I/O error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <limits.h>
#include <sys/wait.h>

#define KNOB "/sys/module/nfit_test_powercut/parameters/"
#define MAXW 64		/* block writes per round */

struct bwrite {
	int cpu;
	long block;
	int nblocks;	/* consecutive blocks in one pwrite */
};

struct round {
	const char *name;
	int n;
	struct bwrite w[16];
};

/* every round writes each of its lanes at least twice (write, overwrite) */
static const struct round rounds[] = {
	{ "two lanes, write then overwrite", 4,
	  { { 0, 10, 1 }, { 1, 20, 1 }, { 0, 10, 1 }, { 1, 20, 1 } } },
	{ "one lane, one block overwritten 6 times", 6,
	  { { 0, 5, 1 }, { 0, 5, 1 }, { 0, 5, 1 }, { 0, 5, 1 }, { 0, 5, 1 },
	    { 0, 5, 1 } } },
	{ "an 8-block write, then a 2-block overwrite", 2,
	  { { 1, 100, 8 }, { 0, 103, 2 } } },
	{ "four blocks forth and back on alternating lanes", 8,
	  { { 0, 0, 1 }, { 1, 1, 1 }, { 0, 2, 1 }, { 1, 3, 1 }, { 0, 3, 1 },
	    { 1, 2, 1 }, { 0, 1, 1 }, { 1, 0, 1 } } },
};

static const char *btt_dir, *btt_name;
/* the namespace driver of the btt's region: nd_pmem, or nd_blk on BLK */
static const char *driver = "nd_pmem";
static char disk[300];
static size_t bsize;
static void *buf, *rbuf;

static void die(const char *what)
{
	fprintf(stderr, "nvt-powercut: %s: %s\n", what, strerror(errno));
	exit(2);
}

static int put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

static long get_long(const char *path)
{
	char b[64] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0 || read(fd, b, sizeof(b) - 1) < 0)
		die(path);
	close(fd);
	return strtol(b, NULL, 0);
}

static void cut(long n)
{
	char v[32];

	snprintf(v, sizeof(v), "%ld", n);
	if (put(KNOB "cut_after", v))
		die("cut_after");
}

static int find_disk(void)
{
	char path[512];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/block", btt_dir);
	d = opendir(path);
	if (!d)
		return -1;
	disk[0] = '\0';
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			snprintf(disk, sizeof(disk), "/dev/%s", de->d_name);
	closedir(d);
	return disk[0] ? 0 : -1;
}

static int attach(void)
{
	char path[128];
	int rc;

	snprintf(path, sizeof(path), "/sys/bus/nd/drivers/%s/bind", driver);
	rc = put(path, btt_name);

	if (rc) {
		fprintf(stderr, "nvt-powercut: bind %s: %s\n", btt_name,
			strerror(-rc));
		return -1;
	}
	return find_disk();
}

static void detach(void)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/nd/drivers/%s/unbind", driver);
	if (put(path, btt_name))
		die("unbind");
}

/* the pattern of generation @gen of block @blk */
static void fill(void *p, long blk, int gen)
{
	uint64_t *q = p;
	size_t i;

	for (i = 0; i < bsize / 8; i++)
		q[i] = (uint64_t)(gen + 1) << 48 | (uint64_t)blk << 20 | i;
}

static void on_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % sysconf(_SC_NPROCESSORS_ONLN), &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int dev_open(void)
{
	int fd = open(disk, O_RDWR | O_DIRECT);

	if (fd < 0)
		die(disk);
	return fd;
}

/* write @w with generation @gen of each of its blocks */
static void do_write(int fd, const struct bwrite *w, const int *gen)
{
	int j;

	for (j = 0; j < w->nblocks; j++)
		fill((char *)buf + j * bsize, w->block + j, gen[j]);
	on_cpu(w->cpu);
	if (pwrite(fd, buf, w->nblocks * bsize, w->block * bsize) !=
	    (ssize_t)(w->nblocks * bsize))
		die("pwrite");
}

/* the round's block writes, one entry per block, in store order */
struct bseq {
	long block;
	int gen;
};

static int expand(const struct round *r, struct bseq *s, int (*gens)[8])
{
	int i, j, k, n = 0;

	for (i = 0; i < r->n; i++)
		for (j = 0; j < r->w[i].nblocks; j++) {
			long b = r->w[i].block + j;

			/* generation = 1 + earlier writes of this block */
			s[n].block = b;
			s[n].gen = 1;
			for (k = 0; k < n; k++)
				if (s[k].block == b)
					s[n].gen++;
			gens[i][j] = s[n].gen;
			n++;
		}
	return n;
}

static void run_round(int fd, const struct bseq *s, int n)
{
	int zero[8] = { 0 };
	int i;

	/* initial generation 0 of every block, no cut */
	for (i = 0; i < n; i++) {
		struct bwrite w = { 0, s[i].block, 1 };

		do_write(fd, &w, zero);
	}
}

static int check_round(const struct bseq *s, int n, long ncut, int exact,
		       long *torn)
{
	int fd = dev_open(), i, visible = -1, bad = 0;
	int seen[MAXW];

	/* which generation each block shows */
	for (i = 0; i < n; i++) {
		int g, found = -1, maxg = 0, k;

		for (k = 0; k < n; k++)
			if (s[k].block == s[i].block && s[k].gen > maxg)
				maxg = s[k].gen;
		if (pread(fd, rbuf, bsize, s[i].block * bsize) != (ssize_t)bsize)
			die("pread");
		for (g = 0; g <= maxg && found < 0; g++) {
			fill(buf, s[i].block, g);
			if (!memcmp(buf, rbuf, bsize))
				found = g;
		}
		seen[i] = found;
		if (found < 0) {
			printf("# cut %ld: block %ld is torn (no single pattern)\n",
			       ncut, s[i].block);
			bad = 1;
		}
	}
	close(fd);
	if (bad)
		goto out;
	/* visible writes: a prefix of the sequence */
	for (i = 0; i < n; i++) {
		/* write i is visible iff its block shows gen >= s[i].gen */
		int shown = seen[i];

		if (shown < s[i].gen)
			continue;
		if (visible == i - 1) {
			visible = i;
		} else {
			printf("# cut %ld: write %d (block %ld) visible after an invisible one\n",
			       ncut, i, s[i].block);
			bad = 1;
		}
	}
	if (!bad && exact) {
		/* block write i commits with store 4i + 3 (flog seq half) */
		int want = -1;

		for (i = 0; i < n; i++)
			if (ncut >= 4L * i + 3)
				want = i;
		if (want != visible) {
			printf("# cut %ld: %d writes visible, the flog says %d\n",
			       ncut, visible + 1, want + 1);
			bad = 1;
		}
	}
out:
	*torn += bad;
	return bad;
}

/* ------------------------------------------------------------------ */
/* -r: the reordering model                                            */

struct rwrite {
	int cpu;
	long block;
};

struct rround {
	const char *name;
	int n;
	struct rwrite w[2];
};

static const struct rround rrounds[] = {
	{ "one block overwritten", 1, { { 0, 10 } } },
	{ "one block overwritten twice on one lane", 2, { { 0, 5 }, { 0, 5 } } },
	{ "two blocks on two lanes", 2, { { 0, 20 }, { 1, 21 } } },
};

#define MAXST 64	/* stores a round may make */
#define MAXUNITS 12	/* epochs with more units are sampled */
#define SAMPLES 512

struct store {
	long epoch, unit, units, bytes;
};

static void knob(const char *name, const char *fmt, ...)
{
	char path[128], v[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), KNOB "%s", name);
	if (put(path, v))
		die(path);
}

static int read_trace(struct store *st)
{
	char b[4096] = "", *p;
	int fd = open(KNOB "trace", O_RDONLY), n = 0;
	ssize_t len;

	if (fd < 0)
		die("trace");
	len = read(fd, b, sizeof(b) - 1);
	close(fd);
	if (len < 0)
		die("trace");
	for (p = strtok(b, " \n"); p && n < MAXST; p = strtok(NULL, " \n")) {
		if (sscanf(p, "%ld:%ld:%ld:%ld", &st[n].epoch, &st[n].unit,
			   &st[n].units, &st[n].bytes) != 4)
			die("trace format");
		n++;
	}
	return n;
}

/* did every unit of store @s persist, with the cut at (@e, @mask) */
static int persisted(const struct store *s, long e, unsigned long mask)
{
	long k;

	if (s->epoch != e)
		return s->epoch < e;
	for (k = s->unit; k < s->unit + s->units; k++)
		if (k >= 64 || !(mask & 1UL << k))
			return 0;
	return 1;
}

/* the round's writes, generation @gen[i] for write i */
static void rwrites(const struct rround *r, const int *gen, int armed)
{
	int fd = dev_open(), i;

	for (i = 0; i < r->n; i++) {
		struct bwrite w = { r->w[i].cpu, r->w[i].block, 1 };

		do_write(fd, &w, armed ? &gen[i] : (int[]){ 0 });
	}
	/* the initial patterns are durable before the cut is armed */
	if (!armed && fsync(fd))
		die("fsync");
	close(fd);
}

static int block_gen(int fd, long blk, int maxg)
{
	int g;

	if (pread(fd, rbuf, bsize, blk * bsize) != (ssize_t)bsize)
		die("pread");
	for (g = 0; g <= maxg; g++) {
		fill(buf, blk, g);
		if (!memcmp(buf, rbuf, bsize))
			return g;
	}
	return -1;
}

/* one cut state of round @r: 0 ok, 1 a violated invariant */
static int rcheck(const struct rround *r, const int *gen,
		  const struct store *st, int nst, long e, unsigned long mask)
{
	int fd, i, j, shown[2], bad = 0, exact = nst == 4 * r->n;
	int last = -1, ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	fd = dev_open();
	for (i = 0; i < r->n; i++) {
		int maxg = 0;

		for (j = 0; j < r->n; j++)
			if (r->w[j].block == r->w[i].block && gen[j] > maxg)
				maxg = gen[j];
		shown[i] = block_gen(fd, r->w[i].block, maxg);
		if (shown[i] < 0) {
			printf("# epoch %ld mask %#lx: block %ld is torn\n", e,
			       mask, r->w[i].block);
			bad = 1;
		}
	}
	for (i = 0; !bad && i < r->n; i++) {
		/* write i visible: its block shows its generation or later */
		int vis = shown[i] >= gen[i];
		int want = exact ? persisted(&st[4 * i + 1], e, mask) &&
				   persisted(&st[4 * i + 2], e, mask) : vis;

		if (vis != want) {
			printf("# epoch %ld mask %#lx: write %d (block %ld) %s, its flog entry %s\n",
			       e, mask, i, r->w[i].block,
			       vis ? "visible" : "not visible",
			       want ? "persisted" : "did not persist");
			bad = 1;
		}
		if (vis && last != i - 1) {
			printf("# epoch %ld mask %#lx: write %d visible after an invisible one\n",
			       e, mask, i);
			bad = 1;
		}
		if (vis)
			last = i;
	}
	/* a probe write on every lane: no block of the round may change */
	for (i = 0; !bad && i < ncpu && i < 8; i++) {
		struct bwrite w = { i, 200 + i, 1 };
		int g7 = 7;

		do_write(fd, &w, &g7);
	}
	for (i = 0; !bad && i < r->n; i++) {
		if (block_gen(fd, r->w[i].block, 3) != shown[i]) {
			printf("# epoch %ld mask %#lx: block %ld changed under a probe write: recovery handed out a mapped block\n",
			       e, mask, r->w[i].block);
			bad = 1;
		}
	}
	for (i = 0; !bad && i < ncpu && i < 8; i++) {
		if (block_gen(fd, 200 + i, 7) != 7) {
			printf("# epoch %ld mask %#lx: probe block %d does not read back\n",
			       e, mask, 200 + i);
			bad = 1;
		}
	}
	close(fd);
	return bad;
}

/* one state: initial patterns, armed writes, crash, re-attach, check */
static int rstate(const struct rround *r, const int *gen,
		  const struct store *st, int nst, long e, unsigned long mask,
		  long *attach_fail)
{
	rwrites(r, gen, 0);
	knob("cut_mask", "%lu", mask);
	knob("cut_epoch", "%ld", e);
	rwrites(r, gen, 1);
	if (get_long(KNOB "overflow"))
		die("the power-cut module's undo log overflowed");
	knob("crash", "1");
	detach();
	if (attach()) {
		(*attach_fail)++;
		printf("# epoch %ld mask %#lx: the btt does not attach\n", e,
		       mask);
		if (attach())
			die("attach");
		return 1;
	}
	return rcheck(r, gen, st, nst, e, mask);
}

static int reorder_main(long passes)
{
	long states = 0, bad = 0, attach_fail = 0, sampled = 0;
	int p, ri;

	srandom(42);
	for (p = 0; p < passes; p++)
		for (ri = 0; ri < (int)(sizeof(rrounds) / sizeof(rrounds[0])); ri++) {
			const struct rround *r = &rrounds[ri];
			struct store st[MAXST];
			long e, maxe = -1, rstates = 0, rbad = 0;
			int gen[2], i, j, nst;

			for (i = 0; i < r->n; i++) {
				gen[i] = 1;
				for (j = 0; j < i; j++)
					if (r->w[j].block == r->w[i].block)
						gen[i]++;
			}
			/* dry run: every store persists, the trace has the epochs */
			rwrites(r, gen, 0);
			knob("cut_epoch", "%ld", 1L << 40);
			rwrites(r, gen, 1);
			nst = read_trace(st);
			knob("crash", "1");
			for (i = 0; i < nst; i++)
				if (st[i].epoch > maxe)
					maxe = st[i].epoch;
			for (e = 0; e <= maxe; e++) {
				long u = 0, m, nm;

				for (i = 0; i < nst; i++)
					if (st[i].epoch == e)
						u += st[i].units;
				if (!u)
					continue;
				/* all ones = the next epoch's none: skipped */
				nm = u <= MAXUNITS ? (1L << u) - 1 : SAMPLES + 1;
				if (u > MAXUNITS)
					sampled++;
				for (m = 0; m < nm; m++) {
					unsigned long mask = m;

					if (u > MAXUNITS && m)
						mask = ((unsigned long)random() << 31 ^
							random()) & ((1UL << u) - 1);
					rbad += rstate(r, gen, st, nst, e, mask,
						       &attach_fail);
					rstates++;
				}
			}
			/* everything persisted */
			rbad += rstate(r, gen, st, nst, 1L << 40, 0, &attach_fail);
			rstates++;
			states += rstates;
			bad += rbad;
			printf("# pass %d, %s: %d stores in %ld epochs, %ld states, %ld bad%s\n",
			       p + 1, r->name, nst, maxe + 1, rstates, rbad,
			       nst == 4 * r->n ? "" : " (not 4 stores a block: no flog check)");
		}
	printf("states: %ld bad: %ld attach failures: %ld sampled epochs: %ld\n",
	       states, bad, attach_fail, sampled);
	return bad || attach_fail ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* -f: stores that fail in the middle of a block write                 */

/* pwrite of one block, retried while refused; 0 or -errno */
static int write_retry(int fd, long blk, int gen, int tries)
{
	int rc = -EIO;

	fill(buf, blk, gen);
	while (tries--) {
		if (pwrite(fd, buf, bsize, blk * bsize) == (ssize_t)bsize)
			return 0;
		rc = -errno;
		usleep(20000);
	}
	return rc;
}

static int faults_main(void)
{
	long A = 30, B = 31, C = 32;
	int k, lands, bad = 0, cases = 0;

	for (k = 1; k <= 4; k++)
		for (lands = 0; lands <= 1; lands++) {
			int fd = dev_open(), ga, gb, i, rc, cbad = 0;

			on_cpu(0);
			if (write_retry(fd, A, 0, 50) || write_retry(fd, B, 0, 50))
				die("initial write");
			knob("fail_lands", "%d", lands);
			knob("fail_store", "%d", k);
			rc = write_retry(fd, A, 1, 1);
			knob("fail_store", "0");
			ga = block_gen(fd, A, 1);
			if (ga < 0) {
				printf("# store %d failing (%s): block %ld torn\n",
				       k, lands ? "landed" : "lost", A);
				cbad = 1;
			}
			/* more writes on the same lane; the fixed sequence */
			for (i = 0; !cbad && i < 6; i++) {
				long blk = i & 1 ? B : A;
				int g = 2 + i / 2;

				int wrc = write_retry(fd, blk, g, 100);

				if (wrc) {
					printf("# store %d failing (%s): write %d of block %ld refused for good: %s\n",
					       k, lands ? "landed" : "lost", i, blk,
					       strerror(-wrc));
					cbad = 1;
				}
			}
			/* a third block takes the lane's free block */
			if (!cbad && write_retry(fd, C, 1, 100))
				die("probe write");
			ga = block_gen(fd, A, 4);
			gb = block_gen(fd, B, 4);
			if (!cbad && (ga != 4 || gb != 4)) {
				printf("# store %d failing (%s): blocks read back generations %d and %d, not 4\n",
				       k, lands ? "landed" : "lost", ga, gb);
				cbad = 1;
			}
			close(fd);
			detach();
			if (attach()) {
				printf("# store %d failing (%s): the btt does not attach\n",
				       k, lands ? "landed" : "lost");
				if (attach())
					die("attach");
				cbad = 1;
			}
			fd = dev_open();
			/* recovery's free block must not be a mapped one */
			if (!cbad && write_retry(fd, C, 2, 100))
				die("probe write");
			ga = block_gen(fd, A, 4);
			gb = block_gen(fd, B, 4);
			close(fd);
			if (!cbad && (ga != 4 || gb != 4)) {
				printf("# store %d failing (%s): after re-attach generations %d and %d, not 4\n",
				       k, lands ? "landed" : "lost", ga, gb);
				cbad = 1;
			}
			printf("# store %d of 4 failing, bytes %s: first write %s, %s\n",
			       k, lands ? "landed" : "lost",
			       rc ? "failed" : "succeeded", cbad ? "BAD" : "ok");
			bad += cbad;
			cases++;
		}
	printf("fault cases: %d bad: %d\n", cases, bad);
	return bad ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* -R: read_only flipped under block writes                            */

#define RO_BLOCKS 64

static int ro_race_main(long flips)
{
	char ro[600], real[512];
	int done[RO_BLOCKS] = { 0 }, tried[RO_BLOCKS] = { 0 };
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), fd, b, bad = 0, status;
	long writes = 0, failed = 0, i;
	pid_t kid;

	if (!realpath(btt_dir, real))
		die("realpath");
	snprintf(ro, sizeof(ro), "%s/../read_only", real);
	fd = dev_open();
	for (b = 0; b < RO_BLOCKS; b++)
		if (write_retry(fd, b, 0, 50))
			die("initial write");
	kid = fork();
	if (kid < 0)
		die("fork");
	if (!kid) {
		for (i = 0; i < flips; i++) {
			put(ro, "1");
			usleep(1000);
			put(ro, "0");
			usleep(3000);
		}
		_exit(0);
	}
	/* write until the child is done, the CPUs in turn */
	while (waitpid(kid, &status, WNOHANG) == 0) {
		b = writes % RO_BLOCKS;
		on_cpu(writes % ncpu);
		fill(buf, b, tried[b] + 1);
		tried[b]++;
		if (pwrite(fd, buf, bsize, (off_t)b * bsize) == (ssize_t)bsize)
			done[b] = tried[b];
		else
			failed++;
		writes++;
	}
	put(ro, "0");
	close(fd);
	detach();
	if (attach()) {
		printf("# the btt does not attach after %ld read_only flips\n",
		       flips);
		return 1;
	}
	fd = dev_open();
	for (b = 0; b < RO_BLOCKS; b++) {
		int g = block_gen(fd, b, tried[b]);

		if (g < done[b]) {
			printf("# block %d shows generation %d, its last completed write was %d (last tried %d)\n",
			       b, g, done[b], tried[b]);
			bad++;
		}
	}
	close(fd);
	printf("read_only flips: %ld writes: %ld failed: %ld bad blocks: %d\n",
	       flips, writes, failed, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	int reorder = 0, faults = 0, rorace = 0;

	long passes, cuts = 0, torn = 0, attach_fail = 0;
	int p, ri;

	if (argc > 1 && !strcmp(argv[1], "-r")) {
		reorder = 1;
		argc--;
		argv++;
	} else if (argc > 1 && !strcmp(argv[1], "-f")) {
		faults = 1;
		argc--;
		argv++;
	} else if (argc > 1 && !strcmp(argv[1], "-R")) {
		rorace = 1;
		argc--;
		argv++;
	}
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: nvt-powercut [-r|-f|-R] BTT_DIR PASSES [DRIVER]\n");
		return 2;
	}
	if (argc == 4)
		driver = argv[3];
	btt_dir = argv[1];
	btt_name = strrchr(btt_dir, '/') ? strrchr(btt_dir, '/') + 1 : btt_dir;
	passes = atol(argv[2]);
	if (find_disk())
		die("no block device under the btt");
	{
		int fd = dev_open();
		int ss;

		if (ioctl(fd, BLKSSZGET, &ss))
			die("BLKSSZGET");
		bsize = ss;
		close(fd);
	}
	if (posix_memalign(&buf, 4096, 8 * 4096) ||
	    posix_memalign(&rbuf, 4096, 4096))
		die("memalign");
	cut(-1);
	if (reorder)
		return reorder_main(passes);
	if (faults)
		return faults_main();
	if (rorace)
		return ro_race_main(passes);
	for (p = 0; p < passes; p++)
		for (ri = 0; ri < (int)(sizeof(rounds) / sizeof(rounds[0])); ri++) {
			const struct round *r = &rounds[ri];
			int gens[16][8];
			struct bseq s[MAXW];
			int n = expand(r, s, gens), fd, i, exact;
			long total, ncut, rtorn = 0;

			/* the uncut run: how many stores the sequence makes */
			fd = dev_open();
			run_round(fd, s, n);
			cut(-1);
			for (i = 0; i < r->n; i++)
				do_write(fd, &r->w[i], gens[i]);
			close(fd);
			total = get_long(KNOB "stores");
			exact = total == 4L * n;
			for (ncut = 0; ncut <= total; ncut++) {
				fd = dev_open();
				run_round(fd, s, n);
				cut(ncut);
				for (i = 0; i < r->n; i++)
					do_write(fd, &r->w[i], gens[i]);
				close(fd);
				detach();
				cut(-1);
				if (attach()) {
					attach_fail++;
					printf("# cut %ld: the btt does not attach\n",
					       ncut);
					if (attach())
						die("attach");
					continue;
				}
				check_round(s, n, ncut, exact, &rtorn);
				cuts++;
			}
			torn += rtorn;
			printf("# pass %d, %s: %ld stores, %ld cuts, %ld torn%s\n",
			       p + 1, r->name, total, total + 1, rtorn,
			       exact ? "" : " (store count not 4 per block: prefix check only)");
		}
	printf("cuts: %ld torn: %ld attach failures: %ld\n", cuts, torn,
	       attach_fail);
	return torn || attach_fail ? 1 : 0;
}
