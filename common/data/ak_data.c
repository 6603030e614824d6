/* ak_data: the one-time parse of the embedded data files, each by its
 * loader (ak_map.c, ak_units.c, ak_scenario.c, ak_crt.c,
 * ak_updated_calendar.c), which checks what it reads; a file that does
 * not check stops the program at its first use. */
#include "ak_data.h"

#include <stdio.h>
#include <stdlib.h>

extern const char ak_data_map_txt[];
extern const char ak_data_units_txt[];
extern const char ak_data_scenario_txt[];
extern const char ak_data_crt_txt[];
extern const char ak_data_updated_txt[];

static struct ak_data data;
static bool loaded;

static void must(const char *what, const char *err)
{
    if (err) {
        fprintf(stderr, "afrika korps data (%s): %s\n", what, err);
        abort();
    }
}

const struct ak_data *ak_data_loaded;

const struct ak_data *ak_data_load(void)
{
    if (loaded)
        return &data;
    char err[200];
    must("map.txt", ak_map_parse(&data.map, ak_data_map_txt, err, sizeof err));
    must("units.txt", ak_units_parse(&data, ak_data_units_txt, err, sizeof err));
    must("scenario-1941.txt", ak_scenario_parse(&data, ak_data_scenario_txt, err, sizeof err));
    must("crt.txt", ak_crt_parse(&data.crt, ak_data_crt_txt, err, sizeof err));
    must("updated-1941.txt", ak_updated_calendar_parse(&data, ak_data_updated_txt, err, sizeof err));
    loaded = true;
    ak_data_loaded = &data;
    return &data;
}
