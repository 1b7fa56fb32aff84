# plugin.sh - DevStack plugin.sh dispatch script heat-deploy-dashboard
#
# stack install      the runner (runner/, heat-deploy-runner) with its command line and,
#                    where Mistral is enabled, its Mistral actions; then the panels
# stack post-config  the panels' enabled files and settings file into Horizon (which
#                    collects and compresses the static files when it starts, after this)
# stack extra        with Mistral: its heartbeats, and a restart of its running processes so
#                    that they take them (stack.sh runs every plugin's "stack install"
#                    before any "stack extra": Mistral started with the runner's actions
#                    installed), a check that Mistral knows the actions, and the runner's
#                    workflows made in the demo project
# unstack            nothing: the plugin runs no process of its own
# clean              what the other phases added: Horizon's files, Mistral's heartbeats,
#                    the two distributions (with DevStack's global venv, clean.sh removes
#                    them with the venv)

# Save trace setting
_XTRACE_HEAT_DEPLOY=$(set +o | grep xtrace)
set -o xtrace

HEAT_DEPLOY_DASHBOARD_DIR=$(cd $(dirname $BASH_SOURCE)/.. && pwd)
HEAT_DEPLOY_HORIZON_DIR=${HORIZON_DIR:-$DEST/horizon}
HEAT_DEPLOY_HORIZON_ENABLED_DIR=$HEAT_DEPLOY_HORIZON_DIR/openstack_dashboard/local/enabled
HEAT_DEPLOY_HORIZON_SETTINGS_DIR=$HEAT_DEPLOY_HORIZON_DIR/openstack_dashboard/local/local_settings.d
HEAT_DEPLOY_MISTRAL_CONF=${MISTRAL_CONF_FILE:-/etc/mistral/mistral.conf}
HEAT_DEPLOY_SYSTEMCTL=${SYSTEMCTL:-sudo systemctl}

function install_heat_deploy_dashboard {
    # The runner first: the panels require it, and no package index has it.
    local extras=cli
    if is_service_enabled mistral; then
        # Mistral reads the runner's actions from its "mistral.actions" entry points when
        # it starts; DevStack installs Mistral into this same environment.
        extras=mistral,cli
    fi
    setup_develop $HEAT_DEPLOY_DASHBOARD_DIR/runner $extras
    setup_develop $HEAT_DEPLOY_DASHBOARD_DIR
}

function configure_heat_deploy_dashboard {
    if ! is_service_enabled horizon; then
        return
    fi
    mkdir -p $HEAT_DEPLOY_HORIZON_ENABLED_DIR $HEAT_DEPLOY_HORIZON_SETTINGS_DIR
    cp -a $HEAT_DEPLOY_DASHBOARD_DIR/heat_deploy_dashboard/enabled/_17[0-9][0-9]_*.py \
        $HEAT_DEPLOY_HORIZON_ENABLED_DIR/
    cp -a $HEAT_DEPLOY_DASHBOARD_DIR/heat_deploy_dashboard/local_settings.d/_1799_*.py \
        $HEAT_DEPLOY_HORIZON_SETTINGS_DIR/
    # compilemessages fails where there is no catalogue: only translations with a .po.
    if compgen -G "$HEAT_DEPLOY_DASHBOARD_DIR/heat_deploy_dashboard/locale/*/LC_MESSAGES/*.po" \
            >/dev/null; then
        (cd $HEAT_DEPLOY_DASHBOARD_DIR/heat_deploy_dashboard && \
            DJANGO_SETTINGS_MODULE=openstack_dashboard.settings \
            $PYTHON $HEAT_DEPLOY_HORIZON_DIR/manage.py compilemessages)
    fi
}

# Mistral's processes that run now (started by Mistral's plugin, enabled before this one).
function _heat_deploy_running_mistral_services {
    local service
    for service in $HEAT_DEPLOY_MISTRAL_SERVICES; do
        if is_service_enabled $service && \
                $HEAT_DEPLOY_SYSTEMCTL is-active --quiet devstack@$service.service; then
            echo $service
        fi
    done
}

function configure_heat_deploy_mistral {
    if [[ "$HEAT_DEPLOY_MISTRAL_HEARTBEATS" != "True" || ! -f $HEAT_DEPLOY_MISTRAL_CONF ]]; then
        return
    fi
    iniset $HEAT_DEPLOY_MISTRAL_CONF action_heartbeat check_interval 3
    iniset $HEAT_DEPLOY_MISTRAL_CONF action_heartbeat max_missed_heartbeats 3
    iniset $HEAT_DEPLOY_MISTRAL_CONF action_heartbeat first_heartbeat_timeout 60
}

