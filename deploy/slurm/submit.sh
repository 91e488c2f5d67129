#!/bin/sh
# Submits a tournament as a Slurm job array of SHARDS tasks and its merge
# job, which starts once every task has succeeded.
#
#   deploy/slurm/submit.sh SHARDS DIR -game colosseum -rounds 10 alice=strong bob=greedy ...
#
# It prints the two job ids; the standings end in the merge job's output
# and DIR/report.html.
set -eu
shards=${1:?give the number of shards}
dir=${2:?give the tournament directory}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
array=$(sbatch --parsable --array=0-$((shards - 1)) --chdir="$PWD" "$here/tournament.sbatch" "$dir" "$@")
merge=$(sbatch --parsable --dependency=afterok:"$array" --chdir="$PWD" "$here/merge.sbatch" "$dir")
echo "array job $array ($shards shards), merge job $merge"
