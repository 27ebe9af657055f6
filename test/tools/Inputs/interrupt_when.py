"""Runs a command, sends it SIGINT (Ctrl-C) once FILE has at least N lines,
and exits with the command's status after echoing its output.

    interrupt_when.py FILE N -- command args...
"""
import signal
import subprocess
import sys
import time

path, lines = sys.argv[1], int(sys.argv[2])
cmd = sys.argv[sys.argv.index("--") + 1:]
proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
deadline = time.time() + 600
while proc.poll() is None and time.time() < deadline:
    try:
        with open(path) as f:
            if sum(1 for _ in f) >= lines:
                proc.send_signal(signal.SIGINT)
                break
    except FileNotFoundError:
        pass
    time.sleep(0.05)
else:
    if proc.poll() is None:
        proc.kill()  # the file never grew: do not wait for lit's timeout
out, _ = proc.communicate()
sys.stdout.write(out)
sys.exit(proc.returncode)
