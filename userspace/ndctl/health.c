// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The "health" object of ndctl list -H (and ndctl monitor), as ndctl 76.1
 * prints it: from the DIMM's SMART record, the fields its valid-flags
 * name, the threshold fields (each alarm enabled or not, with its
 * threshold), then life used and the shutdown state and count.  A DIMM
 * whose SMART command cannot be built (no Intel health functions) has no
 * health object; one whose SMART fails has {"health_state":"unknown"}.
 */
#include <json-c/json.h>
#include "util.h"
#include "health.h"

static void put(struct json_object *o, const char *key, struct json_object *v)
{
	if (v)
		json_object_object_add(o, key, v);
}

static struct json_object *celsius(unsigned int raw)
{
	return json_object_new_double(ndctl_decode_smart_temperature(raw));
}

static void thresholds(struct ndctl_dimm *dimm, struct json_object *h)
{
	struct ndctl_cmd *cmd = ndctl_dimm_cmd_new_smart_threshold(dimm);
	unsigned int ctl;

	if (!cmd)
		return;
	if (ndctl_cmd_submit(cmd) < 0)
		goto out;
	ctl = ndctl_cmd_smart_threshold_get_alarm_control(cmd);
	put(h, "alarm_enabled_media_temperature",
			json_object_new_boolean(ctl & ND_SMART_TEMP_TRIP));
	if (ctl & ND_SMART_TEMP_TRIP)
		put(h, "temperature_threshold",
			celsius(ndctl_cmd_smart_threshold_get_temperature(cmd)));
	put(h, "alarm_enabled_ctrl_temperature",
			json_object_new_boolean(ctl & ND_SMART_CTEMP_TRIP));
	if (ctl & ND_SMART_CTEMP_TRIP)
		put(h, "controller_temperature_threshold",
			celsius(ndctl_cmd_smart_threshold_get_ctrl_temperature(cmd)));
	put(h, "alarm_enabled_spares",
			json_object_new_boolean(ctl & ND_SMART_SPARE_TRIP));
	if (ctl & ND_SMART_SPARE_TRIP)
		put(h, "spares_threshold",
			json_object_new_int(ndctl_cmd_smart_threshold_get_spares(cmd)));
out:
	ndctl_cmd_unref(cmd);
}

static const char *health_name(unsigned int health)
{
	if (health & ND_SMART_FATAL_HEALTH)
		return "fatal";
	if (health & ND_SMART_CRITICAL_HEALTH)
		return "critical";
	if (health & ND_SMART_NON_CRITICAL_HEALTH)
		return "non-critical";
	return "ok";
}

struct json_object *dimm_health_json(struct ndctl_dimm *dimm)
{
	struct ndctl_cmd *cmd = ndctl_dimm_cmd_new_smart(dimm);
	struct json_object *h;
	unsigned int f, a;

	if (!cmd)
		return NULL;
	h = json_object_new_object();
	if (!h)
		goto out;
	if (ndctl_cmd_submit(cmd) < 0) {
		put(h, "health_state", json_object_new_string("unknown"));
		goto out;
	}
	f = ndctl_cmd_smart_get_flags(cmd);
	if (f & ND_SMART_HEALTH_VALID)
		put(h, "health_state", json_object_new_string(
				health_name(ndctl_cmd_smart_get_health(cmd))));
	if (f & ND_SMART_TEMP_VALID)
		put(h, "temperature_celsius",
				celsius(ndctl_cmd_smart_get_temperature(cmd)));
	if (f & ND_SMART_CTEMP_VALID)
		put(h, "controller_temperature_celsius",
				celsius(ndctl_cmd_smart_get_ctrl_temperature(cmd)));
	if (f & ND_SMART_SPARES_VALID)
		put(h, "spares_percentage",
				json_object_new_int(ndctl_cmd_smart_get_spares(cmd)));
	if (f & ND_SMART_ALARM_VALID) {
		a = ndctl_cmd_smart_get_alarm_flags(cmd);
		put(h, "alarm_temperature",
				json_object_new_boolean(a & ND_SMART_TEMP_TRIP));
		put(h, "alarm_controller_temperature",
				json_object_new_boolean(a & ND_SMART_CTEMP_TRIP));
		put(h, "alarm_spares",
				json_object_new_boolean(a & ND_SMART_SPARE_TRIP));
	}
	thresholds(dimm, h);
	if (f & ND_SMART_USED_VALID)
		put(h, "life_used_percentage",
				json_object_new_int(ndctl_cmd_smart_get_life_used(cmd)));
	if (f & ND_SMART_SHUTDOWN_VALID)
		put(h, "shutdown_state", json_object_new_string(
				ndctl_cmd_smart_get_shutdown_state(cmd) ? "dirty" : "clean"));
	if (f & ND_SMART_SHUTDOWN_COUNT_VALID)
		put(h, "shutdown_count", json_object_new_int(
				ndctl_cmd_smart_get_shutdown_count(cmd)));
out:
	ndctl_cmd_unref(cmd);
	return h;
}
