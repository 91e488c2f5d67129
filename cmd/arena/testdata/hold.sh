#!/bin/sh
# hold.sh DIR PORT COMMAND...: for arena's seat tests, writes the port
# arena handed a started program to DIR/port, waits until DIR/go exists
# (a rival has had its chance to take the seat), then runs COMMAND.
dir=$1 port=$2
shift 2
echo "$port" > "$dir/port.tmp" && mv "$dir/port.tmp" "$dir/port"
while [ ! -e "$dir/go" ]; do sleep 0.02; done
exec "$@"
