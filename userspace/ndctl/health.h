/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _NDCTL_CLI_HEALTH_H_
#define _NDCTL_CLI_HEALTH_H_

#include <json-c/json.h>
#include <ndctl/libndctl.h>

/* ndctl 76.1's "health" object of @dimm; NULL without health functions */
struct json_object *dimm_health_json(struct ndctl_dimm *dimm);

/* list.c: a DIMM's object of ndctl list, with "health" when @health */
struct json_object *dimm_to_json(struct ndctl_dimm *dimm, bool human,
		bool health);

#endif
