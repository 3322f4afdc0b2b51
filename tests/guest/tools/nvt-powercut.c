// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-powercut BTT_DIR PASSES [DRIVER]: enumerate power cuts over BTT writes
 * (DRIVER: the namespace driver binding the btt, nd_pmem by default).
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

int main(int argc, char **argv)
{
	long passes, cuts = 0, torn = 0, attach_fail = 0;
	int p, ri;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: nvt-powercut BTT_DIR PASSES [DRIVER]\n");
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
