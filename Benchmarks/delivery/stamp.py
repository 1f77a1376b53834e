"""Copies lines from stdin to stdout, each after the Unix time (seconds) it was read: the
provider stand-ins print a line as they accept a message, so this is when it was accepted."""
import sys
import time

for line in sys.stdin:
    sys.stdout.write("%.6f %s" % (time.time(), line))
    sys.stdout.flush()
