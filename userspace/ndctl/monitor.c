// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ndctl monitor: watch DIMMs' health events, as ndctl 76.1 does, in the
 * foreground.  Each DIMM with the SMART command is read at start; its
 * nmemN/nfit/flags attribute is then polled (the kernel notifies it when
 * the firmware reports a health change) and, with -p, every DIMM re-read
 * each that many seconds.  A DIMM whose events (alarm trips from its
 * SMART alarm flags, an unclean shutdown, a changed health state) match
 * the filter is logged as one JSON line: {"timestamp", "pid", "event":
 * {one boolean per filtered event}, "dimm": {its list object and
 * health}}, to stdout or the -l file.  Ends on SIGINT / SIGTERM.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include "util.h"
#include "health.h"

static const struct cmd_help monitor_help = {
	"ndctl monitor [<options>]",
	"    -b, --bus <bus-id>    monitor DIMMs on this bus only\n"
	"    -d, --dimm <dimm>     monitor this DIMM only\n"
	"    -D, --dimm-event <name,...>\n"
	"                          the events: dimm-spares-remaining, dimm-media-temperature,\n"
	"                          dimm-controller-temperature, dimm-health-state,\n"
	"                          dimm-unclean-shutdown, all (default)\n"
	"    -l, --log <file>      log to this file (default: standard output)\n"
	"    -p, --poll <seconds>  also re-read every DIMM this often\n"
	"    -u, --human           pretty JSON\n"
	"    -v, --verbose         debug messages\n"
	"    -h, --help            show this help\n",
};

enum {
	EV_SPARES = 1 << 0,
	EV_MTEMP = 1 << 1,
	EV_CTEMP = 1 << 2,
	EV_HEALTH = 1 << 3,
	EV_UNCLEAN = 1 << 4,
	EV_ALL = (1 << 5) - 1,
};

static const struct {
	unsigned int bit;
	const char *name;
} ev_names[] = {
	{ EV_SPARES, "dimm-spares-remaining" },
	{ EV_MTEMP, "dimm-media-temperature" },
	{ EV_CTEMP, "dimm-controller-temperature" },
	{ EV_HEALTH, "dimm-health-state" },
	{ EV_UNCLEAN, "dimm-unclean-shutdown" },
};

struct mdimm {
	struct ndctl_dimm *dimm;
	int fd;
	unsigned int health, events;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

static int parse_events(const char *s, unsigned int *out)
{
	char *copy = strdup(s), *tok, *save = NULL;
	unsigned int i, m = 0;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			m |= EV_ALL;
			continue;
		}
		for (i = 0; i < sizeof(ev_names) / sizeof(ev_names[0]); i++)
			if (!strcmp(tok, ev_names[i].name))
				break;
		if (i == sizeof(ev_names) / sizeof(ev_names[0])) {
			fail("unknown dimm event '%s'", tok);
			rc = -EINVAL;
			break;
		}
		m |= ev_names[i].bit;
	}
	free(copy);
	*out = m;
	return rc ? rc : (m ? 0 : -EINVAL);
}

/* health and the event bits of the SMART record; -EIO when it fails */
static int read_smart(struct ndctl_dimm *dimm, unsigned int *health,
		unsigned int *events)
{
	struct ndctl_cmd *cmd = ndctl_dimm_cmd_new_smart(dimm);
	unsigned int a;
	int rc;

	if (!cmd)
		return -EOPNOTSUPP;
	rc = ndctl_cmd_submit(cmd);
	if (rc < 0) {
		ndctl_cmd_unref(cmd);
		return rc;
	}
	a = ndctl_cmd_smart_get_alarm_flags(cmd);
	*events = (a & ND_SMART_SPARE_TRIP ? EV_SPARES : 0)
		| (a & ND_SMART_MTEMP_TRIP ? EV_MTEMP : 0)
		| (a & ND_SMART_CTEMP_TRIP ? EV_CTEMP : 0)
		| (ndctl_cmd_smart_get_shutdown_state(cmd) ? EV_UNCLEAN : 0);
	*health = ndctl_cmd_smart_get_health(cmd);
	ndctl_cmd_unref(cmd);
	return 0;
}

static void log_event(FILE *log, struct mdimm *m, unsigned int filter,
		bool human)
{
	struct json_object *msg = json_object_new_object(), *ev;
	struct timespec ts;
	char stamp[32];
	unsigned int i;

	if (!msg)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(stamp, sizeof(stamp), "%10ld.%09ld", (long)ts.tv_sec,
			ts.tv_nsec);
	json_object_object_add(msg, "timestamp", json_object_new_string(stamp));
	json_object_object_add(msg, "pid", json_object_new_int(getpid()));
	ev = json_object_new_object();
	for (i = 0; ev && i < sizeof(ev_names) / sizeof(ev_names[0]); i++)
		if (filter & ev_names[i].bit)
			json_object_object_add(ev, ev_names[i].name,
				json_object_new_boolean(m->events & ev_names[i].bit));
	if (ev)
		json_object_object_add(msg, "event", ev);
	json_object_object_add(msg, "dimm", dimm_to_json(m->dimm, false, true));
	fprintf(log, "%s\n", json_object_to_json_string_ext(msg, human ?
				JSON_C_TO_STRING_PRETTY : JSON_C_TO_STRING_PLAIN));
	fflush(log);
	json_object_put(msg);
}

