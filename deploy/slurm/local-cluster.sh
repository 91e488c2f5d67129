#!/bin/sh
# A one-node Slurm cluster on this machine, for trying the tournament's
# job array for real: Debian's slurm-wlm and munge, its state and logs in
# one directory, run as root (as a container's CI is).
#
#   deploy/slurm/local-cluster.sh start DIR    # writes DIR/slurm.conf, starts munged, slurmctld, slurmd
#   export SLURM_CONF=DIR/slurm.conf           # for sbatch, squeue, sinfo
#   deploy/slurm/local-cluster.sh stop DIR
set -eu
cmd=${1:?start or stop}
dir=$(mkdir -p "${2:?give a directory for the cluster's state}" && cd "$2" && pwd)
export SLURM_CONF="$dir/slurm.conf"
case $cmd in
start)
	host=$(hostname)
	mkdir -p "$dir/state" "$dir/spool" "$dir/log"
	cat >"$SLURM_CONF" <<CONF
ClusterName=arena
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MinJobAge=3600
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=arena Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
	# munged runs as its own user; its socket directory must be its.
	mkdir -p /run/munge
	chown munge:munge /run/munge
	if ! munge -n >/dev/null 2>&1; then
		su -s /bin/sh munge -c /usr/sbin/munged
	fi
	slurmctld -c
	slurmd -c
	for i in $(seq 1 100); do
		if sinfo -h -o %T 2>/dev/null | grep -q idle; then
			echo "slurm: one node, $(nproc) CPUs, up (SLURM_CONF=$SLURM_CONF)"
			exit 0
		fi
		sleep 0.2
	done
	echo "slurm did not come up; see $dir/log" >&2
	exit 1
	;;
stop)
	for p in slurmd slurmctld; do
		[ -f "$dir/$p.pid" ] && kill "$(cat "$dir/$p.pid")" 2>/dev/null || true
	done
	;;
*)
	echo "usage: $0 start|stop DIR" >&2
	exit 2
	;;
esac
