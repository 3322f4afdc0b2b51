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
 *
 * As 76.1: --daemon detaches (the log then defaults to syslog; a -l file
 * gets the JSON lines and "[time] [pid] message" lines), and the filters
 * and the log can come from a configuration file (-c FILE, else every
 * *.conf of /etc/ndctl.conf.d): "key = value ..." lines in its [monitor]
 * section, keys dimm, bus, region, namespace, dimm-event, log.  A filter
 * given both ways takes either value; -l wins over the file's log.
 * Unlike 76.1, a [monitor] line that is not "key = value" or names
 * another key, and a file that cannot be read, are errors (EINVAL, or
 * the open's errno), not skipped.  Once the log is chosen, messages go
 * where 76.1 sends them, in the foreground too (mlog_msg()).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <fcntl.h>
#include <syslog.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include "util.h"
#include "health.h"

static const struct cmd_help monitor_help = {
	"ndctl monitor [<options>]",
	"    -b, --bus <bus-id>    monitor DIMMs on this bus only\n"
	"    -d, --dimm <dimm>     monitor this DIMM only\n"
	"    -r, --region <region> monitor the DIMMs of this region only\n"
	"    -n, --namespace <ns>  monitor the DIMMs of this namespace's region only\n"
	"    -D, --dimm-event <name,...>\n"
	"                          the events: dimm-spares-remaining, dimm-media-temperature,\n"
	"                          dimm-controller-temperature, dimm-health-state,\n"
	"                          dimm-unclean-shutdown, all (default)\n"
	"    -l, --log <file>      log to this file, syslog or standard (default: standard\n"
	"                          output; syslog with --daemon)\n"
	"    -c, --config-file <file>\n"
	"                          read the [monitor] keys from this file (default: the\n"
	"                          *.conf files of /etc/ndctl.conf.d)\n"
	"        --daemon          detach and run in the background\n"
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

#define MONITOR_CONF_DIR "/etc/ndctl.conf.d"

struct mdimm {
	struct ndctl_dimm *dimm;
	int fd;
	unsigned int health, events;
};

/* a filter: the words of the option and of the configuration; any matches */
struct words {
	char **v;
	unsigned int n;
};

/* where the lines go */
struct mlog {
	FILE *f;	/* the JSON lines (and the messages), or NULL */
	bool syslog;	/* else syslog */
	bool standard;	/* f is stdout: messages on stdout (info) or stderr */
	bool daemon;	/* --daemon */
	bool detached;	/* the daemon runs: stderr is /dev/null */
	bool human;
};

static void mlog_msg(const struct mlog *l, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct mconf {
	struct words bus, dimm, region, ns;
	unsigned int events;
	char *log;	/* the configuration's log */
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

static int words_add(struct words *w, const char *s)
{
	while (*s) {
		size_t len;
		char **grown;

		s += strspn(s, " \t");
		len = strcspn(s, " \t");
		if (!len)
			break;
		grown = realloc(w->v, (w->n + 1) * sizeof(*w->v));
		if (!grown)
			return -ENOMEM;
		w->v = grown;
		w->v[w->n] = strndup(s, len);
		if (!w->v[w->n])
			return -ENOMEM;
		w->n++;
		s += len;
	}
	return 0;
}

static void words_free(struct words *w)
{
	while (w->n)
		free(w->v[--w->n]);
	free(w->v);
	w->v = NULL;
}

static bool words_bus(const struct words *w, struct ndctl_bus *bus)
{
	unsigned int i;

	for (i = 0; i < w->n; i++)
		if (match_bus(bus, w->v[i]))
			return true;
	return !w->n;
}

static bool words_dimm(const struct words *w, struct ndctl_dimm *dimm)
{
	unsigned int i;

	for (i = 0; i < w->n; i++)
		if (match_dimm(dimm, w->v[i]))
			return true;
	return !w->n;
}

/* the DIMM is in a region the region and namespace filters select */
static bool words_region(const struct mconf *c, struct ndctl_bus *bus,
		struct ndctl_dimm *dimm)
{
	const char *name = ndctl_dimm_get_devname(dimm);
	struct ndctl_region *region;
	struct ndctl_namespace *ndns;
	unsigned int i;
	bool r = !c->region.n, n = !c->ns.n;

	if (r && n)
		return true;
	ndctl_region_foreach(bus, region) {
		if (!region_has_dimm(region, name))
			continue;
		for (i = 0; i < c->region.n; i++)
			r = r || match_region(region, c->region.v[i]);
		ndctl_namespace_foreach(region, ndns)
			for (i = 0; i < c->ns.n; i++)
				n = n || match_namespace(ndns, c->ns.v[i]);
	}
	return r && n;
}

/*
 * The events of @s (names separated by commas).  An unknown name is
 * logged through @l as 76.1 words it (a message of the log, like 76.1's,
 * once the log is chosen), or without a log on stderr.
 */
static int parse_events(const char *s, unsigned int *out,
		const struct mlog *l)
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
			if (l)
				mlog_msg(l, LOG_ERR, "no dimm-event named %s", tok);
			else
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

/* events of a value: names separated by commas or blanks */
static int parse_event_words(const char *s, unsigned int *out)
{
	char *copy = strdup(s), *p;
	int rc;

	if (!copy)
		return -ENOMEM;
	for (p = copy; *p; p++)
		if (*p == ' ' || *p == '\t')
			*p = ',';
	rc = parse_events(copy, out, NULL);
	free(copy);
	return rc;
}

static char *trim(char *s)
{
	char *e;

	s += strspn(s, " \t\r\n");
	e = s + strlen(s);
	while (e > s && strchr(" \t\r\n", e[-1]))
		*--e = '\0';
	return s;
}

static int conf_key(struct mconf *c, const char *file, unsigned int line,
		const char *key, const char *val)
{
	unsigned int ev;

	if (!strcmp(key, "dimm"))
		return words_add(&c->dimm, val);
	if (!strcmp(key, "bus"))
		return words_add(&c->bus, val);
	if (!strcmp(key, "region"))
		return words_add(&c->region, val);
	if (!strcmp(key, "namespace"))
		return words_add(&c->ns, val);
	if (!strcmp(key, "dimm-event")) {
		if (parse_event_words(val, &ev)) {
			fail("%s:%u: bad dimm-event '%s'", file, line, val);
			return -EINVAL;
		}
		c->events |= ev;
		return 0;
	}
	if (!strcmp(key, "log")) {
		free(c->log);
		c->log = strdup(val);
		return c->log ? 0 : -ENOMEM;
	}
	fail("%s:%u: unknown key '%s' (dimm, bus, region, namespace, dimm-event, log)",
			file, line, key);
	return -EINVAL;
}

/*
 * One configuration file: "key = value" lines of its [monitor] section
 * (or before any section); '#' starts a comment line; other sections
 * ([core] of ndctl.conf) are not the monitor's.
 */
static int conf_read(struct mconf *c, const char *file)
{
	unsigned int lineno = 0;
	bool ours = true;
	size_t cap = 0;
	char *line = NULL, *p, *eq;
	FILE *f;
	int rc = 0;

	f = fopen(file, "r");
	if (!f) {
		rc = -errno;
		fail("%s: cannot be opened: %s", file, strerror(errno));
		return rc;
	}
	while (!rc) {
		errno = 0;
		if (getline(&line, &cap, f) < 0) {
			if (ferror(f)) {
				rc = errno ? -errno : -EIO;
				fail("%s: cannot be read: %s", file, strerror(-rc));
			}
			break;
		}
		lineno++;
		p = trim(line);
		if (!*p || *p == '#')
			continue;
		if (*p == '[') {
			eq = strchr(p, ']');
			if (!eq || eq[1]) {
				fail("%s:%u: bad section line '%s'", file, lineno, p);
				rc = -EINVAL;
				break;
			}
			*eq = '\0';
			ours = !strcmp(trim(p + 1), "monitor");
			continue;
		}
		if (!ours)
			continue;
		eq = strchr(p, '=');
		if (!eq) {
			fail("%s:%u: not 'key = value': '%s'", file, lineno, p);
			rc = -EINVAL;
			break;
		}
		*eq = '\0';
		rc = conf_key(c, file, lineno, trim(p), trim(eq + 1));
	}
	free(line);
	fclose(f);
	return rc;
}

static int conf_filter(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return d->d_name[0] != '.' && len > 5 &&
		!strcmp(d->d_name + len - 5, ".conf");
}

/* without -c: every *.conf of MONITOR_CONF_DIR, in name order */
static int conf_read_dir(struct mconf *c)
{
	struct dirent **names;
	char path[PATH_MAX];
	int i, n, rc = 0;

	n = scandir(MONITOR_CONF_DIR, &names, conf_filter, alphasort);
	if (n < 0)
		return 0;	/* no directory: no configuration */
	for (i = 0; i < n; i++) {
		if (!rc) {
			snprintf(path, sizeof(path), "%s/%s", MONITOR_CONF_DIR,
					names[i]->d_name);
			rc = conf_read(c, path);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

/*
 * A message, where 76.1 sends its messages once the log is chosen, in the
 * foreground too: syslog at @prio, a -l file as "[time] [pid] message",
 * standard: info on stdout, the rest on stderr.  Debug only with -v.  A
 * daemon's messages before it detaches (a bad event, no DIMM) also go to
 * stderr: they end the command with an exit status.
 */
static void mlog_msg(const struct mlog *l, int prio, const char *fmt, ...)
{
	struct timespec ts;
	char msg[512];
	va_list ap;

	if (prio == LOG_DEBUG && !verbose)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (l->daemon && !l->detached && prio <= LOG_INFO)
		fail("%s", msg);
	if (l->syslog) {
		syslog(prio, "%s", msg);
		return;
	}
	if (l->standard) {
		fprintf(prio == LOG_INFO ? stdout : stderr, "%s\n", msg);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(l->f, "[%10ld.%09ld] [%d] %s\n", (long)ts.tv_sec, ts.tv_nsec,
			(int)getpid(), msg);
	fflush(l->f);
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

static void log_event(const struct mlog *l, struct mdimm *m,
		unsigned int filter)
{
	struct json_object *msg = json_object_new_object(), *ev;
	struct timespec ts;
	const char *text;
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
	text = json_object_to_json_string_ext(msg, l->human ?
			JSON_C_TO_STRING_PRETTY : JSON_C_TO_STRING_PLAIN);
	if (l->syslog) {
		syslog(LOG_NOTICE, "%s", text);
	} else {
		fprintf(l->f, "%s\n", text);
		fflush(l->f);
	}
	json_object_put(msg);
}

/* re-read one DIMM; log it when its events match */
static void check(const struct mlog *l, struct mdimm *m, unsigned int filter)
{
	unsigned int health, events;

	if (read_smart(m->dimm, &health, &events) < 0) {
		mlog_msg(l, LOG_ERR, "%s: smart command failed",
				ndctl_dimm_get_devname(m->dimm));
		return;
	}
	if (health != m->health)
		events |= EV_HEALTH;
	m->health = health;
	m->events = events;
	if (events & filter)
		log_event(l, m, filter);
}

/* --daemon: the parent exits 0, the child leaves the terminal and cwd */
static int detach(void)
{
	pid_t pid;
	int fd;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0)
		_exit(0);
	if (setsid() < 0 || chdir("/"))
		return -errno;
	fd = open("/dev/null", O_RDWR);
	if (fd < 0)
		return -errno;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
	return 0;
}

static void conf_free(struct mconf *c)
{
	words_free(&c->bus);
	words_free(&c->dimm);
	words_free(&c->region);
	words_free(&c->ns);
	free(c->log);
}

/*
 * The long option getopt_long() just returned, spelled out in full?  It
 * takes any unambiguous prefix ("--name" for --namespace), which would
 * make options of other commands mean something here.
 */
static bool long_exact(char **argv, const char *name)
{
	const char *tok = argv[optind - 1];
	size_t len;

	if (optarg && optarg == argv[optind - 1] && optind >= 2)
		tok = argv[optind - 2];
	if (strncmp(tok, "--", 2))
		return false;
	tok += 2;
	len = strcspn(tok, "=");
	return len == strlen(name) && !strncmp(tok, name, len);
}

int cmd_monitor(int argc, char **argv)
{
	enum { OPT_DAEMON = 256 };
	static const struct option lopts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "dimm", required_argument, NULL, 'd' },
		{ "region", required_argument, NULL, 'r' },
		{ "namespace", required_argument, NULL, 'n' },
		{ "dimm-event", required_argument, NULL, 'D' },
		{ "log", required_argument, NULL, 'l' },
		{ "config-file", required_argument, NULL, 'c' },
		{ "daemon", no_argument, NULL, OPT_DAEMON },
		{ "poll", required_argument, NULL, 'p' },
		{ "human", no_argument, NULL, 'u' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *logf = NULL, *conff = NULL;
	unsigned int filter, poll_s = 0, n = 0, i, ev_opt;
	struct mlog l = { .f = stdout };
	struct mconf c = { .events = 0 };
	struct words evw = { 0 };	/* the -D values, read once the log is up */
	struct mdimm *md = NULL, *grown;
	struct epoll_event ev, evs[16];
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	struct ndctl_dimm *dimm;
	int ch, ep, li, rc = 0;
	char buf[64];
	char *end;

	optind = 1;
	for (li = -1; (ch = getopt_long(argc, argv, "b:d:r:n:D:l:c:p:uvh", lopts,
					&li)) != -1; li = -1) {
		if (li >= 0 && !long_exact(argv, lopts[li].name))
			ch = '?';
		switch (ch) {
		case 'b': rc = words_add(&c.bus, optarg); break;
		case 'd': rc = words_add(&c.dimm, optarg); break;
		case 'r': rc = words_add(&c.region, optarg); break;
		case 'n': rc = words_add(&c.ns, optarg); break;
		case 'D': rc = words_add(&evw, optarg); break;
		case 'l': logf = optarg; break;
		case 'c': conff = optarg; break;
		case OPT_DAEMON: l.daemon = true; break;
		case 'p':
			errno = 0;
			poll_s = strtoul(optarg, &end, 0);
			if (errno || *end || poll_s > INT_MAX / 1000) {
				fail("bad poll interval '%s'", optarg);
				rc = -EINVAL;
			}
			break;
		case 'u': l.human = true; break;
		case 'v': verbose = 1; break;
		case 'h':
			conf_free(&c);
			return print_help(&monitor_help, stdout);
		default:
			conf_free(&c);
			return print_help(&monitor_help, stderr);
		}
		if (rc)
			goto out_conf;
	}
	if (optind < argc) {
		fail("unknown extra parameter \"%s\"", argv[optind]);
		rc = EXIT_USAGE;
		goto out_conf;
	}
	rc = conff ? conf_read(&c, conff) : conf_read_dir(&c);
	if (rc)
		goto out_conf;
	if (!logf)
		logf = c.log;
	if (!logf)
		logf = l.daemon ? "syslog" : "standard";
	if (!strcmp(logf, "syslog")) {
		l.syslog = true;
		l.f = NULL;
		/* what 76.1 sends: its vsyslog() without openlog() */
		openlog("ndctl", 0, LOG_USER);
	} else if (!strcmp(logf, "standard")) {
		l.standard = true;
		if (l.daemon) {
			fail("--daemon cannot log to standard output: give a file or syslog");
			rc = -EINVAL;
			goto out_conf;
		}
	} else {
		l.f = fopen(logf, "a");
		if (!l.f) {
			rc = -errno;
			fail("%s: %s", logf, strerror(errno));
			goto out_conf;
		}
	}
	/* from here on, messages go to the log, as 76.1's */
	for (i = 0; i < evw.n; i++) {
		rc = parse_events(evw.v[i], &ev_opt, &l);
		if (rc)
			goto out_log;
		c.events |= ev_opt;
	}
	filter = c.events ? c.events : EV_ALL;
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
		if (!words_bus(&c.bus, bus))
			continue;
		ndctl_dimm_foreach(bus, dimm) {
			struct mdimm *m;

			if (!words_dimm(&c.dimm, dimm) || !words_region(&c, bus, dimm))
				continue;
			if (!ndctl_dimm_is_cmd_supported(dimm, ND_CMD_SMART)) {
				mlog_msg(&l, LOG_ERR, "%s: no smart support",
						ndctl_dimm_get_devname(dimm));
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
				mlog_msg(&l, LOG_ERR, "%s: cannot read its health",
						ndctl_dimm_get_devname(dimm));
				if (m->fd >= 0)
					close(m->fd);
				continue;
			}
			/* arm: a notification is news only after a read */
			if (pread(m->fd, buf, sizeof(buf), 0) < 0)
				mlog_msg(&l, LOG_ERR, "%s: cannot read nfit/flags",
						ndctl_dimm_get_devname(dimm));
			ev.events = EPOLLPRI | EPOLLERR;
			ev.data.u32 = n;
			if (epoll_ctl(ep, EPOLL_CTL_ADD, m->fd, &ev)) {
				rc = -errno;
				close(m->fd);
				goto out_ep;
			}
			n++;
		}
	}
	if (!n) {
		mlog_msg(&l, LOG_INFO, "no dimms to monitor, exiting");
		rc = -ENXIO;
		goto out_ep;
	}
	if (l.daemon) {
		rc = detach();
		l.detached = !rc;
		if (rc) {
			mlog_msg(&l, LOG_ERR, "cannot detach: %s", strerror(-rc));
			goto out_fds;
		}
		mlog_msg(&l, LOG_INFO, "ndctl monitor daemon started");
	}
	for (i = 0; i < n; i++)
		if (md[i].events & filter)
			log_event(&l, &md[i], filter);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop) {
		int k, got = epoll_wait(ep, evs, 16, poll_s ? (int)poll_s * 1000 : -1);

		if (got < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			mlog_msg(&l, LOG_ERR, "epoll_wait: %s", strerror(errno));
			break;
		}
		if (!got) {
			for (i = 0; i < n; i++)
				check(&l, &md[i], filter);
			continue;
		}
		for (k = 0; k < got; k++) {
			struct mdimm *m = &md[evs[k].data.u32];

			if (pread(m->fd, buf, sizeof(buf), 0) < 0)
				continue;
			check(&l, m, filter);
		}
	}
	if (l.daemon)
		mlog_msg(&l, LOG_INFO, "ndctl monitor daemon stopped (signal %d)",
				(int)stop);
out_fds:
	for (i = 0; i < n; i++)
		close(md[i].fd);
out_ep:
	free(md);
	close(ep);
out_ctx:
	ndctl_unref(ctx);
out_log:
	if (l.syslog)
		closelog();
	else if (l.f && l.f != stdout)
		fclose(l.f);
out_conf:
	words_free(&evw);
	conf_free(&c);
	return rc;
}
