#!/bin/sh
# make slurm: plays a tournament as a real Slurm job array on a one-node
# cluster started here, merges its shards in a job that depends on the
# array, and checks the merged standings against one run of the same
# tournament on this machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK:-$(mktemp -d /tmp/arena-slurm.XXXXXX)}
arena=${ARENA:?ARENA names the arena binary}
"$here/local-cluster.sh" start "$work/cluster"
trap '"$here/local-cluster.sh" stop "$work/cluster"' EXIT
export SLURM_CONF="$work/cluster/slurm.conf" ARENA="$arena"
args="-game colosseum -preset 6 -rounds 3 -seed 5 random=random greedy=greedy strong1k=strong:nodes=1000 strong5k=strong:nodes=5000 strong20k=strong:nodes=20000"
cd "$work"
# shellcheck disable=SC2086
out=$("$here/submit.sh" 4 "$work/t" $args)
echo "$out"
merge=$(echo "$out" | sed -n 's/.*merge job \([0-9]*\).*/\1/p')
while squeue -h 2>/dev/null | grep -q .; do sleep 1; done
state=$(scontrol show job "$merge" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
echo "merge job $merge: $state"
cat "$work"/arena-tournament-*.out "$work"/arena-merge-*.out
[ "$state" = COMPLETED ] || { echo "the merge job did not complete" >&2; exit 1; }
# shellcheck disable=SC2086
"$arena" tournament -o "$work/single" $args >/dev/null
strip() { "$arena" tournament show "$1" | sed -E 's/([[:space:]]+[0-9]+\.[0-9]{2}){2}$//'; }
if [ "$(strip "$work/t/merged")" != "$(strip "$work/single")" ]; then
	echo "the merged standings differ from one run's:" >&2
	strip "$work/t/merged" >&2
	strip "$work/single" >&2
	exit 1
fi
echo "the job array's merged standings are one run's; report: $work/t/report.html"
