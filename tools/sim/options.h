/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h - the simulator's command line and scenario files.  A scenario
 * file holds options, one a line ("--" optional, "#" starts a comment), read
 * where --scenario= names it, so later options override it.
 */
#ifndef RCC_SIM_OPTIONS_H
#define RCC_SIM_OPTIONS_H

#include <stdbool.h>

#include "sim.h"

struct sim_options {
	struct sim_config cfg;
	bool run[RP_NR_KINDS];
	unsigned int dcqcn_presets;	/* bit per preset: dcqcn-NAME runs */
	const char *name;
	const char *out_dir;	/* CSV time series go here */
	char *dump_flows;	/* write the flows here */
	bool csv_summary;	/* machine-readable summary on stdout */
	bool header;		/* print the CSV summary header */
	bool speed;		/* report wall-clock speed on stderr */
	bool show_params;	/* print the controllers' parameters, exit */
	unsigned int cap_flows, cap_links, cap_switches;
};

void options_default(struct sim_options *o);
/* Returns 0, or prints why on stderr and returns -1. */
int options_parse_arg(struct sim_options *o, const char *arg, int depth);
int options_finish(struct sim_options *o);
void options_usage(FILE *out);

#endif /* RCC_SIM_OPTIONS_H */