function register_heat_deploy_mistral {
    local running service action workflow waited=0
    running=$(_heat_deploy_running_mistral_services)
    if [[ -z "$running" ]]; then
        # Mistral's plugin starts it later in this phase, with the actions installed and
        # the heartbeats set; each project makes the workflows on first use.
        echo "Mistral is not running yet: heat-deploy-dashboard's workflows are made on first use"
        return
    fi
    # Mistral reads its heartbeat settings when it starts; it has the actions already.
    for service in $running; do
        $HEAT_DEPLOY_SYSTEMCTL restart devstack@$service.service
    done
    local os="openstack --os-cloud $HEAT_DEPLOY_WORKFLOW_CLOUD"
    until $os workflow list -f value -c Name >/dev/null; do
        if (( waited >= HEAT_DEPLOY_MISTRAL_WAIT )); then
            die $LINENO "Mistral's API did not answer ${HEAT_DEPLOY_MISTRAL_WAIT} s after its restart"
        fi
        sleep 1
        waited=$((waited + 1))
    done
    for action in $HEAT_DEPLOY_MISTRAL_ACTIONS; do
        if ! $os action definition show $action -f value -c Name >/dev/null; then
            die $LINENO "Mistral does not know the action $action: heat-deploy-runner[mistral] must be installed where Mistral runs"
        fi
    done
    # Private to the project, as the runner makes them (heat_deploy_runner.workflows.ensure).
    for workflow in $HEAT_DEPLOY_WORKFLOWS; do
        if ! $os workflow show heat_deploy.$workflow -f value -c ID >/dev/null 2>&1; then
            $os workflow create \
                $HEAT_DEPLOY_DASHBOARD_DIR/runner/heat_deploy_runner/workflows/$workflow.yaml
        fi
    done
}

function cleanup_heat_deploy_dashboard {
    rm -f $HEAT_DEPLOY_HORIZON_ENABLED_DIR/_17[0-9][0-9]_*.py
    rm -f $HEAT_DEPLOY_HORIZON_SETTINGS_DIR/_1799_heat_deploy_dashboard_settings.py
    if [[ -f $HEAT_DEPLOY_MISTRAL_CONF ]]; then
        inidelete $HEAT_DEPLOY_MISTRAL_CONF action_heartbeat check_interval
        inidelete $HEAT_DEPLOY_MISTRAL_CONF action_heartbeat max_missed_heartbeats
        inidelete $HEAT_DEPLOY_MISTRAL_CONF action_heartbeat first_heartbeat_timeout
    fi
    if [[ "$GLOBAL_VENV" == "True" ]]; then
        # pip_uninstall uses the system's pip, which does not see DevStack's global venv
        # (DEVSTACK_VENV, under DATA_DIR): clean.sh removes it, and both distributions in it.
        return
    fi
    pip_uninstall heat-deploy-dashboard
    pip_uninstall heat-deploy-runner
}

# check for service enabled
if is_service_enabled heat-deploy-dashboard; then

    if [[ "$1" == "stack" && "$2" == "install" ]]; then
        # Perform installation of service source
        echo_summary "Installing heat-deploy-dashboard"
        install_heat_deploy_dashboard

    elif [[ "$1" == "stack" && "$2" == "post-config" ]]; then
        # Configure after the other layer 1 and 2 services have been configured
        echo_summary "Configuring heat-deploy-dashboard"
        configure_heat_deploy_dashboard

    elif [[ "$1" == "stack" && "$2" == "extra" ]]; then
        if is_service_enabled mistral; then
            echo_summary "Registering heat-deploy-dashboard's Mistral actions and workflows"
            configure_heat_deploy_mistral
            register_heat_deploy_mistral
        fi
    fi

    if [[ "$1" == "unstack" ]]; then
        # The plugin runs no process of its own: Horizon and Mistral stop with theirs.
        :
    fi

    if [[ "$1" == "clean" ]]; then
        # Remove what the other phases added (clean.sh calls unstack.sh first)
        echo_summary "Cleaning heat-deploy-dashboard"
        cleanup_heat_deploy_dashboard
    fi
fi

# Restore xtrace
$_XTRACE_HEAT_DEPLOY
