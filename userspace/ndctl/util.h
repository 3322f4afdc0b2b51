/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _NDCTL_CLI_UTIL_H_
#define _NDCTL_CLI_UTIL_H_

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>
#include <ndctl/libndctl.h>

#define NDCTL_CLI_VERSION "1.0"

extern int verbose;

/* one error line, "ndctl <cmd>: <message>" */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern const char *cmd_name;
/* the basename the command was invoked as ("ndctl", "nvt-ndctl") */
extern const char *prog_name;

int cli_ctx_new(struct ndctl_ctx **ctx);

/* "1G", "512M", "0x1000", "4096" -> bytes; -1 on error */
int parse_size(const char *s, unsigned long long *out);

/* filters: NULL or "all" match everything */
bool match_bus(struct ndctl_bus *bus, const char *filter);
bool match_region(struct ndctl_region *region, const char *filter);
bool match_dimm(struct ndctl_dimm *dimm, const char *filter);
bool match_namespace(struct ndctl_namespace *ndns, const char *filter);
bool region_has_dimm(struct ndctl_region *region, const char *dimm_filter);

/* JSON helpers */
struct json_object *json_size(unsigned long long v, bool human);
struct json_object *json_hex(unsigned long long v, bool human);
void json_print(struct json_object *j);

/* usage: prints text for the current command; returns exit code */
struct cmd_help {
	const char *usage;
	const char *options;
};
/*
 * Exit statuses, as ndctl 76.1's: 0; 1 when an action failed; EXIT_USAGE
 * for bad parameters; or a command returns -errno and the shell sees
 * 256 - errno (250 for a namespace that does not exist, 240 for a busy one).
 */
#define EXIT_USAGE 129

int print_help(const struct cmd_help *h, FILE *f);
/*
 * Is the option getopt_long() returned one of @short_opts?  Commands that
 * share a long-option table accept only their own options.
 */
bool opt_allowed(const char *short_opts, int c);

int cmd_list(int argc, char **argv);
int cmd_create_namespace(int argc, char **argv);
int cmd_destroy_namespace(int argc, char **argv);
int cmd_enable_namespace(int argc, char **argv);
int cmd_disable_namespace(int argc, char **argv);
int cmd_enable_region(int argc, char **argv);
int cmd_disable_region(int argc, char **argv);
int cmd_enable_dimm(int argc, char **argv);
int cmd_disable_dimm(int argc, char **argv);
int cmd_read_labels(int argc, char **argv);
int cmd_write_labels(int argc, char **argv);
int cmd_check_labels(int argc, char **argv);
int cmd_zero_labels(int argc, char **argv);
int cmd_init_labels(int argc, char **argv);
int cmd_check_namespace(int argc, char **argv);
int cmd_inject_error(int argc, char **argv);
int cmd_inject_smart(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_clear_errors(int argc, char **argv);
int cmd_start_scrub(int argc, char **argv);
int cmd_wait_scrub(int argc, char **argv);
int cmd_setup_passphrase(int argc, char **argv);
int cmd_update_passphrase(int argc, char **argv);
int cmd_remove_passphrase(int argc, char **argv);
int cmd_freeze_security(int argc, char **argv);
int cmd_sanitize_dimm(int argc, char **argv);
int cmd_wait_overwrite(int argc, char **argv);
int cmd_load_keys(int argc, char **argv);
int cmd_update_firmware(int argc, char **argv);
int cmd_activate_firmware(int argc, char **argv);

/* raw access to a namespace (namespace.c), see there */
int namespace_release(struct ndctl_namespace *ndns);
const char *busy_reason(struct ndctl_namespace *ndns);
int namespace_raw_open(struct ndctl_namespace *ndns, int flags, char *path,
		size_t len);
int namespace_raw_close(struct ndctl_namespace *ndns, int fd);
/* the namespaces matching the filters and @target ("all": configured ones) */
int collect_namespaces(struct ndctl_ctx *ctx, const char *bus_f,
		const char *region_f, const char *target,
		struct ndctl_namespace ***list);

/* namespace JSON shared by list and create-namespace */
struct json_object *namespace_to_json(struct ndctl_namespace *ndns, bool human,
		bool verbose_fields, bool dax_region);
/* list.c: its badblock_count and, with @media, the badblocks array */
void namespace_media_errors(struct json_object *j,
		struct ndctl_namespace *ndns, bool media);

#endif
