// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-syslog: a minimal syslog listener for the guest tests (the guest
 * runs no syslogd): what programs send to syslog(3), byte for byte.
 *
 *   nvt-syslog SOCKET FILE
 *	binds SOCKET (e.g. /dev/log) as a datagram socket, where glibc's
 *	syslog() sends, and appends each message it receives to FILE as one
 *	line: the datagram as sent ("<PRI>Mmm dd hh:mm:ss TAG: MESSAGE"),
 *	a newline in it written as the two characters \n, a backslash as
 *	\\.  Runs until SIGTERM or SIGINT, then removes SOCKET.
 *
 * Refuses (exit 1) a SOCKET that exists already: a real syslog daemon's
 * is left alone.  Exit 2: usage.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct sigaction act = { .sa_handler = on_signal };
	static char buf[65536];
	FILE *out;
	ssize_t n, i;
	int fd;

	if (argc != 3 || strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "usage: nvt-syslog SOCKET FILE\n");
		return 2;
	}
	if (access(argv[1], F_OK) == 0) {
		fprintf(stderr, "nvt-syslog: %s exists: left alone\n", argv[1]);
		return 1;
	}
	out = fopen(argv[2], "a");
	if (!out) {
		fprintf(stderr, "nvt-syslog: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	strcpy(sa.sun_path, argv[1]);
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "nvt-syslog: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	/* no SA_RESTART: a signal ends the recv() below */
	sigaction(SIGTERM, &act, NULL);
	sigaction(SIGINT, &act, NULL);
	while (!stop) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "nvt-syslog: recv: %s\n", strerror(errno));
			break;
		}
		for (i = 0; i < n; i++) {
			if (buf[i] == '\n')
				fputs("\\n", out);
			else if (buf[i] == '\\')
				fputs("\\\\", out);
			else
				fputc(buf[i], out);
		}
		fputc('\n', out);
		fflush(out);
	}
	close(fd);
	unlink(argv[1]);
	fclose(out);
	return 0;
}
