"""What the tests of Mistral's actions share besides their fixtures (conftest.py)."""

EXECUTION_ID = '7d3a63a5-4a7e-4ad4-9d54-0b5b1f3a6c11'


def ended(heat, run_id, status, code=0, stderr='', reason='Outputs received'):
    """The in-memory run as Heat holds it once its server reported."""
    heat.deployments[run_id].update(status=status, status_reason=reason, output_values={
        'deploy_stdout': '', 'deploy_stderr': stderr, 'deploy_status_code': code})
