/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _NDCTL_CLI_FIRMWARE_H_
#define _NDCTL_CLI_FIRMWARE_H_

#include <stdbool.h>
#include <json-c/json.h>
#include <ndctl/libndctl.h>

/*
 * ndctl list -F (firmware.c): the "firmware" object of a DIMM (NULL when
 * it has no firmware-info function) and of a bus (NULL when none of its
 * DIMMs can update), shaped as ndctl 76.1 prints them
 */
struct json_object *dimm_firmware_json(struct ndctl_dimm *dimm, bool human);
struct json_object *bus_firmware_json(struct ndctl_bus *bus);

#endif
