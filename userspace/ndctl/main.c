// SPDX-License-Identifier: GPL-2.0-or-later
/* ndctl: command line front end of libndctl */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "list", cmd_list, "List platform NVDIMM buses, DIMMs, regions and namespaces as JSON" },
	{ "create-namespace", cmd_create_namespace, "Provision or reconfigure a namespace" },
	{ "destroy-namespace", cmd_destroy_namespace, "Destroy the given namespace(s)" },
	{ "enable-namespace", cmd_enable_namespace, "Enable the given namespace(s)" },
	{ "disable-namespace", cmd_disable_namespace, "Disable the given namespace(s)" },
	{ "enable-region", cmd_enable_region, "Enable the given region(s) and their namespaces" },
	{ "disable-region", cmd_disable_region, "Disable the given region(s) and their namespaces" },
	{ "enable-dimm", cmd_enable_dimm, "Enable the given DIMM(s)" },
	{ "disable-dimm", cmd_disable_dimm, "Disable the given DIMM(s)" },
	{ "read-labels", cmd_read_labels, "Read the label storage area of DIMM(s)" },
	{ "write-labels", cmd_write_labels, "Write data to the label storage area of a DIMM" },
	{ "zero-labels", cmd_zero_labels, "Zero the label storage area of DIMM(s)" },
	{ "init-labels", cmd_init_labels, "Initialise label index blocks on DIMM(s)" },
	{ "check-labels", cmd_check_labels, "Check that DIMM(s) have a valid namespace index block" },
	{ "check-namespace", cmd_check_namespace, "Check (and repair) the BTT of a sector mode namespace" },
	{ "clear-errors", cmd_clear_errors, "Clear the known media errors of namespace(s) through the platform" },
	{ "inject-error", cmd_inject_error, "Inject, withdraw or list media errors of a namespace" },
	{ "inject-smart", cmd_inject_smart, "Set a DIMM's SMART thresholds, inject SMART values" },
	{ "monitor", cmd_monitor, "Watch DIMMs' health events, log them as JSON" },
	{ "start-scrub", cmd_start_scrub, "Start an Address Range Scrub on the given bus(es)" },
	{ "wait-scrub", cmd_wait_scrub, "Wait for the Address Range Scrub of the given bus(es)" },
	{ "setup-passphrase", cmd_setup_passphrase, "Set the passphrase of DIMM(s), sealed by a key-encryption key" },
	{ "update-passphrase", cmd_update_passphrase, "Change the passphrase of DIMM(s)" },
	{ "remove-passphrase", cmd_remove_passphrase, "Remove the passphrase of DIMM(s)" },
	{ "freeze-security", cmd_freeze_security, "Freeze the security state of DIMM(s) until a reset" },
	{ "sanitize-dimm", cmd_sanitize_dimm, "Erase the media of DIMM(s): crypto erase or overwrite" },
	{ "wait-overwrite", cmd_wait_overwrite, "Wait for the overwrite of DIMM(s) to finish" },
	{ "load-keys", cmd_load_keys, "Load the key-encryption key and the DIMMs' passphrase keys into the keyring" },
	{ "update-firmware", cmd_update_firmware, "Stage a firmware image on DIMM(s), arm or disarm them" },
	{ "activate-firmware", cmd_activate_firmware, "Activate the staged firmware of the armed DIMMs of bus(es)" },
};

#define NCMDS (sizeof(commands) / sizeof(commands[0]))

static void main_help(FILE *f)
{
	size_t i;

	fprintf(f, "\n usage: %s [--version] [--help] COMMAND [ARGS]\n\n",
			prog_name);
	fprintf(f, " Commands:\n");
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "   %-20s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n See '%s help COMMAND' or '%s COMMAND --help' for the options of a command.\n",
			prog_name, prog_name);
	fprintf(f, " Environment: NDCTL_SYSFS_ROOT, NDCTL_DEV_ROOT, NDCTL_LOG.\n\n");
}

static int find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCMDS; i++)
		if (!strcmp(name, commands[i].name))
			return i;
	return -1;
}

int main(int argc, char **argv)
{
	const char *name;
	int i;

	if (argc > 0 && argv[0][0]) {
		const char *slash = strrchr(argv[0], '/');

		prog_name = slash && slash[1] ? slash + 1 : argv[0];
	}
	opterr = 0;	/* bad options are reported in one line by each command */
	if (argc < 2) {
		main_help(stderr);
		return 1;
	}
	name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		if (argc > 2 && strcmp(name, "help") == 0) {
			/* "ndctl help CMD" == "ndctl CMD --help" */
			char *hargv[] = { argv[2], (char *)"--help", NULL };

			i = find_command(argv[2]);
			if (i < 0) {
				fprintf(stderr, "%s: error: unknown command '%s' (see '%s --help')\n",
						prog_name, argv[2], prog_name);
				return 1;
			}
			cmd_name = commands[i].name;
			return commands[i].fn(2, hargv);
		}
		main_help(stdout);
		return 0;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("%s\n", NDCTL_CLI_VERSION);
		return 0;
	}
	i = find_command(name);
	if (i >= 0) {
		cmd_name = commands[i].name;
		/* a negative return leaves 256 - errno (util.h) */
		return commands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "%s: error: unknown command '%s' (see '%s --help')\n",
			prog_name, name, prog_name);
	return 1;
}
