#!/bin/sh
# make slurm: a class ladder whose games are played by a Slurm job array
# of workers on a one-node cluster started here. Two students submit
# go: files; the array's two workers lease and play the check games and
# the ladder's; the script waits until games were played by both
# workers, then cancels the array (its games in flight go back to the
# queue when their leases end).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK:-$(mktemp -d /tmp/arena-ladder-slurm.XXXXXX)}
arena=${ARENA:?ARENA names the arena binary}
"$here/local-cluster.sh" start "$work/cluster"
cd "$work"
printf 'alice\nbob\n' >roster.txt
"$arena" ladder tokens -dir "$work/ladder" -roster roster.txt >tokens.txt
token() { sed -n "s/^$1 //p" tokens.txt; }
port=$(( 20000 + $$ % 20000 ))
"$arena" ladder serve -game colosseum -preset 6 -dir "$work/ladder" -roster roster.txt -addr "127.0.0.1:$port" -width 1 >serve.out 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; "$here/local-cluster.sh" stop "$work/cluster"' EXIT
export SLURM_CONF="$work/cluster/slurm.conf" ARENA="$arena"
sleep 1
"$arena" template -game colosseum -o alice.go >/dev/null
sed 's/bestScore {/bestScore+1 {/' alice.go >bob.go
"$arena" ladder submit -server "http://127.0.0.1:$port" -token "$(token alice)" alice.go
"$arena" ladder submit -server "http://127.0.0.1:$port" -token "$(token bob)" bob.go
array=$(ARENA_LADDER_TOKEN=$(token worker) sbatch --parsable --array=0-1 --chdir="$work" "$here/ladder-workers.sbatch" "http://127.0.0.1:$port")
echo "array job $array: two workers"
played() { curl -s -H "Authorization: Bearer $(token staff)" "http://127.0.0.1:$port/api/ladder/standings" | sed -n 's/.*"games_played":\([0-9]*\).*/\1/p'; }
tries=0
until [ "$(played)" -ge 20 ] 2>/dev/null; do
	tries=$((tries + 1))
	[ $tries -lt 600 ] || { echo "the workers played $(played) games in 10 minutes" >&2; cat arena-ladder-worker-*.out >&2; exit 1; }
	sleep 1
done
workers=$(curl -s -H "Authorization: Bearer $(token staff)" "http://127.0.0.1:$port/api/ladder/games?state=done" | grep -o '"worker":"slurm-[^"]*"' | sort -u)
scancel "$array"
echo "$workers"
[ "$(echo "$workers" | wc -l)" -eq 2 ] || { echo "the games were not played by the array's two workers" >&2; exit 1; }
echo "the array's two workers played $(played) ladder games:"
curl -s -H "Authorization: Bearer $(token staff)" "http://127.0.0.1:$port/api/ladder/standings"
echo
