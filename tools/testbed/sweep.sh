#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sweep.sh - the incast of make demo, once per setting of rdma_cc, on one
# testbed: how Documentation/testbed.rst's sweeps were run.
#
#   tools/testbed/sweep.sh NAME DURATION_S RUN...
#
# RUN is LABEL=SETTINGS: SETTINGS are rdma_cc parameters (NAME=VALUE,
# space separated) that replace the same names in TB_CC_PARAMS; empty
# keeps TB_CC_PARAMS as it is; "-" is a run without congestion control.
# rdma_cc is unloaded from the senders after each run, so every run's QPs
# start afresh.  The testbed's knobs (TB_*: buffer, thresholds, kernel
# with KVER) apply to the whole sweep.  The results land in
# $RDMA_CC_CACHE/sweep/NAME/LABEL/ (incast.sh says what each file holds),
# and the runs' figures are printed side by side at the end.  For example,
# two runs with the additive step halved and one without:
#
#   tools/testbed/sweep.sh steps 30 'none=-' \
#       's10a=number_active_increase_steps=10' \
#       's10b=number_active_increase_steps=10'
#
# On 6.12-rt: KVER=6.12-rt tools/testbed/sweep.sh ...
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tools/scripts/env.sh"

[ $# -ge 3 ] || rcc_die "usage: sweep.sh NAME DURATION_S LABEL=SETTINGS..."
name=$1 dur=$2
shift 2
case $name in '' | */* | .*) rcc_die "sweep.sh: NAME must be a plain name, not '$name'" ;; esac
[[ $dur =~ ^[1-9][0-9]*$ ]] || rcc_die "sweep.sh: DURATION_S must be a whole number of seconds, not '$dur'"
for spec in "$@"; do
	if ! [[ ${spec%%=*} =~ ^[A-Za-z0-9_-]+$ ]] || [ "$spec" = "${spec#*=}" ]; then
		rcc_die "sweep.sh: a run is LABEL=SETTINGS (LABEL letters, digits, - and _), not '$spec'"
	fi
	[ "${spec#*=}" = - ] && continue
	for kv in ${spec#*=}; do
		[[ $kv =~ ^[a-z_]+=[0-9]+$ ]] ||
			rcc_die "sweep.sh: a setting is name=number, not '$kv' (in '$spec')"
		# one of rdma_cc's parameters (rdma_cc/param_list.h)
		grep -q "^RCC_PARAM([A-Z_]*, ${kv%%=*}," "$top/rdma_cc/param_list.h" ||
			rcc_die "sweep.sh: '${kv%%=*}' is not one of rdma_cc's parameters (in '$spec')"
	done
done

"$top/tools/scripts/deps.sh" vm plot || rcc_die "installing the packages failed"
# the modules for KVER's kernel, as the e2e suite builds them
rcc_for_kver "$0" "$name" "$dur" "$@"
make -C "$top" --no-print-directory modules || rcc_die "make modules failed"
make -C "$top" --no-print-directory rxe || rcc_die "make rxe failed"

TB_RUN=$RDMA_CC_CACHE/sweep/$name
rm -rf "$TB_RUN"
. "$here/testbed.sh"
. "$here/incast.sh"
base=$TB_CC_PARAMS
trap tb_down EXIT
trap 'exit 130' INT TERM
tb_up || rcc_die "the testbed did not come up (logs in $TB_RUN)"
runs=()
for spec in "$@"; do
	label=${spec%%=*} set=${spec#*=}
	if [ "$set" = - ]; then
		tb_incast_again "$label" 0 "$dur" || rcc_log "sweep: run $label failed"
	else
		p=$base
		for kv in $set; do
			p=$(printf '%s\n' "$p" | sed -E "s/(^| )${kv%%=*}=[^ ]*/\\1$kv/")
			[[ " $p " == *" $kv "* ]] || p="$p $kv"
		done
		TB_CC_PARAMS=$p tb_incast_again "$label" 1 "$dur" ||
			rcc_log "sweep: run $label failed"
		tb_cc_unload_senders
	fi
	runs+=("$label")
done
echo
tb_table "${runs[@]}"
echo "run data: $TB_RUN"