/* re-read one DIMM; log it when its events match */
static void check(FILE *log, struct mdimm *m, unsigned int filter, bool human)
{
	unsigned int health, events;

	if (read_smart(m->dimm, &health, &events) < 0) {
		fail("%s: smart command failed", ndctl_dimm_get_devname(m->dimm));
		return;
	}
	if (health != m->health)
		events |= EV_HEALTH;
	m->health = health;
	m->events = events;
	if (events & filter)
		log_event(log, m, filter, human);
}

int cmd_monitor(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "dimm", required_argument, NULL, 'd' },
		{ "dimm-event", required_argument, NULL, 'D' },
		{ "log", required_argument, NULL, 'l' },
		{ "poll", required_argument, NULL, 'p' },
		{ "human", no_argument, NULL, 'u' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *busf = NULL, *dimmf = NULL, *logf = NULL;
	unsigned int filter = EV_ALL, poll_s = 0, n = 0, i;
	struct mdimm *md = NULL, *grown;
	struct epoll_event ev, evs[16];
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	struct ndctl_dimm *dimm;
	bool human = false;
	FILE *log = stdout;
	int c, ep, rc = 0;
	char buf[64];
	char *end;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:d:D:l:p:uvh", lopts, NULL)) != -1) {
		switch (c) {
		case 'b': busf = optarg; break;
		case 'd': dimmf = optarg; break;
		case 'D':
			if (parse_events(optarg, &filter))
				return -EINVAL;
			break;
		case 'l': logf = optarg; break;
		case 'p':
			errno = 0;
			poll_s = strtoul(optarg, &end, 0);
			if (errno || *end || poll_s > INT_MAX / 1000) {
				fail("bad poll interval '%s'", optarg);
				return -EINVAL;
			}
			break;
		case 'u': human = true; break;
		case 'v': verbose = 1; break;
		case 'h': return print_help(&monitor_help, stdout);
		default: return print_help(&monitor_help, stderr);
		}
	}
	if (optind < argc) {
		fail("unknown extra parameter \"%s\"", argv[optind]);
		return EXIT_USAGE;
	}
	if (logf && strcmp(logf, "standard")) {
		log = fopen(logf, "a");
		if (!log) {
			rc = -errno;
			fail("%s: %s", logf, strerror(errno));
			return rc;
		}
	}
	if (cli_ctx_new(&ctx)) {
		rc = -ENOMEM;
		goto out_log;
	}
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0) {
		rc = -errno;
		goto out_ctx;
	}
	ndctl_bus_foreach(ctx, bus) {
		if (!match_bus(bus, busf))
			continue;
		ndctl_dimm_foreach(bus, dimm) {
			struct mdimm *m;

			if (!match_dimm(dimm, dimmf))
				continue;
			if (!ndctl_dimm_is_cmd_supported(dimm, ND_CMD_SMART)) {
				fail("%s: no smart support", ndctl_dimm_get_devname(dimm));
				continue;
			}
			grown = realloc(md, (n + 1) * sizeof(*md));
			if (!grown) {
				rc = -ENOMEM;
				goto out_ep;
			}
			md = grown;
			m = &md[n];
			m->dimm = dimm;
			m->fd = ndctl_dimm_get_health_eventfd(dimm);
			if (m->fd < 0 || read_smart(dimm, &m->health, &m->events) < 0) {
				fail("%s: cannot read its health", ndctl_dimm_get_devname(dimm));
				if (m->fd >= 0)
					close(m->fd);
				continue;
			}
			/* arm: a notification is news only after a read */
			if (pread(m->fd, buf, sizeof(buf), 0) < 0)
				fail("%s: cannot read nfit/flags",
						ndctl_dimm_get_devname(dimm));
			ev.events = EPOLLPRI | EPOLLERR;
			ev.data.u32 = n;
			if (epoll_ctl(ep, EPOLL_CTL_ADD, m->fd, &ev)) {
				rc = -errno;
				close(m->fd);
				goto out_ep;
			}
			if (m->events & filter)
				log_event(log, m, filter, human);
			n++;
		}
	}
	if (!n) {
		fail("no DIMMs to monitor");
		rc = -ENXIO;
		goto out_ep;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop) {
		int k, got = epoll_wait(ep, evs, 16, poll_s ? (int)poll_s * 1000 : -1);

		if (got < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (!got) {
			for (i = 0; i < n; i++)
				check(log, &md[i], filter, human);
			continue;
		}
		for (k = 0; k < got; k++) {
			struct mdimm *m = &md[evs[k].data.u32];

			if (pread(m->fd, buf, sizeof(buf), 0) < 0)
				continue;
			check(log, m, filter, human);
		}
	}
	for (i = 0; i < n; i++)
		close(md[i].fd);
out_ep:
	free(md);
	close(ep);
out_ctx:
	ndctl_unref(ctx);
out_log:
	if (log != stdout)
		fclose(log);
	return rc;
}
