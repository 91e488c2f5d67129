#!/bin/sh
# hold.sh PORT COMMAND...: for arena's seat tests, writes the port arena
# handed a started program to ./port in its box's working directory,
# waits until ./go exists there (a rival has had its chance to take the
# seat), then runs COMMAND.
port=$1
shift
echo "$port" > port.tmp && mv port.tmp port
while [ ! -e go ]; do sleep 0.02; done
exec "$@"
