"""`--wait`: an operation followed to its end from the command line, each run settled as the
dashboard's status poll settles it (settling.settled: a Zaqar result applied, a run past its
deadline recorded as timed out), each server said as its run ends."""

import time

from heat_deploy_runner.cancel import shown_status
from heat_deploy_runner import listing
from heat_deploy_runner import runs
from heat_deploy_runner.settling import settled
from heat_deploy_runner.signals import COMPLETE
from heat_deploy_runner.signals import IN_PROGRESS

# As often as the run page polls (deployment_poller.js).
POLL_SECONDS = 1.5
# A rolling operation's execution is asked about this often (its batches start on Mistral).
EXECUTION_SECONDS = 5
ROLLING_RUNNING = ('IDLE', 'RUNNING', 'PAUSED')


def ended_line(run, name):
    """One server's end, as it is printed: "demo-db-1: COMPLETE, exit code 0"."""
    code = runs.exit_code(run)
    said = f'{name}: {shown_status(run)}'
    if code is not None:
        said += f', exit code {code}'
    if run.status != COMPLETE and run.status_reason:
        said += f' ({run.status_reason})'
    return said


def follow(clients, operation_id, run_ids, say, execution=None):
    """The operation's runs once none is running (and, for a rolling one, once its Mistral
    ``execution`` has ended: the execution as it ended is returned too). ``run_ids``: the
    runs known to be its already; a rolling operation's others are found among the
    project's runs as its batches start them. ``say`` gets ended_line of each run as it
    ends."""
    names = clients.servers.names()
    configs, ended, known = {}, {}, list(run_ids)
    next_listing = 0
    while True:
        if execution is not None and time.monotonic() >= next_listing:
            execution = clients.mistral.executions.get(execution.id)
            known += [each.id for each in listing.runs(clients.heat, clients.project_id)
                      if each.operation and each.operation.id == operation_id
                      and each.id not in known]
            next_listing = time.monotonic() + EXECUTION_SECONDS
        for run_id in known:
            if run_id in ended:
                continue
            run = settled(clients.heat, clients.find_transport, run_id, configs)
            if run.status != IN_PROGRESS:
                ended[run_id] = run
                say(ended_line(run, names.get(run.server_id) or run.server_id))
        rolling = execution is not None and execution.state in ROLLING_RUNNING
        if len(ended) == len(known) and not rolling:
            return [ended[run_id] for run_id in known], execution
        time.sleep(POLL_SECONDS)
